#pragma once
// Request dispatch for the control socket, and port ownership by session. Pure (no
// sockets, no DPDK) so every error path is unit-tested. Thread: mgmt.

#include <nlohmann/json.hpp>
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/api/rpc.hpp"

namespace lr::dp {

/// The process at the other end of a connection (SO_PEERCRED).
/// Who is at the other end: a local process (its credentials), or a controller over TCP
/// (its address, and its certificate's name under mutual TLS).
struct Peer {
  pid_t pid = 0;
  uid_t uid = 0;
  gid_t gid = 0;
  std::string address;      ///< over TCP: "host:port"; empty for the Unix socket
  std::string certificate;  ///< over TLS: the subject's common name the CA signed

  /// "pid 12, uid 0" or "10.0.0.2:51234, certificate 'controller'".
  std::string describe() const;
};

/// When a session last sent a request: a run started with a lease (run_lease.hpp) ends once
/// its session has been silent for longer. Shared, so the lease outlives the connection.
struct SessionActivity {
  std::chrono::steady_clock::time_point last_request = std::chrono::steady_clock::now();
  /// Requests read and not yet answered: a session waiting on a long call (a link coming
  /// up, a drain) is not silent.
  uint32_t pending = 0;
};

struct Session {
  uint64_t id = 0;
  Peer peer;
  std::string client;  ///< what the client called itself in hello
  std::shared_ptr<SessionActivity> activity = std::make_shared<SessionActivity>();
};

/// Which session owns which port. A session changes only ports nobody else owns;
/// ownership ends with release or with the session's connection.
class PortOwnership {
 public:
  /// A new session's id, unique over every listener sharing this (Unix socket, TCP).
  uint64_t new_session_id() noexcept { return next_session_++; }
  /// Throws RpcError kPortOwned naming the owner when another session owns one of them.
  void acquire(const Session& session, const std::vector<std::string>& ports);
  /// Releases `ports` (all of the session's when empty).
  void release(const Session& session, const std::vector<std::string>& ports);
  void release_all(uint64_t session_id);
  /// Throws RpcError kPortOwned when another session owns `port`.
  void check_may_change(const Session& session, const std::string& port) const;
  /// Session id owning `port`, if any.
  std::optional<uint64_t> owner(const std::string& port) const;

 private:
  struct Owner {
    uint64_t session = 0;
    Peer peer;
    std::string client;
  };
  std::map<std::string, Owner, std::less<>> owners_;
  uint64_t next_session_ = 1;
};

/// The completion of an asynchronous method: answers its request once, later (after a
/// timer, a drain, a link coming up). Copies share the one answer; calls after the
/// first are ignored. Thread: mgmt.
class Reply {
 public:
  using Respond = std::function<void(std::string)>;  ///< the response line ("" for a notification)
  Reply(nlohmann::json id, bool notification, Respond respond);

  void operator()(const nlohmann::json& result) const;
  void fail(api::RpcCode code, const std::string& message) const;
  /// Runs `make_result` and answers with its value, or with the error it throws
  /// (RpcError, JSON errors and other exceptions, as for a synchronous method).
  void complete(const std::function<nlohmann::json()>& make_result) const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

/// The parameter names a method's help declares: the top-level keys of the first
/// "params {...}" or "params: {...}" ("keep?" is "keep"). None when it has none.
std::vector<std::string> declared_params(std::string_view help);

class Dispatcher {
 public:
  using Handler = std::function<nlohmann::json(Session&, const api::Params&)>;
  /// Starts the work and returns at once; `reply` answers when it is done. The control
  /// thread never waits inside a handler: other sessions, the link poll and telemetry
  /// go on meanwhile. A throw before returning answers with that error.
  using AsyncHandler = std::function<void(Session&, const api::Params&, Reply reply)>;

  /// Registers a method; `mutating` methods are listed as such (they check ownership).
  /// The help declares the parameters, and only those are accepted: "params {port,
  /// mode: off|rs, keep?: bool}" (a method whose help names none takes none). A request
  /// with any other parameter is refused before the method runs, naming the ones there are.
  void add(std::string name, std::string help, bool mutating, Handler handler);
  void add_async(std::string name, std::string help, bool mutating, AsyncHandler handler);

  /// Protocol 1's old name for `current`: answers exactly as `current` does, and is
  /// listed as deprecated, naming its replacement. Methods are renamed this way, never
  /// removed. Precondition: `current` is registered.
  void alias(std::string old_name, const std::string& current);
  /// Marks a registered method deprecated in favour of `replacement` (its help says so);
  /// it keeps answering as before.
  void deprecate(const std::string& name, std::string replacement);

  /// One request line in (the session's activity renewed, and again at its answer); `respond` gets the response line (empty for a notification),
  /// now or, for an asynchronous method, once it completes. Never throws: every failure
  /// becomes a JSON-RPC error object.
  void handle(Session& session, std::string_view line, Reply::Respond respond) const;

  /// The same for callers without an event loop (tests, the fuzzer): the response of a
  /// method that answered before returning, else an internal error saying so.
  std::string handle(Session& session, std::string_view line) const;

  /// [{name, help, mutating, params, deprecated?: the replacement}] in name order.
  nlohmann::json list() const;

 private:
  struct Method {
    std::string help;
    bool mutating = false;
    Handler handler;             ///< one of the two
    AsyncHandler async_handler;
    std::string replaced_by;     ///< deprecated: the method to use instead
    std::vector<std::string> params;  ///< from the help
  };
  std::map<std::string, Method, std::less<>> methods_;
};

}  // namespace lr::dp
