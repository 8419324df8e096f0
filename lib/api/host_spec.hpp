#pragma once
// Emulated hosts on a tester port as the two programs will agree on them: a profile's
// [[device]] table (and later the RPC that loads devices) is a DeviceSpec, a first host
// and a count with steps; lib/hosts expands it into HostSpecs, one per host, which answer
// ARP, neighbour discovery and echo, and resolve their gateways.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "lib/api/stream_spec.hpp"

namespace lr::api {

struct HostIpv4 {
  uint32_t address = 0;  ///< host byte order
  uint8_t prefix = 24;   ///< on-link subnet length, 0-32
  std::optional<uint32_t> gateway;

  bool operator==(const HostIpv4&) const = default;
};

struct HostIpv6 {
  Ipv6Addr address{};
  uint8_t prefix = 64;  ///< on-link subnet length, 0-128
  std::optional<Ipv6Addr> gateway;  ///< on-link, or link-local (fe80::/10)

  bool operator==(const HostIpv6&) const = default;
};

/// One emulated host. Its IPv6 link-local address is derived from `mac` (EUI-64).
struct HostSpec {
  std::string device;      ///< the [[device]] it comes from
  uint32_t index = 0;      ///< its place in the device's range, from 0
  std::string port;        ///< the tester port it sits on
  MacAddr mac{0x02, 0, 0, 0, 0, 1};
  std::optional<uint16_t> vlan;  ///< 802.1Q VLAN ID (1-4094); none: untagged
  std::optional<HostIpv4> ipv4;
  std::optional<HostIpv6> ipv6;

  bool operator==(const HostSpec&) const = default;
};

/// A [[device]]: `count` hosts, the first `first`, each next one's MAC, addresses and
/// VLAN the previous one's plus the steps (gateways and prefixes stay).
struct DeviceSpec {
  std::string name;
  HostSpec first;  ///< device and index are filled in by the expansion
  uint32_t count = 1;
  MacAddr mac_step{0, 0, 0, 0, 0, 1};      ///< added as a 48-bit number
  uint32_t ipv4_step = 1;                  ///< added as a 32-bit number ("0.0.0.1")
  Ipv6Addr ipv6_step{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};  ///< added as a 128-bit number ("::1")
  uint16_t vlan_step = 0;
  SourceLoc loc;
  std::map<std::string, SourceLoc, std::less<>> key_locs;  ///< each key's own place in the file
  SourceLoc loc_of(std::string_view key) const {
    const auto it = key_locs.find(key);
    return it == key_locs.end() ? loc : it->second;
  }

  bool operator==(const DeviceSpec&) const = default;
};

}  // namespace lr::api
