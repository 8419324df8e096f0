#pragma once
// The control socket: a Unix-domain stream socket (mode 0660, peer credentials checked)
// on which each connection is one session sending newline-delimited JSON-RPC requests
// (lib/api/rpc.hpp). Runs on the main lcore's Asio loop, never on a worker.
// A session's port ownership ends with its connection.

#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <functional>
#include <string>

#include "lib/common/result.hpp"
#include "dataplane/mgmt/dispatcher.hpp"

namespace lr::dp {

struct ServerOptions {
  std::string socket_path;
  std::string group;  ///< empty: root and the data plane's own uid only
  /// Called with a session's id when its connection closes (after its ports are released):
  /// what else it held ends too (its captures).
  std::function<void(uint64_t)> on_session_end;
  /// The socket's folder was made for this data plane alone (a `linerate` run's): removed,
  /// once empty, with the socket.
  bool remove_socket_dir = false;
};

class RpcServer {
 public:
  RpcServer(boost::asio::io_context& io, const Dispatcher& dispatcher, PortOwnership& ownership,
            ServerOptions options);
  ~RpcServer();
  RpcServer(const RpcServer&) = delete;
  RpcServer& operator=(const RpcServer&) = delete;

  /// Creates the socket (and its directory), refusing one that another data plane
  /// serves. Errors: kBusy (in use), kInvalid (path, group), kNoDevice (bind failed).
  Result<void> listen();

  /// Whether a peer may use the socket: root, our own uid, or the configured group.
  bool allowed(const Peer& peer) const noexcept;

  class Connection;

 private:
  void accept();

  boost::asio::io_context& io_;
  const Dispatcher& dispatcher_;
  PortOwnership& ownership_;
  ServerOptions options_;
  std::optional<unsigned> group_id_;
  struct Acceptor;
  std::unique_ptr<Acceptor> acceptor_;
};

}  // namespace lr::dp
