#pragma once
// ICMP echo (RFC 792: type 8 request, 0 reply) and ICMPv6 echo (RFC 4443 section 4:
// 128 request, 129 reply), both laid out alike after their IP header:
//
//   offset  size  field
//   0       1     type
//   1       1     code 0
//   2       2     checksum: ICMP over the message; ICMPv6 over the pseudo-header too
//   4       2     identifier
//   6       2     sequence number
//   8       ...   data, returned unchanged in the reply

#include <cstddef>
#include <cstdint>
#include <span>

#include "lib/wire/checksum.hpp"
#include "lib/wire/ethernet.hpp"
#include "lib/wire/ip_headers.hpp"

namespace lr::wire {

inline constexpr uint8_t kIcmpEchoReply = 0;
inline constexpr uint8_t kIcmpEchoRequest = 8;
inline constexpr uint8_t kIcmpv6EchoRequest = 128;
inline constexpr uint8_t kIcmpv6EchoReply = 129;
inline constexpr size_t kEchoHeaderBytes = 8;

struct EchoMessage {
  uint8_t type = 0;
  uint16_t id = 0;
  uint16_t seq = 0;
  std::span<const uint8_t> data;
};

/// Why an ICMP message is refused (kOk: it is an echo, read).
enum class IcmpError : uint8_t { kOk, kTruncated, kBadChecksum, kNotEcho };

namespace detail {
inline IcmpError read_echo(std::span<const uint8_t> m, uint8_t request, uint8_t reply, EchoMessage& out) noexcept {
  if (m[0] != request && m[0] != reply) return IcmpError::kNotEcho;
  if (m[1] != 0) return IcmpError::kNotEcho;
  out.type = m[0];
  out.id = load_be16(&m[4]);
  out.seq = load_be16(&m[6]);
  out.data = m.subspan(kEchoHeaderBytes);
  return IcmpError::kOk;
}

inline size_t write_echo(uint8_t* p, uint8_t type, uint16_t id, uint16_t seq, std::span<const uint8_t> data) noexcept {
  p[0] = type;
  p[1] = 0;
  store_be16(p + 2, 0);
  store_be16(p + 4, id);
  store_be16(p + 6, seq);
  for (size_t i = 0; i < data.size(); ++i) p[kEchoHeaderBytes + i] = data[i];
  return kEchoHeaderBytes + data.size();
}
}  // namespace detail

/// An ICMP message (an IPv4 packet's payload) read as an echo.
inline IcmpError parse_icmpv4_echo(std::span<const uint8_t> message, EchoMessage& out) noexcept {
  if (message.size() < kEchoHeaderBytes) return IcmpError::kTruncated;
  if (csum_fold(csum_partial(message.data(), message.size())) != 0xFFFF) return IcmpError::kBadChecksum;
  return detail::read_echo(message, kIcmpEchoRequest, kIcmpEchoReply, out);
}

/// An ICMPv6 message (an IPv6 packet's payload, next header 58) read as an echo.
inline IcmpError parse_icmpv6_echo(const Ipv6View& ip, EchoMessage& out) noexcept {
  if (ip.payload.size() < kEchoHeaderBytes) return IcmpError::kTruncated;
  if (!icmpv6_checksum_ok(ip.src, ip.dst, ip.payload)) return IcmpError::kBadChecksum;
  return detail::read_echo(ip.payload, kIcmpv6EchoRequest, kIcmpv6EchoReply, out);
}

/// An ICMP echo in IPv4 in Ethernet, padded to 60 bytes; its length, 0 when `out` is too small.
inline size_t build_icmpv4_echo_frame(std::span<uint8_t> out, const EthHeader& eth, uint32_t src, uint32_t dst,
                                      uint8_t ttl, uint8_t type, uint16_t id, uint16_t seq,
                                      std::span<const uint8_t> data) noexcept {
  EthHeader h = eth;
  h.ether_type = kEtherTypeIpv4;
  const size_t l3 = write_eth(out, h);
  const size_t icmp_bytes = kEchoHeaderBytes + data.size();
  if (l3 == 0 || out.size() < l3 + kIpv4HeaderBytes + icmp_bytes) return 0;
  if (write_ipv4(out.subspan(l3), src, dst, kProtoIcmp, ttl, icmp_bytes) == 0) return 0;
  uint8_t* icmp = &out[l3 + kIpv4HeaderBytes];
  detail::write_echo(icmp, type, id, seq, data);
  store_be16(icmp + 2, static_cast<uint16_t>(~csum_fold(csum_partial(icmp, icmp_bytes))));
  return pad_frame(out, l3 + kIpv4HeaderBytes + icmp_bytes);
}

/// An ICMPv6 echo in IPv6 in Ethernet, padded to 60 bytes; its length, 0 when `out` is too small.
inline size_t build_icmpv6_echo_frame(std::span<uint8_t> out, const EthHeader& eth, const Ipv6& src, const Ipv6& dst,
                                      uint8_t hop_limit, uint8_t type, uint16_t id, uint16_t seq,
                                      std::span<const uint8_t> data) noexcept {
  EthHeader h = eth;
  h.ether_type = kEtherTypeIpv6;
  const size_t l3 = write_eth(out, h);
  const size_t icmp_bytes = kEchoHeaderBytes + data.size();
  if (l3 == 0 || out.size() < l3 + kIpv6HeaderBytes + icmp_bytes) return 0;
  if (write_ipv6(out.subspan(l3), src, dst, kProtoIcmpv6, hop_limit, icmp_bytes) == 0) return 0;
  uint8_t* icmp = &out[l3 + kIpv6HeaderBytes];
  detail::write_echo(icmp, type, id, seq, data);
  store_be16(icmp + 2, icmpv6_checksum(src, dst, {icmp, icmp_bytes}));
  return pad_frame(out, l3 + kIpv6HeaderBytes + icmp_bytes);
}

}  // namespace lr::wire
