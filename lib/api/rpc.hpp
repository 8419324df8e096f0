#pragma once
// The control socket's protocol: JSON-RPC 2.0, one request per line (newline-delimited
// UTF-8 JSON, at most kMaxRequestBytes), one response line per request. Versioned by
// `hello` (protocol) and by adding methods, never by changing old ones. Linked by the
// data plane (server) and by the `linerate` control process (client).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace lr::api {

/// 2: `hello` says the node (host, ports, lcores, clock) and refuses a client of another
/// protocol; the methods are served over TCP too (`linerate-dataplane --listen`).
inline constexpr int kProtocolVersion = 2;
/// The longest request line. Far above the largest legitimate request: stream.load of
/// 10,000 streams named at the front ends' limit is 10 MB (tests/unit/otg/
/// otg_limits_test.cpp checks it, and the OTG server's body limit, with room for twice that). A longer line is
/// read to its newline, discarded and answered with kRequestTooLarge; the session stays.
/// A client refuses to send one (the same code, nothing sent).
inline constexpr size_t kMaxRequestBytes = 64 * 1024 * 1024;

/// JSON-RPC error codes: the standard ones, then linerate's (server range).
enum class RpcCode : int {
  kParseError = -32700,      ///< not JSON
  kInvalidRequest = -32600,  ///< JSON, but not a JSON-RPC 2.0 request
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kRequestTooLarge = -32000, ///< a line over kMaxRequestBytes
  kPortOwned = -32001,       ///< another session owns a port the call would change
  kBusy = -32002,            ///< e.g. traffic running
  kNotSupported = -32003,
  kNoDevice = -32004,
  kFailed = -32005,          ///< the data plane tried and could not
  kNoResource = -32006,      ///< a host resource ran out (memory: mempools, rings, plans); the message names it
};

/// An error a method or the codec answers with. Thrown on the control path only.
class RpcError : public std::runtime_error {
 public:
  RpcError(RpcCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  RpcCode code() const noexcept { return code_; }

 private:
  RpcCode code_;
};

// NOLINTBEGIN(bugprone-exception-escape): clang-tidy 16 reports this aggregate's implicit members; they throw only
// std::bad_alloc, as any copy of a container does
struct Request {
  nlohmann::json id;      ///< null for a notification (no response expected)
  bool notification = false;
  std::string method;
  nlohmann::json params;  ///< object (possibly empty)
};
// NOLINTEND(bugprone-exception-escape)

/// Parses one request line. Throws RpcError (kParseError, kInvalidRequest,
/// kRequestTooLarge) with a message that says what is wrong and where.
Request parse_request(std::string_view line);

std::string make_result(const nlohmann::json& id, const nlohmann::json& result);
std::string make_error(const nlohmann::json& id, RpcCode code, const std::string& message);
std::string make_request(const nlohmann::json& id, const std::string& method, const nlohmann::json& params);

/// Typed access to `params` that throws kInvalidParams naming the parameter.
class Params {
 public:
  explicit Params(const nlohmann::json& params) : params_(params) {}
  std::string string(const char* key) const;
  std::optional<std::string> optional_string(const char* key) const;
  std::vector<std::string> strings(const char* key) const;  ///< absent: empty
  std::vector<int64_t> integers(const char* key, int64_t min, int64_t max) const;  ///< absent: empty
  double number(const char* key, double min, double max) const;
  bool boolean(const char* key) const;
  std::optional<bool> optional_bool(const char* key) const;
  bool has(const char* key) const { return params_.contains(key); }
  /// The value as sent, for a typed decoder of its own (a stream spec); null when absent.
  const nlohmann::json& raw(const char* key) const;

 private:
  const nlohmann::json& params_;
};

/// A method as methods.list lists it.
struct MethodListing {
  std::string name;
  std::string help;
  bool mutating = false;              ///< it changes state (ports, streams, traffic)
  std::vector<std::string> params;    ///< the parameters it accepts ("keep?" is optional)
  std::string deprecated;             ///< an old name: the method that replaces it; "" otherwise
};

nlohmann::json to_json(const MethodListing& m);
/// Throws nlohmann::json::exception on a field of the wrong type.
MethodListing method_listing_from_json(const nlohmann::json& j);

}  // namespace lr::api
