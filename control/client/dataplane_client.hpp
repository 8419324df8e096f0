#pragma once
// A client of the data plane's control socket (newline-delimited JSON-RPC 2.0, see
// lib/api/rpc.hpp). One connection is one session: ports acquired through it stay
// owned until it closes. Synchronous: the CLI asks, waits, prints.

#include <nlohmann/json.hpp>

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "control/client/dataplane_address.hpp"

namespace lr::ctl {

/// The data plane answered with a JSON-RPC error.
class RpcCallError : public std::runtime_error {
 public:
  RpcCallError(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

/// No data plane could be reached, or it hung up. The client is then disconnected:
/// reconnect() opens a new session.
class ConnectionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class DataplaneClient {
 public:
  /// Connects to the data plane at `address` (over TCP: and its TLS handshake, each within
  /// 10 s). Throws ConnectionError saying what to check.
  explicit DataplaneClient(const DataplaneAddress& address);
  /// One on this host, at the Unix socket `socket_path`.
  explicit DataplaneClient(const std::string& socket_path);
  /// Not connected yet: reconnect() connects, and greets the data plane as `client_name`.
  struct ConnectLater {
    std::string client_name;
  };
  DataplaneClient(const DataplaneAddress& address, ConnectLater later);
  ~DataplaneClient();
  DataplaneClient(const DataplaneClient&) = delete;
  DataplaneClient& operator=(const DataplaneClient&) = delete;

  /// Calls `method` and returns its result. Throws RpcCallError or ConnectionError. A
  /// request longer than the socket carries (api::kMaxRequestBytes) is not sent: it
  /// throws RpcCallError kRequestTooLarge, and the session goes on.
  /// For the typed clients of control/client/ only: a front end calls their methods, and
  /// tests/layering/raw_calls_test.py fails on a call of this one anywhere else.
  nlohmann::json call(const std::string& method, const nlohmann::json& params = nlohmann::json::object());

  /// One answer of call_all: the result, or the refusal (error set).
  // NOLINTNEXTLINE(bugprone-exception-escape): clang-tidy 16 reports its implicit members; they throw only std::bad_alloc
  struct Answer {
    nlohmann::json result;
    int error_code = 0;
    std::string error;
    bool ok() const noexcept { return error.empty(); }
  };
  /// Several calls (method, params) sent at once and answered in order: one round trip for
  /// all, since the data plane reads a session's next request once it has answered the
  /// last. A refusal is that call's Answer; the others are answered all the same. Throws
  /// ConnectionError as call does. For the typed clients only, as call.
  std::vector<Answer> call_all(const std::vector<std::pair<std::string, nlohmann::json>>& calls);

  /// Greets the data plane as `client_name` (hello): its server, version, protocol and
  /// this session, as sent.
  nlohmann::json hello(const std::string& client_name);
  /// Whether the session is open (no ConnectionError since it was).
  bool connected() const noexcept;
  /// The data plane it connects to, as given.
  const DataplaneAddress& address() const noexcept;
  /// Whether the data plane hung up on an open session, found without a call (the socket
  /// reads as closed; between calls it never has anything else to read). Then the session
  /// is over, as after a ConnectionError. For front ends that watch it while idle.
  bool hung_up();
  /// A new session in place of a broken one: connects again and greets the data plane
  /// with the name hello gave. Throws ConnectionError. What the old session owned (ports,
  /// captures) ended with it.
  void reconnect();
  /// Every method it answers, with its help (methods.list), as sent; each item reads with
  /// api::method_listing_from_json.
  nlohmann::json methods();
  /// Any method, named at run time: `linerate call METHOD PARAMS` only. It is raw by
  /// definition (the user names the method and writes its params), so it gets its own
  /// name here, and every other front end calls a typed method instead.
  nlohmann::json call_raw(const std::string& method, const nlohmann::json& params);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  [[noreturn]] void lost(const std::string& what);  ///< closes the socket, throws ConnectionError
  /// A request's line with the next id; RpcCallError kRequestTooLarge (not sent) when too long.
  std::string request_line(const std::string& method, const nlohmann::json& params);
  void send(const std::string& requests);
  Answer read_answer(int64_t id);  ///< the answer to request `id`; another: the session is lost
  int64_t next_id_ = 1;
};

}  // namespace lr::ctl
