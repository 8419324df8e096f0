#pragma once
// HOT PATH: worker lcores only. No alloc, throw, log, lock, syscall.
//
// The ECN codepoint of a received frame (RFC 3168): the low two bits of IPv4's TOS or
// of IPv6's traffic class, found after up to two VLAN tags (802.1Q, 802.1ad), however
// the device under test tagged or untagged the frame on the way.

#include <cstdint>

#include "lib/wire/checksum.hpp"

namespace lr::wire {

/// RFC 3168 codepoints: the two ECN bits' value.
enum class Ecn : uint8_t { kNotEct = 0, kEct1 = 1, kEct0 = 2, kCe = 3 };
inline constexpr uint8_t kNoEcn = 0xFF;  ///< not IPv4 / IPv6, or too short to say

/// The ECN bits of a frame of `len` bytes (without FCS), or kNoEcn.
inline uint8_t ecn_codepoint(const uint8_t* frame, uint32_t len) noexcept {
  uint32_t at = 12;
  uint16_t type = len >= 14 ? load_be16(frame + at) : 0;
  for (int tags = 0; tags < 2 && (type == 0x8100 || type == 0x88A8) && len >= at + 6; ++tags) {
    at += 4;
    type = load_be16(frame + at);
  }
  const uint32_t l3 = at + 2;
  if (type == 0x0800 && len >= l3 + 2) return frame[l3 + 1] & 0x3;
  if (type == 0x86DD && len >= l3 + 2) return (frame[l3 + 1] >> 4) & 0x3;
  return kNoEcn;
}

}  // namespace lr::wire
