#pragma once
// Ethernet II headers with at most one 802.1Q tag, as the control path reads and writes
// them (the slow path's frames: ARP, neighbour discovery, ICMP echo).
//
//   offset  size  field
//   0       6     destination
//   6       6     source
//   12      2     EtherType, or 0x8100 then the tag's TCI (PCP 3 bits, DEI 1, VID 12)
//   14/16   2     (tagged) EtherType
//
// Parsers take a span of any length and never read past it; writers take the buffer
// and return the bytes written, 0 when it does not fit.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "lib/wire/checksum.hpp"

namespace lr::wire {

using Mac = std::array<uint8_t, 6>;

inline constexpr uint16_t kEtherTypeIpv4 = 0x0800;
inline constexpr uint16_t kEtherTypeArp = 0x0806;
inline constexpr uint16_t kEtherTypeVlan = 0x8100;
inline constexpr uint16_t kEtherTypeIpv6 = 0x86DD;
inline constexpr Mac kBroadcastMac{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
/// The shortest Ethernet frame without its FCS: shorter frames are padded with zeros.
inline constexpr size_t kMinFrameBytes = 60;

struct EthHeader {
  Mac dst{};
  Mac src{};
  std::optional<uint16_t> vlan_tci;  ///< the 802.1Q tag's TCI; none: untagged
  uint16_t ether_type = 0;

  bool operator==(const EthHeader&) const = default;
};

/// The VLAN ID of a TCI (its low 12 bits).
constexpr uint16_t vlan_id(uint16_t tci) noexcept { return tci & 0x0FFF; }

constexpr size_t eth_header_bytes(const EthHeader& h) noexcept { return h.vlan_tci ? 18 : 14; }

struct EthView {
  EthHeader header;
  std::span<const uint8_t> payload;  ///< after the header, to the end of the frame (padding included)
};

/// A frame's Ethernet header; none when the frame is shorter than its header. A second
/// tag (QinQ) is not read: its EtherType (0x8100 / 0x88A8) is then the frame's.
inline std::optional<EthView> parse_eth(std::span<const uint8_t> frame) noexcept {
  if (frame.size() < 14) return std::nullopt;
  EthView v;
  for (size_t i = 0; i < 6; ++i) {
    v.header.dst[i] = frame[i];
    v.header.src[i] = frame[6 + i];
  }
  size_t at = 12;
  uint16_t type = load_be16(&frame[at]);
  if (type == kEtherTypeVlan) {
    if (frame.size() < 18) return std::nullopt;
    v.header.vlan_tci = load_be16(&frame[14]);
    at = 16;
    type = load_be16(&frame[at]);
  }
  v.header.ether_type = type;
  v.payload = frame.subspan(at + 2);
  return v;
}

/// Writes the header at the start of `out`; the bytes written (14 or 18), 0 when it does not fit.
inline size_t write_eth(std::span<uint8_t> out, const EthHeader& h) noexcept {
  const size_t n = eth_header_bytes(h);
  if (out.size() < n) return 0;
  for (size_t i = 0; i < 6; ++i) {
    out[i] = h.dst[i];
    out[6 + i] = h.src[i];
  }
  size_t at = 12;
  if (h.vlan_tci) {
    store_be16(&out[12], kEtherTypeVlan);
    store_be16(&out[14], *h.vlan_tci);
    at = 16;
  }
  store_be16(&out[at], h.ether_type);
  return n;
}

/// A frame of `len` bytes padded with zeros to the minimum; the new length, 0 when `out`
/// cannot hold the minimum.
inline size_t pad_frame(std::span<uint8_t> out, size_t len) noexcept {
  if (len >= kMinFrameBytes) return len;
  if (out.size() < kMinFrameBytes) return 0;
  for (size_t i = len; i < kMinFrameBytes; ++i) out[i] = 0;
  return kMinFrameBytes;
}

constexpr bool is_multicast_mac(const Mac& mac) noexcept { return (mac[0] & 0x01) != 0; }

}  // namespace lr::wire
