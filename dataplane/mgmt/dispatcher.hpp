#pragma once
// Request dispatch for the control socket, and port ownership by session. Pure (no
// sockets, no DPDK) so every error path is unit-tested. Thread: mgmt.

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dataplane/api/rpc.hpp"

namespace lr::dp {

/// The process at the other end of a connection (SO_PEERCRED).
struct Peer {
  pid_t pid = 0;
  uid_t uid = 0;
  gid_t gid = 0;
};

struct Session {
  uint64_t id = 0;
  Peer peer;
  std::string client;  ///< what the client called itself in hello
};

/// Which session owns which port. A session changes only ports nobody else owns;
/// ownership ends with release or with the session's connection.
class PortOwnership {
 public:
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
};

class Dispatcher {
 public:
  using Handler = std::function<nlohmann::json(Session&, const api::Params&)>;

  /// Registers a method; `mutating` methods are listed as such (they check ownership).
  void add(std::string name, std::string help, bool mutating, Handler handler);

  /// One request line in, one response line out (empty for a notification). Never
  /// throws: every failure becomes a JSON-RPC error object.
  std::string handle(Session& session, std::string_view line) const;

  /// [{name, help, mutating}] in name order.
  nlohmann::json list() const;

 private:
  struct Method {
    std::string help;
    bool mutating = false;
    Handler handler;
  };
  std::map<std::string, Method, std::less<>> methods_;
};

}  // namespace lr::dp
