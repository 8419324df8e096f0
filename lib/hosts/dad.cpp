#include "lib/hosts/dad.hpp"

#include <fmt/format.h>

#include <utility>

#include "lib/hosts/address_text.hpp"

namespace lr::hosts {

Dad::Dad(HostTable& hosts, DadConfig config) : hosts_(hosts), config_(config), probes_(2 * hosts.size()) {}

std::vector<Frame> Dad::start(uint64_t now_ns) {
  for (uint32_t h = 0; h < hosts_.size(); ++h)
    for (const Ipv6Slot slot : {Ipv6Slot::kLinkLocal, Ipv6Slot::kGlobal}) {
      if (slot == Ipv6Slot::kGlobal && !hosts_.host(h).spec.ipv6) continue;
      if (hosts_.host(h).state(slot) != AddressState::kTentative || probes_[slot_index({h, slot})].active) continue;
      probes_[slot_index({h, slot})] = Probe{true, 0, now_ns};
      ++pending_;
    }
  return poll(now_ns);
}

std::vector<Frame> Dad::poll(uint64_t now_ns) {
  std::vector<Frame> out;
  for (uint32_t h = 0; h < hosts_.size(); ++h)
    for (const Ipv6Slot slot : {Ipv6Slot::kLinkLocal, Ipv6Slot::kGlobal}) {
      Probe& p = probes_[slot_index({h, slot})];
      if (!p.active || now_ns < p.next_ns) continue;
      const Host& host = hosts_.host(h);
      if (p.sent < config_.transmits) {
        out.push_back(dad_probe(host, host.address(slot)));
        ++p.sent;
        p.next_ns = now_ns + config_.retrans_ns;
        continue;
      }
      p.active = false;
      --pending_;
      hosts_.set_state({h, slot}, AddressState::kPreferred);
      out.push_back(unsolicited_na(host, host.address(slot)));
    }
  return out;
}

void Dad::on_frame(const NeighborFrame& f, uint64_t now_ns) {
  const bool na = f.kind == FrameKind::kNeighborAdvertisement;
  if (!na && f.kind != FrameKind::kNeighborSolicitation) return;
  const auto at = hosts_.find_ipv6(frame_vlan(f.eth.vlan_tci), f.nd.target);
  if (!at || !probes_[slot_index(*at)].active) return;
  const Host& host = hosts_.host(at->host);
  if (na) return duplicate(*at, f.nd.link_addr.value_or(f.eth.src), "advertised it (NA)", now_ns);
  // An NS from a unicast source is someone resolving the address, not probing it.
  if (!wire::is_unspecified(f.ip6_src) || f.eth.src == host.spec.mac) return;
  duplicate(*at, f.eth.src, "probes it too (DAD NS)", now_ns);
}

void Dad::duplicate(Ipv6Match at, const wire::Mac& by, const char* how, uint64_t now_ns) {
  probes_[slot_index(at)].active = false;
  --pending_;
  hosts_.set_state(at, AddressState::kDuplicate);
  const Host& host = hosts_.host(at.host);
  const api::Ipv6Addr& address = host.address(at.slot);
  duplicates_.push_back(DuplicateAddress{
      at.host, at.slot, address, by, now_ns,
      fmt::format("port '{}', host {}: IPv6 address {} is a duplicate: {} {} during DAD; the address is not used",
                  host.spec.port, host_name(host.spec), ipv6_text(address), mac_text(by), how)});
}

std::vector<DuplicateAddress> Dad::take_duplicates() { return std::exchange(duplicates_, {}); }

}  // namespace lr::hosts
