#pragma once
// ARP for IPv4 over Ethernet (RFC 826), the 28 bytes after the Ethernet header:
//
//   offset  size  field
//   0       2     hardware type 1 (Ethernet)
//   2       2     protocol type 0x0800 (IPv4)
//   4       1     hardware address length 6
//   5       1     protocol address length 4
//   6       2     opcode: 1 request, 2 reply
//   8       6     sender hardware address
//   14      4     sender protocol address
//   18      6     target hardware address (a request: zeros)
//   24      4     target protocol address
//
// A gratuitous ARP (RFC 5227 section 3) is a request whose sender and target protocol
// addresses are both the sender's own, broadcast.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "lib/wire/checksum.hpp"
#include "lib/wire/ethernet.hpp"

namespace lr::wire {

inline constexpr uint16_t kArpRequest = 1;
inline constexpr uint16_t kArpReply = 2;
inline constexpr size_t kArpBytes = 28;

struct ArpPacket {
  uint16_t op = kArpRequest;
  Mac sender_mac{};
  uint32_t sender_ip = 0;  ///< host byte order
  Mac target_mac{};
  uint32_t target_ip = 0;  ///< host byte order

  bool operator==(const ArpPacket&) const = default;
};

/// Why an ARP payload is refused (kOk: it is read).
enum class ArpError : uint8_t { kOk, kTruncated, kNotEthernetIpv4 };

/// The ARP packet at the start of `payload` (bytes after it, the frame's padding, are
/// ignored); any opcode is read, the caller judges it.
inline ArpError parse_arp(std::span<const uint8_t> payload, ArpPacket& out) noexcept {
  if (payload.size() < kArpBytes) return ArpError::kTruncated;
  if (load_be16(&payload[0]) != 1 || load_be16(&payload[2]) != kEtherTypeIpv4 || payload[4] != 6 || payload[5] != 4)
    return ArpError::kNotEthernetIpv4;
  out.op = load_be16(&payload[6]);
  for (size_t i = 0; i < 6; ++i) {
    out.sender_mac[i] = payload[8 + i];
    out.target_mac[i] = payload[18 + i];
  }
  out.sender_ip = load_be32(&payload[14]);
  out.target_ip = load_be32(&payload[24]);
  return ArpError::kOk;
}

/// The Ethernet frame of an ARP packet, padded to 60 bytes; its length, 0 when `out` is too small.
inline size_t build_arp_frame(std::span<uint8_t> out, const EthHeader& eth, const ArpPacket& arp) noexcept {
  EthHeader h = eth;
  h.ether_type = kEtherTypeArp;
  const size_t at = write_eth(out, h);
  if (at == 0 || out.size() < at + kArpBytes) return 0;
  uint8_t* p = &out[at];
  store_be16(p, 1);
  store_be16(p + 2, kEtherTypeIpv4);
  p[4] = 6;
  p[5] = 4;
  store_be16(p + 6, arp.op);
  for (size_t i = 0; i < 6; ++i) {
    p[8 + i] = arp.sender_mac[i];
    p[18 + i] = arp.target_mac[i];
  }
  store_be32(p + 14, arp.sender_ip);
  store_be32(p + 24, arp.target_ip);
  return pad_frame(out, at + kArpBytes);
}

}  // namespace lr::wire
