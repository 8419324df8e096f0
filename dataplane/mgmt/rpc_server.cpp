#include "dataplane/mgmt/rpc_server.hpp"

#include <fmt/format.h>
#include <grp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>
#include <cerrno>
#include <filesystem>
#include <string_view>

namespace lr::dp {

namespace asio = boost::asio;
using Local = asio::local::stream_protocol;

struct RpcServer::Acceptor {
  explicit Acceptor(asio::io_context& io) : acceptor(io) {}
  Local::acceptor acceptor;
};

// One client connection: read a line, answer it, read the next. One request at a time,
// so a slow client only slows itself.
class RpcServer::Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(Local::socket socket, const Dispatcher& dispatcher, PortOwnership& ownership, Session session,
             const std::function<void(uint64_t)>& on_end)
      : socket_(std::move(socket)), dispatcher_(dispatcher), ownership_(ownership), session_(std::move(session)),
        on_end_(on_end) {}

  void start() { read(); }

  void refuse(const std::string& message) {
    send(api::make_error(nullptr, api::RpcCode::kInvalidRequest, message) + "\n", true);
  }

 private:
  void read() {
    auto self = shared_from_this();
    // One byte over the limit: a line that long cannot be a valid request.
    asio::async_read_until(socket_, asio::dynamic_buffer(buffer_, api::kMaxRequestBytes + 1), '\n',
                           [this, self](const boost::system::error_code& ec, size_t n) {
                             if (ec == asio::error::not_found) return discard(buffer_.size());
                             if (ec) return close();
                             on_line(n);
                           });
  }

  void on_line(size_t n) {
    std::string line = buffer_.substr(0, n - 1);
    buffer_.erase(0, n);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) return read();
    // One request at a time per connection: the next is read once this one is answered,
    // which for an asynchronous method is later, while other connections go on.
    auto self = shared_from_this();
    dispatcher_.handle(session_, line, [this, self](std::string reply) {
      if (reply.empty()) read();
      else send(std::move(reply) + "\n", false);
    });
  }

  // A line over the limit: read on to its newline, keeping none of it, then answer it
  // with an error; the session (and the ports it owns) stays, and the next line is read.
  void discard(size_t n_dropped) {
    buffer_.clear();
    chunk_.resize(64 * 1024);
    auto self = shared_from_this();
    socket_.async_read_some(asio::buffer(chunk_), [this, self, n_dropped](const boost::system::error_code& ec, size_t n) {
      if (ec) return close();
      const size_t newline = std::string_view(chunk_.data(), n).find('\n');
      if (newline == std::string_view::npos) return discard(n_dropped + n);
      buffer_.assign(chunk_.data() + newline + 1, n - newline - 1);
      send(api::make_error(nullptr, api::RpcCode::kRequestTooLarge,
                           fmt::format("request of {} bytes exceeds the {}-byte limit; it was read to its newline and "
                                       "discarded (the session stays open)",
                                       n_dropped + newline, api::kMaxRequestBytes)) +
               "\n",
           false);
    });
  }

  void send(std::string data, bool close_after) {
    auto self = shared_from_this();
    out_ = std::move(data);
    asio::async_write(socket_, asio::buffer(out_), [this, self, close_after](const boost::system::error_code& ec, size_t) {
      if (ec || close_after) {
        close();
        return;
      }
      read();
    });
  }

  void close() {
    boost::system::error_code ignored;
    socket_.close(ignored);
    if (closed_) return;
    closed_ = true;
    ownership_.release_all(session_.id);
    if (on_end_) on_end_(session_.id);
  }

  Local::socket socket_;
  const Dispatcher& dispatcher_;
  PortOwnership& ownership_;
  Session session_;
  std::function<void(uint64_t)> on_end_;
  bool closed_ = false;
  std::string buffer_;
  std::string chunk_;  ///< what discard() reads into
  std::string out_;
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
      session.id = next_session_++;
      ucred cred{};
      socklen_t len = sizeof(cred);
      if (::getsockopt(socket.native_handle(), SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0)
        session.peer = Peer{cred.pid, cred.uid, cred.gid};
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
