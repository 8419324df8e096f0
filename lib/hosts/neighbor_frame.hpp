#pragma once
// The slow path's parser: a received frame (any length, never read past) as the message
// the emulated hosts act on: an ARP packet, an IPv6 NS or NA, an ICMP or ICMPv6 echo;
// or why it is none of them. What a frame led to is one RxVerdict, counted by the caller
// (one counter per verdict, named by verdict_name). Thread: any; no allocation.

#include <array>
#include <cstdint>
#include <span>

#include "lib/wire/arp.hpp"
#include "lib/wire/ethernet.hpp"
#include "lib/wire/icmp_echo.hpp"
#include "lib/wire/ip_headers.hpp"
#include "lib/wire/ipv6_nd.hpp"

namespace lr::hosts {

/// What a received frame led to.
enum class RxVerdict : uint8_t {
  kAnswered,     ///< one or more replies
  kNoReply,      ///< well-formed, and nothing to answer: an ARP reply, an NA, an echo reply,
                 ///< a gratuitous ARP, an NS for an address not usable (tentative, duplicate)
  kNotForUs,     ///< well-formed, for an address no host has on that VLAN
  kMalformed,    ///< truncated, lying lengths, bad checksum, options of length 0, a group
                 ///< address as a source (Ethernet, ARP sender, IPv4, IPv6), ...
  kUnsupported,  ///< an EtherType, protocol or message the hosts do not speak (fragments too)
};
inline constexpr size_t kRxVerdicts = 5;
inline constexpr std::array<const char*, kRxVerdicts> kRxVerdictNames{"answered", "no_reply", "not_for_us", "malformed",
                                                                      "unsupported"};
constexpr const char* verdict_name(RxVerdict v) noexcept { return kRxVerdictNames[static_cast<size_t>(v)]; }

enum class FrameKind : uint8_t { kNone, kArp, kNeighborSolicitation, kNeighborAdvertisement, kEcho4, kEcho6 };

struct NeighborFrame {
  FrameKind kind = FrameKind::kNone;
  RxVerdict refused = RxVerdict::kUnsupported;  ///< kind kNone: kMalformed or kUnsupported
  wire::EthHeader eth;
  wire::ArpPacket arp;                 ///< kArp
  uint32_t ip4_src = 0, ip4_dst = 0;   ///< kEcho4
  wire::Ipv6 ip6_src{}, ip6_dst{};     ///< kNeighbor*, kEcho6
  wire::NdMessage nd;                  ///< kNeighbor*
  wire::EchoMessage echo;              ///< kEcho4, kEcho6: its data points into the frame
};

/// The frame read; `refused` says why when its kind is kNone.
NeighborFrame parse_neighbor_frame(std::span<const uint8_t> frame) noexcept;

}  // namespace lr::hosts
