#include "dataplane/mgmt/rpc_server.hpp"

#include <boost/asio/local/stream_protocol.hpp>
#include <fmt/format.h>
#include <grp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "dataplane/mgmt/rpc_connection.hpp"

namespace lr::dp {

namespace asio = boost::asio;
using Local = asio::local::stream_protocol;

struct RpcServer::Acceptor {
  explicit Acceptor(asio::io_context& io) : acceptor(io) {}
  Local::acceptor acceptor;
};

class RpcServer::Connection : public RpcConnection<Local::socket> {
 public:
  using RpcConnection::RpcConnection;
};

RpcServer::RpcServer(asio::io_context& io, const Dispatcher& dispatcher, PortOwnership& ownership,
                     ServerOptions options)
    : io_(io), dispatcher_(dispatcher), ownership_(ownership), options_(std::move(options)),
      acceptor_(std::make_unique<Acceptor>(io)) {}

RpcServer::~RpcServer() {
  if (acceptor_->acceptor.is_open()) {
    boost::system::error_code ignored;
    acceptor_->acceptor.close(ignored);
    ::unlink(options_.socket_path.c_str());
    if (options_.remove_socket_dir) ::rmdir(std::filesystem::path(options_.socket_path).parent_path().c_str());
  }
}

bool RpcServer::allowed(const Peer& peer) const noexcept {
  return peer.uid == 0 || peer.uid == ::geteuid() || (group_id_ && peer.gid == *group_id_);
}

Result<void> RpcServer::listen() {
  const std::string& path = options_.socket_path;
  if (path.empty() || path.size() > 107)
    return make_error(Errc::kInvalid, fmt::format("control socket path '{}' must have 1 to 107 characters", path));
  if (!options_.group.empty()) {
    const group* g = ::getgrnam(options_.group.c_str());
    if (g == nullptr) return make_error(Errc::kInvalid, fmt::format("control.group '{}' does not exist", options_.group));
    group_id_ = g->gr_gid;
  }
  std::error_code fs_error;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, fs_error);
  if (fs_error) return make_error(Errc::kInvalid, fmt::format("creating {}: {}", parent.string(), fs_error.message()));
  if (std::filesystem::is_socket(path, fs_error)) {
    // A socket someone answers on belongs to a running data plane; a dead one is stale.
    Local::socket probe(io_);
    boost::system::error_code ec;
    probe.connect(Local::endpoint(path), ec);
    if (!ec) return make_error(Errc::kBusy, fmt::format("another data plane serves {}", path));
    ::unlink(path.c_str());
  }
  boost::system::error_code ec;
  auto& acceptor = acceptor_->acceptor;
  acceptor.open(Local(), ec);
  if (!ec) acceptor.bind(Local::endpoint(path), ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return make_error(Errc::kNoDevice, fmt::format("control socket {}: {}", path, ec.message()));
  ::chmod(path.c_str(), 0660);
  if (group_id_ && ::chown(path.c_str(), static_cast<uid_t>(-1), *group_id_) != 0)
    return make_error(Errc::kInvalid, fmt::format("giving {} to group {}", path, options_.group), errno);
  accept();
  return {};
}

void RpcServer::accept() {
  acceptor_->acceptor.async_accept([this](const boost::system::error_code& ec, Local::socket socket) {
    if (ec == asio::error::operation_aborted) return;
    if (!ec) {
      Session session;
      session.id = ownership_.new_session_id();
      ucred cred{};
      socklen_t len = sizeof(cred);
      if (::getsockopt(socket.native_handle(), SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0)
        session.peer = Peer{cred.pid, cred.uid, cred.gid, "", ""};
      auto connection = std::make_shared<Connection>(std::move(socket), dispatcher_, ownership_, session,
                                                         options_.on_session_end);
      if (allowed(session.peer)) {
        connection->start();
      } else {
        connection->refuse(fmt::format("permission denied: uid {} is not root, the data plane's user{}", session.peer.uid,
                                       options_.group.empty() ? "" : " or in group " + options_.group));
      }
    }
    accept();
  });
}

}  // namespace lr::dp
