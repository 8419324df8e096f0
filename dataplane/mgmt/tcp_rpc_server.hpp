#pragma once
// The control socket over the network (`linerate-dataplane --serve --listen ADDR:PORT`):
// the same JSON-RPC methods as the Unix socket, for a controller on another host, over
// mutual TLS (lib/tls): the handshake refuses a peer without a certificate the lab's CA
// signed, so no request of it is ever read. Plain TCP only on a loopback address and only
// when asked for (--insecure): anyone who reaches the port would drive the ports.

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "dataplane/mgmt/dispatcher.hpp"
#include "lib/common/result.hpp"
#include "lib/tls/mutual_tls.hpp"

namespace lr::dp {

struct TcpServerOptions {
  std::string listen;         ///< "ADDR:PORT": an IPv4 or [IPv6] address; port 0 picks a free one
  tls::MutualTlsFiles tls;    ///< all three, or none with `insecure`
  bool insecure = false;      ///< plain TCP, on a loopback address only
  std::function<void(uint64_t)> on_session_end;
};

/// What listen() checks before it binds (the address, TLS or a loopback --insecure, the
/// certificate files): for the command line, before the ports come up.
Result<void> check_tcp_server_options(const TcpServerOptions& options);

class TcpRpcServer {
 public:
  TcpRpcServer(boost::asio::io_context& io, const Dispatcher& dispatcher, PortOwnership& ownership,
               TcpServerOptions options);
  ~TcpRpcServer();
  TcpRpcServer(const TcpRpcServer&) = delete;
  TcpRpcServer& operator=(const TcpRpcServer&) = delete;

  /// Checks the options (TLS or a loopback --insecure), loads the certificates, binds.
  /// Errors: kInvalid (options, files), kBusy (the port is taken), kNoDevice (bind).
  Result<void> listen();
  /// What it serves on, for the banner: "127.0.0.1:7300, mutual TLS (CA ca.pem)".
  std::string describe() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace lr::dp
