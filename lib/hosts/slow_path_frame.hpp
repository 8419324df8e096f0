#pragma once
// Which received frames go to the emulated hosts (the slow path): ARP, and IPv4 ICMP or
// IPv6 ICMPv6 (neighbour discovery, echo) after at most one 802.1Q tag. Only these leave
// a worker's RX loop; everything else without the tester's signature is counted and freed
// where it is. Read from the first 24 bytes a frame holds, never past `len`.
// HOT PATH: called by workers on frames without a signature. No alloc, throw or syscall.

#include <cstdint>

#include "lib/wire/ethernet.hpp"

namespace lr::hosts {

inline constexpr uint8_t kIpProtoIcmp = 1;
inline constexpr uint8_t kIpProtoIcmpv6 = 58;

inline bool is_slow_path_frame(const uint8_t* frame, uint32_t len) noexcept {
  if (len < 14) return false;
  uint32_t at = 12;
  uint16_t type = wire::load_be16(frame + at);
  if (type == wire::kEtherTypeVlan) {
    if (len < 18) return false;
    at += 4;
    type = wire::load_be16(frame + at);
  }
  const uint32_t l3 = at + 2;
  if (type == wire::kEtherTypeArp) return true;
  if (type == wire::kEtherTypeIpv4) return len >= l3 + 10 && frame[l3 + 9] == kIpProtoIcmp;
  if (type == wire::kEtherTypeIpv6) return len >= l3 + 7 && frame[l3 + 6] == kIpProtoIcmpv6;
  return false;
}

}  // namespace lr::hosts
