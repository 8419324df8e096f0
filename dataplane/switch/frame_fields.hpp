#pragma once
// HOT PATH: the switch lcore. No alloc, throw, log, lock, syscall.
//
// The fields a switch reads and writes in a frame: where its IP header starts (after up
// to two VLAN tags), the outer tag's PCP, the DSCP, and the ECN bits set to CE with the
// IPv4 header checksum updated incrementally (RFC 1624; IPv6 has none).

#include <cstdint>

#include "lib/wire/checksum.hpp"

namespace lr::sw {

struct L3At {
  uint32_t offset = 0;  ///< of the IP header; 0: not IP (or too short)
  bool v6 = false;
};

inline L3At find_l3(const uint8_t* frame, uint32_t len) noexcept {
  uint32_t at = 12;
  uint16_t type = len >= 14 ? wire::load_be16(frame + at) : 0;
  for (int tags = 0; tags < 2 && (type == 0x8100 || type == 0x88A8) && len >= at + 6; ++tags) {
    at += 4;
    type = wire::load_be16(frame + at);
  }
  const uint32_t l3 = at + 2;
  if (type == 0x0800 && len >= l3 + 20) return {l3, false};
  if (type == 0x86DD && len >= l3 + 40) return {l3, true};
  return {};
}

/// The outer VLAN tag's PCP; 0 for an untagged frame.
inline uint8_t outer_pcp(const uint8_t* frame, uint32_t len) noexcept {
  if (len < 18) return 0;
  const uint16_t type = wire::load_be16(frame + 12);
  if (type != 0x8100 && type != 0x88A8) return 0;
  return static_cast<uint8_t>(frame[14] >> 5);
}

/// DSCP (the high six bits of the IPv4 TOS / IPv6 traffic class), or 0 when not IP.
inline uint8_t dscp_of(const uint8_t* frame, L3At l3) noexcept {
  if (l3.offset == 0) return 0;
  const uint8_t* ip = frame + l3.offset;
  if (!l3.v6) return static_cast<uint8_t>(ip[1] >> 2);
  return static_cast<uint8_t>(((ip[0] & 0x0F) << 2) | (ip[1] >> 6));
}

/// The two ECN bits; 0 (Not-ECT) when not IP.
inline uint8_t ecn_of(const uint8_t* frame, L3At l3) noexcept {
  if (l3.offset == 0) return 0;
  const uint8_t* ip = frame + l3.offset;
  return l3.v6 ? static_cast<uint8_t>((ip[1] >> 4) & 0x3) : static_cast<uint8_t>(ip[1] & 0x3);
}

/// Sets the ECN bits to CE (11).
inline void set_ce(uint8_t* frame, L3At l3) noexcept {
  uint8_t* ip = frame + l3.offset;
  if (l3.v6) {
    ip[1] |= 0x30;
    return;
  }
  const uint16_t old_word = wire::load_be16(ip);
  ip[1] |= 0x3;
  const uint16_t new_word = wire::load_be16(ip);
  const uint16_t old_csum = wire::load_be16(ip + 10);
  // RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m').
  const uint32_t sum = static_cast<uint16_t>(~old_csum) + static_cast<uint16_t>(~old_word) + uint32_t{new_word};
  wire::store_be16(ip + 10, static_cast<uint16_t>(~wire::csum_fold(sum)));
}

}  // namespace lr::sw
