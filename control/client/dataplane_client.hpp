#pragma once
// A client of the data plane's control socket (newline-delimited JSON-RPC 2.0, see
// lib/api/rpc.hpp). One connection is one session: ports acquired through it stay
// owned until it closes. Synchronous: the CLI asks, waits, prints.

#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace lr::ctl {

/// The data plane answered with a JSON-RPC error.
class RpcCallError : public std::runtime_error {
 public:
  RpcCallError(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

/// No data plane could be reached, or it hung up.
class ConnectionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class DataplaneClient {
 public:
  /// Connects to `socket_path`. Throws ConnectionError saying what to check.
  explicit DataplaneClient(const std::string& socket_path);
  ~DataplaneClient();
  DataplaneClient(const DataplaneClient&) = delete;
  DataplaneClient& operator=(const DataplaneClient&) = delete;

  /// Calls `method` and returns its result. Throws RpcCallError or ConnectionError.
  nlohmann::json call(const std::string& method, const nlohmann::json& params = nlohmann::json::object());

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int64_t next_id_ = 1;
};

/// The socket to use: --socket, else $LINERATE_SOCKET, else /run/linerate/dataplane.sock.
std::string default_socket_path(const std::string& option);

}  // namespace lr::ctl
