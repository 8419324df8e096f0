#include "lib/hosts/host_expansion.hpp"

#include <fmt/format.h>

#include <map>
#include <tuple>

#include "lib/hosts/address_text.hpp"
#include "lib/wire/ipv6_nd.hpp"

namespace lr::hosts {

namespace {

constexpr uint64_t kMacMax = (uint64_t{1} << 48) - 1;

uint64_t mac_number(const api::MacAddr& mac) {
  uint64_t n = 0;
  for (const uint8_t b : mac) n = n << 8 | b;
  return n;
}

api::MacAddr mac_of(uint64_t n) {
  api::MacAddr mac{};
  for (size_t i = 6; i-- > 0; n >>= 8) mac[i] = static_cast<uint8_t>(n);
  return mac;
}

// base + i * step in 128 bits, or none when it passes ffff:...:ffff.
std::optional<api::Ipv6Addr> ipv6_plus(const api::Ipv6Addr& base, uint32_t i, const api::Ipv6Addr& step) {
  api::Ipv6Addr out{};
  uint64_t carry = 0;
  for (size_t b = 16; b-- > 0;) {
    const uint64_t v = uint64_t{base[b]} + uint64_t{step[b]} * i + carry;
    out[b] = static_cast<uint8_t>(v);
    carry = v >> 8;
  }
  if (carry != 0) return std::nullopt;
  return out;
}

std::unexpected<HostsError> refuse(std::string key, std::string message) {
  return std::unexpected(HostsError{std::move(key), std::move(message)});
}

// The IPv4 address of host `i`, checked; an error names the key and the host.
std::expected<void, HostsError> check_ipv4(const api::HostIpv4& v4, uint32_t i) {
  const uint32_t a = v4.address;
  const uint8_t top = static_cast<uint8_t>(a >> 24);
  const std::string key = i == 0 ? "ipv4" : "ipv4_step";
  if (top == 0 || top == 127 || top >= 224)
    return refuse(
        key, fmt::format("host {}: {} is not a host's address (0/8, 127/8, 224/4 and above are not)", i, ipv4_text(a)));
  const uint32_t mask = ipv4_mask(v4.prefix);
  if (v4.prefix <= 30 && ((a & ~mask) == 0 || (a & ~mask) == ~mask))
    return refuse(key, fmt::format("host {}: {} is the {} address of {}/{}", i, ipv4_text(a),
                                   (a & ~mask) == 0 ? "network" : "broadcast", ipv4_text(a & mask), v4.prefix));
  if (v4.gateway && *v4.gateway == a)
    return refuse(key, fmt::format("host {}: {} is its own gateway", i, ipv4_text(a)));
  if (v4.gateway && (*v4.gateway & mask) != (a & mask))
    return refuse(key, fmt::format("host {}: gateway {} is not on its subnet {}/{}", i, ipv4_text(*v4.gateway),
                                   ipv4_text(a & mask), v4.prefix));
  return {};
}

std::expected<void, HostsError> check_ipv6(const api::HostIpv6& v6, uint32_t i) {
  const api::Ipv6Addr& a = v6.address;
  const std::string key = i == 0 ? "ipv6" : "ipv6_step";
  const api::Ipv6Addr loopback{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  if (wire::is_multicast(a) || wire::is_unspecified(a) || a == loopback)
    return refuse(key,
                  fmt::format("host {}: {} is not a host's address (multicast, :: and ::1 are not)", i, ipv6_text(a)));
  if (v6.gateway && *v6.gateway == a)
    return refuse(key, fmt::format("host {}: {} is its own gateway", i, ipv6_text(a)));
  if (v6.gateway && !is_link_local(*v6.gateway) && !same_ipv6_prefix(*v6.gateway, a, v6.prefix))
    return refuse(key, fmt::format("host {}: gateway {} is neither link-local nor on its subnet ({}/{})", i,
                                   ipv6_text(*v6.gateway), ipv6_text(a), v6.prefix));
  return {};
}

// Host i's MAC and VLAN, or why not.
std::expected<void, HostsError> step_link(const api::DeviceSpec& d, uint32_t i, api::HostSpec& h) {
  const uint64_t base = mac_number(d.first.mac), step = mac_number(d.mac_step);
  if (step != 0 && i > (kMacMax - base) / step)
    return refuse("mac_step", fmt::format("host {}: {} + {} x {} passes ff:ff:ff:ff:ff:ff", i, mac_text(d.first.mac), i,
                                          mac_text(d.mac_step)));
  h.mac = mac_of(base + step * i);
  if ((h.mac[0] & 0x01) != 0 || h.mac == api::MacAddr{})
    return refuse(i == 0 ? "mac" : "mac_step", fmt::format("host {}: {} is not a host's MAC ({})", i, mac_text(h.mac),
                                                           h.mac == api::MacAddr{} ? "zero" : "multicast"));
  if (d.first.vlan) {
    const uint64_t vlan = *d.first.vlan + uint64_t{d.vlan_step} * i;
    if (vlan > 4094)
      return refuse("vlan_step",
                    fmt::format("host {}: VLAN {} + {} x {} passes 4094", i, *d.first.vlan, i, d.vlan_step));
    h.vlan = static_cast<uint16_t>(vlan);
  }
  return {};
}

// Host i's addresses, or why not.
std::expected<void, HostsError> step_addresses(const api::DeviceSpec& d, uint32_t i, api::HostSpec& h) {
  if (d.first.ipv4) {
    const uint64_t a = d.first.ipv4->address + uint64_t{d.ipv4_step} * i;
    if (a > 0xFFFFFFFFu)
      return refuse("ipv4_step", fmt::format("host {}: {} + {} x {} passes 255.255.255.255", i,
                                             ipv4_text(d.first.ipv4->address), i, ipv4_text(d.ipv4_step)));
    h.ipv4->address = static_cast<uint32_t>(a);
    if (auto ok = check_ipv4(*h.ipv4, i); !ok) return ok;
  }
  if (d.first.ipv6) {
    const auto a = ipv6_plus(d.first.ipv6->address, i, d.ipv6_step);
    if (!a)
      return refuse("ipv6_step", fmt::format("host {}: {} + {} x {} passes ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", i,
                                             ipv6_text(d.first.ipv6->address), i, ipv6_text(d.ipv6_step)));
    h.ipv6->address = *a;
    if (auto ok = check_ipv6(*h.ipv6, i); !ok) return ok;
  }
  return {};
}

}  // namespace

bool same_ipv6_prefix(const api::Ipv6Addr& a, const api::Ipv6Addr& b, uint8_t prefix) noexcept {
  for (size_t byte = 0; byte < 16 && prefix > 0; ++byte) {
    const unsigned bits = prefix >= 8 ? 8 : prefix;
    const auto mask = static_cast<uint8_t>(0xFF << (8 - bits));
    if ((a[byte] & mask) != (b[byte] & mask)) return false;
    prefix = static_cast<uint8_t>(prefix - bits);
  }
  return true;
}

std::expected<std::vector<api::HostSpec>, HostsError> expand_device(const api::DeviceSpec& device) {
  std::vector<api::HostSpec> hosts;
  hosts.reserve(device.count);
  for (uint32_t i = 0; i < device.count; ++i) {
    api::HostSpec h = device.first;
    h.device = device.name;
    h.index = i;
    if (auto ok = step_link(device, i, h); !ok) return std::unexpected(ok.error());
    if (auto ok = step_addresses(device, i, h); !ok) return std::unexpected(ok.error());
    hosts.push_back(std::move(h));
  }
  return hosts;
}

std::expected<void, HostsError> check_distinct(std::span<const api::HostSpec> hosts) {
  using Key = std::tuple<std::string, int, api::Ipv6Addr>;  // port, VLAN (-1: untagged), value padded to 16 bytes
  std::map<Key, const api::HostSpec*> macs, ipv4s, ipv6s;
  const auto key_of = [](const api::HostSpec& h, auto bytes) {
    api::Ipv6Addr padded{};
    for (size_t i = 0; i < bytes.size(); ++i) padded[i] = bytes[i];
    return Key{h.port, h.vlan ? int{*h.vlan} : -1, padded};
  };
  const auto clash = [&](const api::HostSpec& h, const api::HostSpec& other, const char* key, const std::string& what) {
    return std::unexpected(
        HostsError{key,
                   fmt::format("{} on port '{}'{} has {}, as {} has", host_name(h), h.port,
                               h.vlan ? fmt::format(" VLAN {}", *h.vlan) : "", what, host_name(other)),
                   static_cast<size_t>(&h - hosts.data())});
  };
  for (const api::HostSpec& h : hosts) {
    if (auto [it, fresh] = macs.emplace(key_of(h, h.mac), &h); !fresh)
      return clash(h, *it->second, h.index == 0 ? "mac" : "mac_step", "MAC " + mac_text(h.mac));
    if (h.ipv4) {
      const api::MacAddr bytes{static_cast<uint8_t>(h.ipv4->address >> 24),
                               static_cast<uint8_t>(h.ipv4->address >> 16),
                               static_cast<uint8_t>(h.ipv4->address >> 8),
                               static_cast<uint8_t>(h.ipv4->address),
                               0,
                               0};
      if (auto [it, fresh] = ipv4s.emplace(key_of(h, bytes), &h); !fresh)
        return clash(h, *it->second, h.index == 0 ? "ipv4" : "ipv4_step", "IPv4 address " + ipv4_text(h.ipv4->address));
    }
    const api::Ipv6Addr link_local = wire::link_local_from_mac(h.mac);
    if (auto [it, fresh] = ipv6s.emplace(key_of(h, link_local), &h); !fresh)
      return clash(h, *it->second, h.index == 0 ? "mac" : "mac_step", "link-local address " + ipv6_text(link_local));
    if (h.ipv6)
      if (auto [it, fresh] = ipv6s.emplace(key_of(h, h.ipv6->address), &h); !fresh)
        return clash(h, *it->second, h.index == 0 ? "ipv6" : "ipv6_step", "IPv6 address " + ipv6_text(h.ipv6->address));
  }
  return {};
}

}  // namespace lr::hosts
