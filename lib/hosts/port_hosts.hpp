#pragma once
// The emulated hosts of one port as the data plane's control path will drive them: one
// object per port, fed the slow path's frames and a clock, answering with the frames to
// send. It ties the pieces together:
//   start(now)     a gratuitous ARP per host with IPv4, DAD's first probes (link-local and
//                  global), the first ARP request for each IPv4 gateway
//   on_frame(f)    the responder's replies; DAD, the resolver and IPv4 conflict detection
//                  read the frame too; counted by verdict
//   poll(now)      DAD's further probes and its announcements (unsolicited NA), resolution
//                  retries, and each IPv6 gateway's first NS once the host's address of its
//                  scope is preferred
//   link_up(now)   after a link flap: announce again and resolve every neighbour again
// Events (resolved, failed, MAC changed, duplicate IPv6 address, IPv4 address conflict)
// name the port, the host and the addresses. Nothing here sleeps or sends: the caller owns
// the TX queue and the clock. Thread: the control path's one thread.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "lib/api/host_spec.hpp"
#include "lib/hosts/dad.hpp"
#include "lib/hosts/host_table.hpp"
#include "lib/hosts/neighbor_frame.hpp"
#include "lib/hosts/resolver.hpp"

namespace lr::hosts {

struct PortHostsConfig {
  DadConfig dad;
  ResolverConfig resolver;
};

struct HostEvent {
  enum class Kind : uint8_t { kResolved, kResolveFailed, kMacChanged, kDuplicateAddress, kAddressConflict };
  Kind kind = Kind::kResolved;
  uint32_t host = 0;
  uint64_t at_ns = 0;
  std::string message;
};

class PortHosts {
 public:
  /// Hosts already expanded and checked distinct (expand_device, check_distinct).
  PortHosts(std::vector<api::HostSpec> hosts, PortHostsConfig config);
  PortHosts(const PortHosts&) = delete;  // dad_ and resolver_ point at table_
  PortHosts& operator=(const PortHosts&) = delete;

  std::vector<Frame> start(uint64_t now_ns);
  std::vector<Frame> on_frame(std::span<const uint8_t> frame, uint64_t now_ns);
  std::vector<Frame> poll(uint64_t now_ns);
  std::vector<Frame> link_up(uint64_t now_ns);

  /// The events since the last call, oldest first.
  std::vector<HostEvent> take_events();
  /// Frames received, by verdict (index: RxVerdict).
  const std::array<uint64_t, kRxVerdicts>& counts() const noexcept { return counts_; }

  /// A host's resolved gateway MAC, none while it is not resolved (or it has no gateway).
  std::optional<wire::Mac> gateway_mac_ipv4(uint32_t host) const;
  std::optional<wire::Mac> gateway_mac_ipv6(uint32_t host) const;
  /// Why each gateway is not resolved ("" for none): for a run refused before traffic.
  std::vector<std::string> unresolved() const;

  /// Resolves `address` for `host` too (a stream's next hop: its gateway, or a destination
  /// on its subnet), again if it failed before; an IPv6 one once the host's address of the
  /// same scope is preferred.
  void want(uint32_t host, const IpAddress& address, uint64_t now_ns);
  /// The MAC `address` resolved to for `host`; none while it is not resolved.
  std::optional<wire::Mac> neighbor_mac(uint32_t host, const IpAddress& address) const;
  /// Whether it may still resolve: requests still to send, or DAD still running.
  bool resolving(uint32_t host, const IpAddress& address) const;
  /// Why it is not resolved, for a refusal: "3 ARP requests unanswered", ...
  std::string unresolved_reason(uint32_t host, const IpAddress& address) const;

  const HostTable& table() const noexcept { return table_; }
  const Resolver& resolver() const noexcept { return resolver_; }

 private:
  std::optional<wire::Mac> resolved(const std::optional<uint32_t>& id) const;
  void start_ipv6_gateways(uint64_t now_ns);
  void start_wanted_ipv6(uint64_t now_ns);
  void check_conflict(const NeighborFrame& frame, uint64_t now_ns);
  void collect_events();

  HostTable table_;
  Dad dad_;
  Resolver resolver_;
  std::vector<std::optional<uint32_t>> gateway4_;  ///< by host: its IPv4 gateway's neighbour id
  std::vector<std::optional<uint32_t>> gateway6_;  ///< by host: its IPv6 gateway's, once asked
  std::vector<std::pair<uint32_t, api::Ipv6Addr>> wanted6_;  ///< (host, address) wanted before DAD ended
  std::vector<bool> conflict_reported_;            ///< by host: an IPv4 conflict is reported once
  std::array<uint64_t, kRxVerdicts> counts_{};
  std::vector<HostEvent> events_;
};

}  // namespace lr::hosts
