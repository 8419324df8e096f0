#include "lib/hosts/resolver.hpp"

#include <fmt/format.h>

#include <utility>

#include "lib/hosts/address_text.hpp"
#include "lib/hosts/host_expansion.hpp"

namespace lr::hosts {

std::string ip_text(const IpAddress& address) {
  if (const auto* v4 = std::get_if<uint32_t>(&address)) return ipv4_text(*v4);
  return ipv6_text(std::get<api::Ipv6Addr>(address));
}

Resolver::Resolver(const HostTable& hosts, ResolverConfig config) : hosts_(hosts), config_(config) {}

std::optional<uint32_t> Resolver::find(uint32_t host, const IpAddress& address) const {
  const api::HostSpec& spec = hosts_.host(host).spec;
  const auto it = by_address_.find({spec.vlan ? int{*spec.vlan} : -1, address});
  if (it == by_address_.end()) return std::nullopt;
  for (const uint32_t id : it->second)
    if (neighbors_[id].host == host) return id;
  return std::nullopt;
}

uint32_t Resolver::add(uint32_t host, const IpAddress& address, uint64_t now_ns) {
  if (const auto id = find(host, address)) return *id;
  const auto id = static_cast<uint32_t>(neighbors_.size());
  Neighbor n;
  n.host = host;
  n.address = address;
  n.next_ns = now_ns;
  neighbors_.push_back(n);
  const api::HostSpec& spec = hosts_.host(host).spec;
  by_address_[{spec.vlan ? int{*spec.vlan} : -1, address}].push_back(id);
  return id;
}

void Resolver::retry_failed(uint32_t id, uint64_t now_ns) {
  Neighbor& n = neighbors_[id];
  if (n.state != NeighborState::kFailed) return;
  n.state = NeighborState::kIncomplete;
  n.tries = 0;
  n.next_ns = now_ns;
}

void Resolver::restart(uint64_t now_ns) {
  for (Neighbor& n : neighbors_) {
    n.state = NeighborState::kIncomplete;
    n.tries = 0;
    n.next_ns = now_ns;
  }
}

Frame Resolver::request(const Neighbor& n) const {
  const Host& host = hosts_.host(n.host);
  if (const auto* v4 = std::get_if<uint32_t>(&n.address)) return arp_request(host, *v4);
  const api::Ipv6Addr& target = std::get<api::Ipv6Addr>(n.address);
  const bool link_local = is_link_local(target) || !host.spec.ipv6;
  return neighbor_solicitation(host, link_local ? host.link_local : host.spec.ipv6->address, target);
}

std::string Resolver::who(const Neighbor& n) const {
  const api::HostSpec& spec = hosts_.host(n.host).spec;
  const std::string own = std::holds_alternative<uint32_t>(n.address)
                              ? (spec.ipv4 ? ipv4_text(spec.ipv4->address) : "no IPv4")
                              : (spec.ipv6 ? ipv6_text(spec.ipv6->address) : ipv6_text(hosts_.host(n.host).link_local));
  const bool gateway = std::holds_alternative<uint32_t>(n.address)
                           ? spec.ipv4 && spec.ipv4->gateway == std::get<uint32_t>(n.address)
                           : spec.ipv6 && spec.ipv6->gateway == std::get<api::Ipv6Addr>(n.address);
  return fmt::format("port '{}', host {} ({}): {} {}", spec.port, host_name(spec), own,
                     gateway ? "gateway" : "neighbour", ip_text(n.address));
}

std::vector<Frame> Resolver::poll(uint64_t now_ns) {
  std::vector<Frame> out;
  for (uint32_t id = 0; id < neighbors_.size(); ++id) {
    Neighbor& n = neighbors_[id];
    if (n.state != NeighborState::kIncomplete || now_ns < n.next_ns) continue;
    if (n.tries < config_.max_tries) {
      out.push_back(request(n));
      ++n.tries;
      n.next_ns = now_ns + config_.retry_ns;
      continue;
    }
    n.state = NeighborState::kFailed;
    const bool v4 = std::holds_alternative<uint32_t>(n.address);
    events_.push_back(
        NeighborEvent{NeighborEvent::Kind::kFailed,
                      id,
                      {},
                      {},
                      now_ns,
                      fmt::format("{} did not answer {} {}, {} ms apart", who(n), n.tries,
                                  v4 ? "ARP requests" : "neighbour solicitations", config_.retry_ns / 1'000'000)});
  }
  return out;
}

void Resolver::learn(uint32_t id, const wire::Mac& mac, bool may_override, uint64_t now_ns) {
  Neighbor& n = neighbors_[id];
  if (n.state == NeighborState::kResolved) {
    if (n.mac == mac) {
      n.resolved_ns = now_ns;
      return;
    }
    if (!may_override) return;
    events_.push_back(
        NeighborEvent{NeighborEvent::Kind::kMacChanged, id, n.mac, mac, now_ns,
                      fmt::format("{} changed its MAC from {} to {}", who(n), mac_text(n.mac), mac_text(mac))});
    n.mac = mac;
    n.resolved_ns = now_ns;
    return;
  }
  n.state = NeighborState::kResolved;
  n.mac = mac;
  n.resolved_ns = now_ns;
  events_.push_back(NeighborEvent{
      NeighborEvent::Kind::kResolved, id, {}, mac, now_ns, fmt::format("{} is at {}", who(n), mac_text(mac))});
}

void Resolver::on_frame(const NeighborFrame& f, uint64_t now_ns) {
  IpAddress from;
  wire::Mac mac;
  bool may_override = true;
  if (f.kind == FrameKind::kArp && (f.arp.op == wire::kArpRequest || f.arp.op == wire::kArpReply)) {
    from = f.arp.sender_ip;
    mac = f.arp.sender_mac;
  } else if (f.kind == FrameKind::kNeighborAdvertisement) {
    from = f.nd.target;
    mac = f.nd.link_addr.value_or(f.eth.src);
    may_override = (f.nd.flags & wire::kNaOverride) != 0;
  } else {
    return;
  }
  const std::optional<uint16_t> vlan = frame_vlan(f.eth.vlan_tci);
  const auto it = by_address_.find({vlan ? int{*vlan} : -1, from});
  if (it == by_address_.end()) return;
  for (const uint32_t id : it->second) learn(id, mac, may_override, now_ns);
}

std::vector<NeighborEvent> Resolver::take_events() { return std::exchange(events_, {}); }

}  // namespace lr::hosts
