#include "lib/hosts/host_table.hpp"

#include <functional>
#include <string_view>

#include "lib/wire/ethernet.hpp"
#include "lib/wire/ipv6_nd.hpp"

namespace lr::hosts {

std::optional<uint16_t> frame_vlan(std::optional<uint16_t> tci) noexcept {
  if (!tci || wire::vlan_id(*tci) == 0) return std::nullopt;
  return wire::vlan_id(*tci);
}

HostTable::HostTable(std::vector<api::HostSpec> hosts, AddressState ipv6_state) {
  hosts_.reserve(hosts.size());
  by_ipv4_.reserve(hosts.size());
  by_ipv6_.reserve(2 * hosts.size());
  for (api::HostSpec& spec : hosts) {
    const auto i = static_cast<uint32_t>(hosts_.size());
    Host h{std::move(spec), {}, ipv6_state, ipv6_state};
    h.link_local = wire::link_local_from_mac(h.spec.mac);
    const int vlan = h.spec.vlan ? int{*h.spec.vlan} : -1;
    if (h.spec.ipv4) by_ipv4_.emplace(v4_key(h.spec.vlan, h.spec.ipv4->address), i);
    by_ipv6_.emplace(V6Key{vlan, h.link_local}, Ipv6Match{i, Ipv6Slot::kLinkLocal});
    if (h.spec.ipv6) by_ipv6_.emplace(V6Key{vlan, h.spec.ipv6->address}, Ipv6Match{i, Ipv6Slot::kGlobal});
    hosts_.push_back(std::move(h));
  }
}

void HostTable::set_state(Ipv6Match at, AddressState state) noexcept {
  Host& h = hosts_[at.host];
  (at.slot == Ipv6Slot::kLinkLocal ? h.link_local_state : h.global_state) = state;
}

uint64_t HostTable::v4_key(std::optional<uint16_t> vlan, uint32_t address) noexcept {
  return (vlan ? uint64_t{*vlan} + 1 : 0) << 32 | address;
}

size_t HostTable::V6Hash::operator()(const V6Key& k) const noexcept {
  const std::string_view bytes(reinterpret_cast<const char*>(k.address.data()), k.address.size());
  return std::hash<std::string_view>{}(bytes) ^ (static_cast<size_t>(k.vlan) * 0x9E3779B97F4A7C15ull);
}

std::optional<uint32_t> HostTable::find_ipv4(std::optional<uint16_t> vlan, uint32_t address) const {
  const auto it = by_ipv4_.find(v4_key(vlan, address));
  if (it == by_ipv4_.end()) return std::nullopt;
  return it->second;
}

std::optional<Ipv6Match> HostTable::find_ipv6(std::optional<uint16_t> vlan, const api::Ipv6Addr& address) const {
  const auto it = by_ipv6_.find(V6Key{vlan ? int{*vlan} : -1, address});
  if (it == by_ipv6_.end()) return std::nullopt;
  return it->second;
}

}  // namespace lr::hosts
