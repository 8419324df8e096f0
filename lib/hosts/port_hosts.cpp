#include "lib/hosts/port_hosts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "lib/hosts/address_text.hpp"
#include "lib/hosts/host_expansion.hpp"
#include "lib/hosts/responder.hpp"

namespace lr::hosts {

namespace {

void append(std::vector<Frame>& out, std::vector<Frame> more) {
  for (Frame& f : more) out.push_back(std::move(f));
}

// The host's address a neighbour at `gateway` is asked from: link-local for a link-local one.
Ipv6Slot source_slot(const api::Ipv6Addr& gateway) {
  return is_link_local(gateway) ? Ipv6Slot::kLinkLocal : Ipv6Slot::kGlobal;
}

}  // namespace

PortHosts::PortHosts(std::vector<api::HostSpec> hosts, PortHostsConfig config)
    : table_(std::move(hosts)),
      dad_(table_, config.dad),
      resolver_(table_, config.resolver),
      gateway4_(table_.size()),
      gateway6_(table_.size()),
      conflict_reported_(table_.size()) {}

std::vector<Frame> PortHosts::start(uint64_t now_ns) {
  std::vector<Frame> out;
  for (uint32_t h = 0; h < table_.size(); ++h) {
    const Host& host = table_.host(h);
    if (!host.spec.ipv4) continue;
    out.push_back(gratuitous_arp(host));
    if (host.spec.ipv4->gateway) gateway4_[h] = resolver_.add(h, *host.spec.ipv4->gateway, now_ns);
  }
  append(out, dad_.start(now_ns));
  append(out, resolver_.poll(now_ns));
  collect_events();
  return out;
}

std::vector<Frame> PortHosts::on_frame(std::span<const uint8_t> frame, uint64_t now_ns) {
  const NeighborFrame parsed = parse_neighbor_frame(frame);
  Response r = respond(table_, parsed);
  ++counts_[static_cast<size_t>(r.verdict)];
  dad_.on_frame(parsed, now_ns);
  resolver_.on_frame(parsed, now_ns);
  check_conflict(parsed, now_ns);
  collect_events();
  return std::move(r.replies);
}

std::vector<Frame> PortHosts::poll(uint64_t now_ns) {
  std::vector<Frame> out = dad_.poll(now_ns);
  start_ipv6_gateways(now_ns);
  start_wanted_ipv6(now_ns);
  append(out, resolver_.poll(now_ns));
  collect_events();
  return out;
}

std::vector<Frame> PortHosts::link_up(uint64_t now_ns) {
  std::vector<Frame> out;
  for (uint32_t h = 0; h < table_.size(); ++h) {
    const Host& host = table_.host(h);
    if (host.spec.ipv4) out.push_back(gratuitous_arp(host));
    for (const Ipv6Slot slot : {Ipv6Slot::kLinkLocal, Ipv6Slot::kGlobal})
      if ((slot == Ipv6Slot::kLinkLocal || host.spec.ipv6) && host.state(slot) == AddressState::kPreferred)
        out.push_back(unsolicited_na(host, host.address(slot)));
  }
  resolver_.restart(now_ns);
  append(out, resolver_.poll(now_ns));
  collect_events();
  return out;
}

void PortHosts::start_ipv6_gateways(uint64_t now_ns) {
  for (uint32_t h = 0; h < table_.size(); ++h) {
    const Host& host = table_.host(h);
    if (gateway6_[h] || !host.spec.ipv6 || !host.spec.ipv6->gateway) continue;
    if (host.state(source_slot(*host.spec.ipv6->gateway)) == AddressState::kPreferred)
      gateway6_[h] = resolver_.add(h, *host.spec.ipv6->gateway, now_ns);
  }
}

void PortHosts::want(uint32_t host, const IpAddress& address, uint64_t now_ns) {
  // One that failed before (the device was not ready then) is asked again.
  if (const auto* v4 = std::get_if<uint32_t>(&address)) {
    resolver_.retry_failed(resolver_.add(host, *v4, now_ns), now_ns);
    return;
  }
  const auto& v6 = std::get<api::Ipv6Addr>(address);
  if (table_.host(host).state(source_slot(v6)) == AddressState::kPreferred)
    resolver_.retry_failed(resolver_.add(host, v6, now_ns), now_ns);
  else if (std::find(wanted6_.begin(), wanted6_.end(), std::pair{host, v6}) == wanted6_.end())
    wanted6_.emplace_back(host, v6);
}

void PortHosts::start_wanted_ipv6(uint64_t now_ns) {
  std::erase_if(wanted6_, [&](const std::pair<uint32_t, api::Ipv6Addr>& w) {
    if (table_.host(w.first).state(source_slot(w.second)) != AddressState::kPreferred) return false;
    resolver_.add(w.first, w.second, now_ns);
    return true;
  });
}

std::optional<wire::Mac> PortHosts::neighbor_mac(uint32_t host, const IpAddress& address) const {
  return resolved(resolver_.find(host, address));
}

bool PortHosts::resolving(uint32_t host, const IpAddress& address) const {
  if (const auto id = resolver_.find(host, address)) return resolver_.neighbor(*id).state == NeighborState::kIncomplete;
  if (const auto* v6 = std::get_if<api::Ipv6Addr>(&address))
    return table_.host(host).state(source_slot(*v6)) == AddressState::kTentative;
  return false;
}

std::string PortHosts::unresolved_reason(uint32_t host, const IpAddress& address) const {
  const bool v4 = std::holds_alternative<uint32_t>(address);
  const char* requests = v4 ? "ARP requests" : "neighbour solicitations";
  if (const auto id = resolver_.find(host, address)) {
    const Neighbor& n = resolver_.neighbor(*id);
    if (n.state == NeighborState::kFailed) return fmt::format("{} {} unanswered", n.tries, requests);
    return fmt::format("still resolving ({} {} sent)", n.tries, requests);
  }
  if (v4) return "never asked";
  const Ipv6Slot slot = source_slot(std::get<api::Ipv6Addr>(address));
  return table_.host(host).state(slot) == AddressState::kDuplicate
             ? fmt::format("its address {} is a duplicate", ipv6_text(table_.host(host).address(slot)))
             : "its address is still tentative (DAD)";
}

// RFC 5227 section 2.4: an ARP packet whose sender claims a host's address from another MAC.
void PortHosts::check_conflict(const NeighborFrame& f, uint64_t now_ns) {
  if (f.kind != FrameKind::kArp) return;
  const auto h = table_.find_ipv4(frame_vlan(f.eth.vlan_tci), f.arp.sender_ip);
  if (!h || conflict_reported_[*h] || f.arp.sender_mac == table_.host(*h).spec.mac) return;
  conflict_reported_[*h] = true;
  const api::HostSpec& spec = table_.host(*h).spec;
  events_.push_back(HostEvent{HostEvent::Kind::kAddressConflict, *h, now_ns,
                              fmt::format("port '{}', host {}: {} also claims its IPv4 address {} (ARP {})", spec.port,
                                          host_name(spec), mac_text(f.arp.sender_mac), ipv4_text(spec.ipv4->address),
                                          f.arp.op == wire::kArpReply ? "reply" : "request")});
}

void PortHosts::collect_events() {
  for (DuplicateAddress& d : dad_.take_duplicates())
    events_.push_back(HostEvent{HostEvent::Kind::kDuplicateAddress, d.host, d.at_ns, std::move(d.message)});
  for (NeighborEvent& e : resolver_.take_events()) {
    const HostEvent::Kind kind = e.kind == NeighborEvent::Kind::kResolved ? HostEvent::Kind::kResolved
                                 : e.kind == NeighborEvent::Kind::kFailed ? HostEvent::Kind::kResolveFailed
                                                                          : HostEvent::Kind::kMacChanged;
    events_.push_back(HostEvent{kind, resolver_.neighbor(e.neighbor).host, e.at_ns, std::move(e.message)});
  }
}

std::vector<HostEvent> PortHosts::take_events() { return std::exchange(events_, {}); }

std::optional<wire::Mac> PortHosts::resolved(const std::optional<uint32_t>& id) const {
  if (!id || resolver_.neighbor(*id).state != NeighborState::kResolved) return std::nullopt;
  return resolver_.neighbor(*id).mac;
}

std::optional<wire::Mac> PortHosts::gateway_mac_ipv4(uint32_t host) const { return resolved(gateway4_[host]); }
std::optional<wire::Mac> PortHosts::gateway_mac_ipv6(uint32_t host) const { return resolved(gateway6_[host]); }

std::vector<std::string> PortHosts::unresolved() const {
  std::vector<std::string> out;
  for (uint32_t h = 0; h < table_.size(); ++h) {
    const api::HostSpec& spec = table_.host(h).spec;
    const std::string who = fmt::format("port '{}', host {}", spec.port, host_name(spec));
    if (spec.ipv4 && spec.ipv4->gateway && !gateway_mac_ipv4(h))
      out.push_back(fmt::format(
          "{} ({}): gateway {} is not resolved{}", who, ipv4_text(spec.ipv4->address), ipv4_text(*spec.ipv4->gateway),
          gateway4_[h] && resolver_.neighbor(*gateway4_[h]).state == NeighborState::kFailed
              ? fmt::format(" ({} ARP requests unanswered)", resolver_.neighbor(*gateway4_[h]).tries)
              : ""));
    if (!spec.ipv6 || !spec.ipv6->gateway || gateway_mac_ipv6(h)) continue;
    const api::Ipv6Addr& gw = *spec.ipv6->gateway;
    const Ipv6Slot slot = source_slot(gw);
    std::string why;
    if (table_.host(h).state(slot) == AddressState::kDuplicate)
      why = fmt::format(" (its address {} is a duplicate)", ipv6_text(table_.host(h).address(slot)));
    else if (!gateway6_[h]) why = " (its address is still tentative)";
    else if (resolver_.neighbor(*gateway6_[h]).state == NeighborState::kFailed)
      why = fmt::format(" ({} neighbour solicitations unanswered)", resolver_.neighbor(*gateway6_[h]).tries);
    out.push_back(
        fmt::format("{} ({}): gateway {} is not resolved{}", who, ipv6_text(spec.ipv6->address), ipv6_text(gw), why));
  }
  return out;
}

}  // namespace lr::hosts
