#pragma once
// IPv4 (RFC 791) and IPv6 (RFC 8200) headers as the control path reads and writes them:
// no options written, no extension headers read, no fragments (the slow path's protocols,
// ARP aside, fit one frame).
//
//   IPv4: 0 version 4 / IHL, 1 DSCP+ECN, 2 total length, 4 identification, 6 flags +
//         fragment offset, 8 TTL, 9 protocol, 10 header checksum, 12 source, 16 destination
//   IPv6: 0 version 6 / traffic class / flow label, 4 payload length, 6 next header,
//         7 hop limit, 8 source, 24 destination
//
// Parsers take a span of any length and never read past it: the lengths the header
// claims are checked against it first. Bytes after the packet (Ethernet padding) are
// not part of its payload.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "lib/wire/checksum.hpp"

namespace lr::wire {

using Ipv6 = std::array<uint8_t, 16>;

inline constexpr uint8_t kProtoIcmp = 1;
inline constexpr uint8_t kProtoIcmpv6 = 58;
inline constexpr size_t kIpv4HeaderBytes = 20;
inline constexpr size_t kIpv6HeaderBytes = 40;

/// Why an IP header is refused (kOk: it is read).
enum class IpError : uint8_t {
  kOk,
  kTruncated,  ///< shorter than its header, or than the length it claims
  kMalformed,  ///< wrong version, IHL under 5, total length under the header, bad checksum
  kFragment,   ///< a fragment (MF set or an offset): not reassembled
};

struct Ipv4View {
  uint32_t src = 0;  ///< host byte order
  uint32_t dst = 0;
  uint8_t protocol = 0;
  uint8_t ttl = 0;
  std::span<const uint8_t> payload;  ///< total length minus the header, options skipped
};

inline IpError parse_ipv4(std::span<const uint8_t> packet, Ipv4View& out) noexcept {
  if (packet.size() < kIpv4HeaderBytes) return IpError::kTruncated;
  if ((packet[0] >> 4) != 4) return IpError::kMalformed;
  const size_t header = static_cast<size_t>(packet[0] & 0x0F) * 4;
  const size_t total = load_be16(&packet[2]);
  if (header < kIpv4HeaderBytes || total < header) return IpError::kMalformed;
  if (packet.size() < header || packet.size() < total) return IpError::kTruncated;
  if (csum_fold(csum_partial(packet.data(), header)) != 0xFFFF) return IpError::kMalformed;
  if ((load_be16(&packet[6]) & 0x3FFF) != 0) return IpError::kFragment;
  out.ttl = packet[8];
  out.protocol = packet[9];
  out.src = load_be32(&packet[12]);
  out.dst = load_be32(&packet[16]);
  out.payload = packet.subspan(header, total - header);
  return IpError::kOk;
}

/// A 20-byte IPv4 header (DF set, identification 0 as RFC 6864 allows for atomic
/// datagrams) before `payload_bytes`; 0 when `out` cannot hold the header.
inline size_t write_ipv4(std::span<uint8_t> out, uint32_t src, uint32_t dst, uint8_t protocol, uint8_t ttl,
                         size_t payload_bytes) noexcept {
  if (out.size() < kIpv4HeaderBytes || payload_bytes > 0xFFFF - kIpv4HeaderBytes) return 0;
  uint8_t* p = out.data();
  p[0] = 0x45;
  p[1] = 0;
  store_be16(p + 2, static_cast<uint16_t>(kIpv4HeaderBytes + payload_bytes));
  store_be16(p + 4, 0);
  store_be16(p + 6, 0x4000);
  p[8] = ttl;
  p[9] = protocol;
  store_be16(p + 10, 0);
  store_be32(p + 12, src);
  store_be32(p + 16, dst);
  store_be16(p + 10, static_cast<uint16_t>(~csum_fold(csum_partial(p, kIpv4HeaderBytes))));
  return kIpv4HeaderBytes;
}

struct Ipv6View {
  Ipv6 src{};
  Ipv6 dst{};
  uint8_t next_header = 0;
  uint8_t hop_limit = 0;
  std::span<const uint8_t> payload;  ///< payload length bytes
};

inline IpError parse_ipv6(std::span<const uint8_t> packet, Ipv6View& out) noexcept {
  if (packet.size() < kIpv6HeaderBytes) return IpError::kTruncated;
  if ((packet[0] >> 4) != 6) return IpError::kMalformed;
  const size_t payload = load_be16(&packet[4]);
  if (packet.size() < kIpv6HeaderBytes + payload) return IpError::kTruncated;
  out.next_header = packet[6];
  out.hop_limit = packet[7];
  for (size_t i = 0; i < 16; ++i) {
    out.src[i] = packet[8 + i];
    out.dst[i] = packet[24 + i];
  }
  out.payload = packet.subspan(kIpv6HeaderBytes, payload);
  return IpError::kOk;
}

/// A 40-byte IPv6 header (traffic class and flow label 0) before `payload_bytes`; 0 when
/// `out` cannot hold it.
inline size_t write_ipv6(std::span<uint8_t> out, const Ipv6& src, const Ipv6& dst, uint8_t next_header,
                         uint8_t hop_limit, size_t payload_bytes) noexcept {
  if (out.size() < kIpv6HeaderBytes || payload_bytes > 0xFFFF) return 0;
  uint8_t* p = out.data();
  store_be32(p, 0x60000000);
  store_be16(p + 4, static_cast<uint16_t>(payload_bytes));
  p[6] = next_header;
  p[7] = hop_limit;
  for (size_t i = 0; i < 16; ++i) {
    p[8 + i] = src[i];
    p[24 + i] = dst[i];
  }
  return kIpv6HeaderBytes;
}

/// The unfolded sum of the IPv6 pseudo-header (RFC 8200 section 8.1) of an upper-layer
/// packet of `length` bytes.
inline uint32_t ipv6_pseudo_sum(const Ipv6& src, const Ipv6& dst, uint8_t next_header, size_t length) noexcept {
  uint32_t sum = csum_partial(src.data(), 16) + csum_partial(dst.data(), 16);
  sum += csum_words(static_cast<uint32_t>(length));
  return sum + next_header;
}

/// The checksum to write into an ICMPv6 message whose checksum field is zero.
inline uint16_t icmpv6_checksum(const Ipv6& src, const Ipv6& dst, std::span<const uint8_t> message) noexcept {
  const uint32_t sum =
      ipv6_pseudo_sum(src, dst, kProtoIcmpv6, message.size()) + csum_partial(message.data(), message.size());
  return static_cast<uint16_t>(~csum_fold(sum));
}

/// Whether a received ICMPv6 message's checksum holds over its pseudo-header.
inline bool icmpv6_checksum_ok(const Ipv6& src, const Ipv6& dst, std::span<const uint8_t> message) noexcept {
  const uint32_t sum =
      ipv6_pseudo_sum(src, dst, kProtoIcmpv6, message.size()) + csum_partial(message.data(), message.size());
  return csum_fold(sum) == 0xFFFF;
}

}  // namespace lr::wire
