#pragma once
// A device's range expanded into its hosts, and the hosts of a port checked distinct.
// Thread: any (control path; allocates).

#include <expected>
#include <span>
#include <string>
#include <vector>

#include "lib/api/host_spec.hpp"

namespace lr::hosts {

/// Why a device or a port's hosts are refused: the device key to blame and the message.
struct HostsError {
  std::string key;      ///< "mac", "mac_step", "ipv4", "ipv4_step", "ipv6", "ipv6_step", "vlan", "vlan_step"
  std::string message;  ///< names the host by its index, and the values
  size_t host = 0;      ///< check_distinct: the second host of the two, its place in the span
};

/// The hosts of `device` in order: host i has `first`'s MAC, VLAN and addresses plus i
/// steps; gateways and prefixes are the first's. Refused, naming the host's index: a MAC,
/// VLAN or address that passes its largest value; a multicast or zero MAC; an IPv4
/// address that is not a host's (0/8, 127/8, 224/4 and above, its subnet's network or
/// broadcast address); an IPv6 address that is multicast, :: or ::1; a gateway off the
/// host's subnet (IPv6: unless link-local) or equal to its address.
std::expected<std::vector<api::HostSpec>, HostsError> expand_device(const api::DeviceSpec& device);

/// Refuses two hosts on one port and VLAN with the same MAC, IPv4 address or IPv6 address
/// (link-local ones included, derived from the MAC), naming both hosts.
std::expected<void, HostsError> check_distinct(std::span<const api::HostSpec> hosts);

/// The IPv4 subnet mask of a prefix length (0-32), host byte order.
constexpr uint32_t ipv4_mask(uint8_t prefix) noexcept {
  return prefix == 0 ? 0 : prefix >= 32 ? 0xFFFFFFFFu : ~((uint32_t{1} << (32 - prefix)) - 1);
}

/// Whether two IPv6 addresses share their first `prefix` bits (0-128).
bool same_ipv6_prefix(const api::Ipv6Addr& a, const api::Ipv6Addr& b, uint8_t prefix) noexcept;

/// fe80::/10.
constexpr bool is_link_local(const api::Ipv6Addr& a) noexcept { return a[0] == 0xFE && (a[1] & 0xC0) == 0x80; }

}  // namespace lr::hosts
