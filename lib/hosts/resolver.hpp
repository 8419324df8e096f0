#pragma once
// Neighbour resolution for the hosts of a port (a gateway, or an on-link destination),
// as a state machine on an explicit clock (the caller passes now_ns; nothing sleeps):
//
//   add() -> incomplete: a request (ARP request, or NS to the solicited-node group) at
//   once, again every `retry_ns` until `max_tries` are sent; `retry_ns` after the last,
//   failed (the host, the address and the tries named). An ARP packet whose sender is the
//   neighbour, or an NA for it, on the host's VLAN -> resolved (MAC, when). A resolved
//   neighbour whose MAC changes later (ARP; an NA with O set) is reported: old, new, when.
//   restart() (a link flap) sends the requests again from the start.
//
// An IPv6 neighbour is asked from the host's address of the same scope (link-local for a
// link-local neighbour, else the global), which must be preferred: the caller adds IPv6
// neighbours once DAD has ended. Thread: the control path's one thread.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "lib/hosts/host_frames.hpp"
#include "lib/hosts/host_table.hpp"
#include "lib/hosts/neighbor_frame.hpp"

namespace lr::hosts {

struct ResolverConfig {
  uint64_t retry_ns = 1'000'000'000;  ///< between requests (RFC 4861 RetransTimer: 1 s)
  uint32_t max_tries = 3;             ///< requests before giving up (MAX_MULTICAST_SOLICIT: 3)
};

/// An IPv4 address (host byte order) or an IPv6 address.
using IpAddress = std::variant<uint32_t, api::Ipv6Addr>;
std::string ip_text(const IpAddress& address);

enum class NeighborState : uint8_t { kIncomplete, kResolved, kFailed };

struct Neighbor {
  uint32_t host = 0;
  IpAddress address;
  NeighborState state = NeighborState::kIncomplete;
  uint32_t tries = 0;        ///< requests sent since add() or restart()
  uint64_t next_ns = 0;      ///< incomplete: the next request, or the timeout after the last
  wire::Mac mac{};           ///< resolved: its MAC
  uint64_t resolved_ns = 0;  ///< resolved: when (the latest answer)
};

struct NeighborEvent {
  enum class Kind : uint8_t { kResolved, kFailed, kMacChanged };
  Kind kind = Kind::kResolved;
  uint32_t neighbor = 0;  ///< its id (add()'s answer)
  wire::Mac old_mac{};    ///< kMacChanged: the MAC before
  wire::Mac mac{};        ///< kResolved, kMacChanged: the MAC now
  uint64_t at_ns = 0;
  std::string message;    ///< names the port, the host, the address (and the tries or the MACs)
};

class Resolver {
 public:
  /// `hosts` outlives this.
  Resolver(const HostTable& hosts, ResolverConfig config);

  /// Starts resolving `address` for host `host` at `now_ns` (its first request goes out at
  /// the next poll); its id. The same pair twice gives the same id.
  uint32_t add(uint32_t host, const IpAddress& address, uint64_t now_ns);
  /// A failed neighbour asked again from the start (a run that needs it): incomplete, 0
  /// tries, its first request at the next poll. Any other state is left as it is.
  void retry_failed(uint32_t id, uint64_t now_ns);
  /// Every neighbour resolved again from the start (after a link flap): incomplete, 0 tries.
  void restart(uint64_t now_ns);

  /// The requests due at `now_ns`; neighbours out of tries become failed.
  std::vector<Frame> poll(uint64_t now_ns);
  /// A received frame: answers resolve neighbours, or report a changed MAC.
  void on_frame(const NeighborFrame& frame, uint64_t now_ns);

  const Neighbor& neighbor(uint32_t id) const noexcept { return neighbors_[id]; }
  size_t size() const noexcept { return neighbors_.size(); }
  /// The events since the last call.
  std::vector<NeighborEvent> take_events();
  /// The id of `address` asked for `host`, none if it never was.
  std::optional<uint32_t> find(uint32_t host, const IpAddress& address) const;

 private:
  Frame request(const Neighbor& n) const;
  void learn(uint32_t id, const wire::Mac& mac, bool may_override, uint64_t now_ns);
  std::string who(const Neighbor& n) const;

  const HostTable& hosts_;
  ResolverConfig config_;
  std::vector<Neighbor> neighbors_;
  std::map<std::pair<int, IpAddress>, std::vector<uint32_t>> by_address_;  ///< (VLAN or -1, address) -> ids
  std::vector<NeighborEvent> events_;
};

}  // namespace lr::hosts
