#include "dataplane/mgmt/tcp_rpc_server.hpp"

#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <optional>

#include "dataplane/mgmt/rpc_connection.hpp"
#include "lib/net/listen_address.hpp"

namespace lr::dp {

namespace asio = boost::asio;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using TlsStream = ssl::stream<tcp::socket>;

namespace {

// A peer that connects and never finishes its handshake holds a socket no longer than this.
constexpr auto kHandshakeDeadline = std::chrono::seconds(10);

// The --listen of linerate-dataplane, with its example.
Result<tcp::endpoint> listen_endpoint(const std::string& text) {
  return net::parse_listen_address(text, "127.0.0.1:7300");
}

}  // namespace

struct TcpRpcServer::State {
  State(asio::io_context& io_context, const Dispatcher& d, PortOwnership& o, TcpServerOptions opts)
      : io(io_context), dispatcher(d), ownership(o), options(std::move(opts)), acceptor(io_context) {}

  void accept();
  Session session_for(const tcp::socket& socket);
  void start_tls(tcp::socket socket);

  asio::io_context& io;
  const Dispatcher& dispatcher;
  PortOwnership& ownership;
  TcpServerOptions options;
  tcp::acceptor acceptor;
  std::optional<ssl::context> tls;
};

Session TcpRpcServer::State::session_for(const tcp::socket& socket) {
  Session session;
  session.id = ownership.new_session_id();
  boost::system::error_code ec;
  const tcp::endpoint remote = socket.remote_endpoint(ec);
  session.peer.address = ec ? "unknown" : net::endpoint_text(remote);
  return session;
}

// The handshake first, under a deadline; the session only once the CA vouched for the peer.
void TcpRpcServer::State::start_tls(tcp::socket socket) {
  Session session = session_for(socket);
  auto connection = std::make_shared<RpcConnection<TlsStream>>(TlsStream(std::move(socket), *tls), dispatcher,
                                                               ownership, std::move(session), options.on_session_end);
  auto deadline = std::make_shared<asio::steady_timer>(io, kHandshakeDeadline);
  deadline->async_wait([connection](const boost::system::error_code& ec) {
    if (!ec) close_socket(connection->stream());
  });
  connection->stream().async_handshake(
      ssl::stream_base::server, [connection, deadline](const boost::system::error_code& ec) {
        deadline->cancel();
        Peer& peer = connection->session().peer;
        if (ec) {
      // Said once per refused peer: a certificate from another CA is a setup error to fix.
          std::fprintf(stderr, "linerate-dataplane: refused %s at the TLS handshake: %s\n", peer.address.c_str(),
                       ec.message().c_str());
          close_socket(connection->stream());
          return;
        }
        peer.certificate = tls::peer_common_name(connection->stream().native_handle());
        connection->start();
      });
}

void TcpRpcServer::State::accept() {
  acceptor.async_accept([this](const boost::system::error_code& ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted) return;
    if (!ec) {
      boost::system::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);  // one small request, one small answer
      if (tls) {
        start_tls(std::move(socket));
      } else {
        Session session = session_for(socket);
        std::make_shared<RpcConnection<tcp::socket>>(std::move(socket), dispatcher, ownership, std::move(session),
                                                     options.on_session_end)
            ->start();
      }
    }
    accept();
  });
}

TcpRpcServer::TcpRpcServer(asio::io_context& io, const Dispatcher& dispatcher, PortOwnership& ownership,
                           TcpServerOptions options)
    : state_(std::make_unique<State>(io, dispatcher, ownership, std::move(options))) {}

TcpRpcServer::~TcpRpcServer() {
  boost::system::error_code ignored;
  state_->acceptor.close(ignored);
}

namespace {

// The options checked, and the TLS context they ask for (none: plain TCP).
Result<std::optional<ssl::context>> server_tls(const TcpServerOptions& options, const tcp::endpoint& endpoint) {
  if (options.insecure && options.tls.any())
    return make_error(Errc::kInvalid,
                      "--insecure serves plain TCP: give it or --tls-ca, --tls-cert and --tls-key, "
                      "not both");
  if (options.insecure && net::reachable_from_other_hosts(endpoint))
    return make_error(Errc::kInvalid,
                      fmt::format("--listen {} --insecure: plain TCP is served on a loopback address only (127.0.0.1, "
                                  "[::1]); anyone reaching {} could drive the ports. Give --tls-ca, --tls-cert and "
                                  "--tls-key for mutual TLS",
                                  options.listen, endpoint.address().to_string()));
  if (options.insecure) return std::optional<ssl::context>();
  if (!options.tls.any())
    return make_error(Errc::kInvalid,
                      fmt::format("--listen {}: the data plane serves the network over mutual TLS; give --tls-ca, "
                                  "--tls-cert and --tls-key (scripts/engine-certs.sh makes a lab CA and both ends' "
                                  "certificates), or, on a loopback address, --insecure for plain TCP",
                                  options.listen));
  auto context = tls::make_mutual_tls_context(options.tls, tls::TlsSide::kServer);
  if (!context) return std::unexpected(context.error());
  return std::optional<ssl::context>(std::move(*context));
}

}  // namespace

Result<void> check_tcp_server_options(const TcpServerOptions& options) {
  auto endpoint = listen_endpoint(options.listen);
  if (!endpoint) return std::unexpected(endpoint.error());
  if (auto tls = server_tls(options, *endpoint); !tls) return std::unexpected(tls.error());
  return {};
}

Result<void> TcpRpcServer::listen() {
  const TcpServerOptions& options = state_->options;
  auto endpoint = listen_endpoint(options.listen);
  if (!endpoint) return std::unexpected(endpoint.error());
  auto tls = server_tls(options, *endpoint);
  if (!tls) return std::unexpected(tls.error());
  if (*tls) state_->tls.emplace(std::move(**tls));
  boost::system::error_code ec;
  tcp::acceptor& acceptor = state_->acceptor;
  acceptor.open(endpoint->protocol(), ec);
  if (!ec) acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor.bind(*endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec == asio::error::address_in_use)
    return make_error(Errc::kBusy, fmt::format("--listen {}: the port is in use", options.listen));
  if (ec) return make_error(Errc::kNoDevice, fmt::format("--listen {}: {}", options.listen, ec.message()));
  state_->accept();
  return {};
}

std::string TcpRpcServer::describe() const {
  boost::system::error_code ec;
  const tcp::endpoint bound = state_->acceptor.local_endpoint(ec);
  const std::string where = ec ? state_->options.listen : net::endpoint_text(bound);
  if (!state_->tls) return where + ", plain TCP (--insecure, loopback only)";
  return fmt::format("{}, mutual TLS (peers signed by {})", where, state_->options.tls.ca);
}

}  // namespace lr::dp
