#pragma once
// IPv6 neighbour discovery (RFC 4861): neighbour solicitations and advertisements, their
// link-layer address options, and the addresses they travel to.
//
//   NS (type 135)                          NA (type 136)
//   0  1  type 135                         0  1  type 136
//   1  1  code 0                           1  1  code 0
//   2  2  checksum (pseudo-header too)     2  2  checksum
//   4  4  reserved                         4  1  flags R 0x80, S 0x40, O 0x20; 3 bytes reserved
//   8  16 target address                   8  16 target address
//   24    options                          24    options
//
//   option: 0 type (1 source, 2 target link-layer address), 1 length in units of 8 bytes
//           (0 is invalid: the whole message is dropped, section 4.6), then the MAC
//
// Received messages are validated as section 7.1 asks: hop limit 255, code 0, checksum,
// 24 bytes at least, a unicast target, no option of length 0; an NS from the unspecified
// address goes to a solicited-node group and carries no source address option; an NA to
// a multicast group has S clear.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "lib/wire/checksum.hpp"
#include "lib/wire/ethernet.hpp"
#include "lib/wire/ip_headers.hpp"

namespace lr::wire {

inline constexpr uint8_t kNdSolicitation = 135;
inline constexpr uint8_t kNdAdvertisement = 136;
inline constexpr uint8_t kNdOptSourceLinkAddr = 1;
inline constexpr uint8_t kNdOptTargetLinkAddr = 2;
inline constexpr uint8_t kNaRouter = 0x80;
inline constexpr uint8_t kNaSolicited = 0x40;
inline constexpr uint8_t kNaOverride = 0x20;
/// ND messages are sent, and accepted, with hop limit 255: proof they were not routed.
inline constexpr uint8_t kNdHopLimit = 255;
inline constexpr size_t kNdHeaderBytes = 24;
inline constexpr size_t kNdLinkAddrOptionBytes = 8;
inline constexpr Ipv6 kAllNodes{0xFF, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01};
inline constexpr Ipv6 kUnspecified{};

constexpr bool is_multicast(const Ipv6& a) noexcept { return a[0] == 0xFF; }
constexpr bool is_unspecified(const Ipv6& a) noexcept { return a == kUnspecified; }

/// The solicited-node group of an address (RFC 4291 section 2.7.1): ff02::1:ff00:0/104
/// with the address's low 24 bits.
constexpr Ipv6 solicited_node(const Ipv6& a) noexcept {
  return Ipv6{0xFF, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0xFF, a[13], a[14], a[15]};
}

constexpr bool is_solicited_node(const Ipv6& a) noexcept {
  return solicited_node(Ipv6{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, a[13], a[14], a[15]}) == a;
}

/// The Ethernet group of an IPv6 multicast address (RFC 2464 section 7): 33:33 and its
/// low 32 bits.
constexpr Mac multicast_mac(const Ipv6& group) noexcept {
  return Mac{0x33, 0x33, group[12], group[13], group[14], group[15]};
}

/// The link-local address of an interface with this MAC (RFC 4291 appendix A): fe80::/64
/// and the modified EUI-64 (ff:fe in the middle, the universal/local bit inverted).
constexpr Ipv6 link_local_from_mac(const Mac& m) noexcept {
  return Ipv6{0xFE, 0x80, 0,    0,    0,    0,    0,   0, static_cast<uint8_t>(m[0] ^ 0x02),
              m[1], m[2], 0xFF, 0xFE, m[3], m[4], m[5]};
}

struct NdMessage {
  uint8_t type = 0;   ///< kNdSolicitation or kNdAdvertisement
  uint8_t flags = 0;  ///< NA: kNaRouter | kNaSolicited | kNaOverride; NS: 0
  Ipv6 target{};
  /// NS: the source link-layer address option; NA: the target link-layer address option.
  std::optional<Mac> link_addr;
};

/// Why an ND message is refused (kOk: read).
enum class NdError : uint8_t { kOk, kTruncated, kBadChecksum, kMalformed, kNotNd };

namespace detail {
// The options after the fixed part: every option has a length, and lies inside the message.
inline NdError read_nd_options(std::span<const uint8_t> options, uint8_t wanted, NdMessage& out) noexcept {
  while (!options.empty()) {
    if (options.size() < 2) return NdError::kMalformed;
    const size_t len = static_cast<size_t>(options[1]) * 8;
    if (len == 0) return NdError::kMalformed;
    if (len > options.size()) return NdError::kMalformed;
    if (options[0] == wanted && !out.link_addr) {
      Mac mac;
      for (size_t i = 0; i < 6; ++i) mac[i] = options[2 + i];
      out.link_addr = mac;
    }
    options = options.subspan(len);
  }
  return NdError::kOk;
}
}  // namespace detail

/// An ICMPv6 packet read as an NS or NA, validated as RFC 4861 section 7.1 asks.
inline NdError parse_nd(const Ipv6View& ip, NdMessage& out) noexcept {
  const std::span<const uint8_t> m = ip.payload;
  if (m.empty() || (m[0] != kNdSolicitation && m[0] != kNdAdvertisement)) return NdError::kNotNd;
  if (m.size() < kNdHeaderBytes) return NdError::kTruncated;
  if (!icmpv6_checksum_ok(ip.src, ip.dst, m)) return NdError::kBadChecksum;
  if (ip.hop_limit != kNdHopLimit || m[1] != 0) return NdError::kMalformed;
  out = NdMessage{};
  out.type = m[0];
  for (size_t i = 0; i < 16; ++i) out.target[i] = m[8 + i];
  if (is_multicast(out.target)) return NdError::kMalformed;
  const bool ns = out.type == kNdSolicitation;
  if (!ns) out.flags = m[4] & (kNaRouter | kNaSolicited | kNaOverride);
  const NdError options =
      detail::read_nd_options(m.subspan(kNdHeaderBytes), ns ? kNdOptSourceLinkAddr : kNdOptTargetLinkAddr, out);
  if (options != NdError::kOk) return options;
  if (ns && is_unspecified(ip.src) && (!is_solicited_node(ip.dst) || out.link_addr)) return NdError::kMalformed;
  if (!ns && is_multicast(ip.dst) && (out.flags & kNaSolicited) != 0) return NdError::kMalformed;
  return NdError::kOk;
}

/// An NS or NA in IPv6 (hop limit 255) in Ethernet, with its link-layer address option when
/// `msg.link_addr` has one, padded to 60 bytes; its length, 0 when `out` is too small.
inline size_t build_nd_frame(std::span<uint8_t> out, const EthHeader& eth, const Ipv6& src, const Ipv6& dst,
                             const NdMessage& msg) noexcept {
  EthHeader h = eth;
  h.ether_type = kEtherTypeIpv6;
  const size_t l3 = write_eth(out, h);
  const size_t icmp_bytes = kNdHeaderBytes + (msg.link_addr ? kNdLinkAddrOptionBytes : 0);
  if (l3 == 0 || out.size() < l3 + kIpv6HeaderBytes + icmp_bytes) return 0;
  write_ipv6(out.subspan(l3), src, dst, kProtoIcmpv6, kNdHopLimit, icmp_bytes);
  uint8_t* p = &out[l3 + kIpv6HeaderBytes];
  const bool ns = msg.type == kNdSolicitation;
  p[0] = msg.type;
  p[1] = 0;
  store_be16(p + 2, 0);
  store_be32(p + 4, ns ? 0 : static_cast<uint32_t>(msg.flags) << 24);
  for (size_t i = 0; i < 16; ++i) p[8 + i] = msg.target[i];
  if (msg.link_addr) {
    p[24] = ns ? kNdOptSourceLinkAddr : kNdOptTargetLinkAddr;
    p[25] = 1;
    for (size_t i = 0; i < 6; ++i) p[26 + i] = (*msg.link_addr)[i];
  }
  store_be16(p + 2, icmpv6_checksum(src, dst, {p, icmp_bytes}));
  return pad_frame(out, l3 + kIpv6HeaderBytes + icmp_bytes);
}

}  // namespace lr::wire
