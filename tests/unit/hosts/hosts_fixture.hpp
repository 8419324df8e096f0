#pragma once
// The hosts the hosts tests answer for, and the frames their peer sends them, built with
// lib/wire's builders (themselves checked against independent bytes in
// tests/unit/wire/neighbor_codecs_test.cpp).

#include <array>
#include <optional>
#include <span>
#include <vector>

#include "lib/api/host_spec.hpp"
#include "lib/wire/arp.hpp"
#include "lib/wire/icmp_echo.hpp"
#include "lib/wire/ipv6_nd.hpp"

namespace lr::test {

inline constexpr wire::Mac kHostMac{0x02, 0, 0, 0, 0, 0x01};
inline constexpr wire::Mac kPeerMac{0x02, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE};
inline constexpr uint32_t kHost4 = 0x0A000002, kPeer4 = 0x0A000001;  // 10.0.0.2, 10.0.0.1 (the gateway)
inline constexpr wire::Ipv6 kHost6{0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02};
inline constexpr wire::Ipv6 kPeer6{0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01};
inline constexpr uint64_t kSecond = 1'000'000'000;  // ns
inline const std::vector<uint8_t> kEchoData{'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'};

/// 02:00:00:00:00:01, 10.0.0.2/24 via 10.0.0.1, 2001:db8::2/64 via 2001:db8::1, on port p0.
inline api::HostSpec host_spec(std::optional<uint16_t> vlan = std::nullopt) {
  api::HostSpec h;
  h.device = "d";
  h.port = "p0";
  h.mac = kHostMac;
  h.vlan = vlan;
  h.ipv4 = api::HostIpv4{kHost4, 24, kPeer4};
  h.ipv6 = api::HostIpv6{kHost6, 64, kPeer6};
  return h;
}

template <class Build>
std::vector<uint8_t> frame(Build build) {
  std::array<uint8_t, 2048> buf{};
  const size_t n = build(std::span<uint8_t>(buf));
  return {buf.begin(), buf.begin() + n};
}

inline wire::EthHeader from_peer(const wire::Mac& dst, std::optional<uint16_t> vlan) {
  return wire::EthHeader{dst, kPeerMac, vlan, 0};
}

/// The peer's ARP packet of `op` asking about (or answering for) `target_ip`.
inline std::vector<uint8_t> peer_arp(uint16_t op, uint32_t sender_ip, uint32_t target_ip,
                                     std::optional<uint16_t> vlan = std::nullopt, wire::Mac sender = kPeerMac) {
  return frame([&](std::span<uint8_t> out) {
    return wire::build_arp_frame(out, wire::EthHeader{wire::kBroadcastMac, sender, vlan, 0},
                                 {op, sender, sender_ip, {}, target_ip});
  });
}

/// An NS for `target` from `src` (with the peer's MAC as option unless src is ::) to `dst`.
inline std::vector<uint8_t> peer_ns(const wire::Ipv6& src, const wire::Ipv6& dst, const wire::Ipv6& target,
                                    std::optional<uint16_t> vlan = std::nullopt, wire::Mac sender = kPeerMac) {
  const std::optional<wire::Mac> option = wire::is_unspecified(src) ? std::nullopt : std::optional<wire::Mac>(sender);
  return frame([&](std::span<uint8_t> out) {
    return wire::build_nd_frame(
        out, wire::EthHeader{wire::is_multicast(dst) ? wire::multicast_mac(dst) : kHostMac, sender, vlan, 0}, src, dst,
        {wire::kNdSolicitation, 0, target, option});
  });
}

/// An NA for `target` with the peer's MAC (or `mac`) to `dst`.
inline std::vector<uint8_t> peer_na(const wire::Ipv6& target, const wire::Ipv6& dst, uint8_t flags,
                                    wire::Mac mac = kPeerMac) {
  return frame([&](std::span<uint8_t> out) {
    return wire::build_nd_frame(
        out, wire::EthHeader{wire::is_multicast(dst) ? wire::multicast_mac(dst) : kHostMac, mac, std::nullopt, 0},
        target, dst, {wire::kNdAdvertisement, flags, target, mac});
  });
}

inline std::vector<uint8_t> peer_ping4(uint32_t dst, std::optional<uint16_t> vlan = std::nullopt,
                                       uint8_t type = wire::kIcmpEchoRequest) {
  return frame([&](std::span<uint8_t> out) {
    return wire::build_icmpv4_echo_frame(out, from_peer(kHostMac, vlan), kPeer4, dst, 64, type, 0x1234, 7, kEchoData);
  });
}

inline std::vector<uint8_t> peer_ping6(const wire::Ipv6& dst, std::optional<uint16_t> vlan = std::nullopt) {
  return frame([&](std::span<uint8_t> out) {
    return wire::build_icmpv6_echo_frame(out, from_peer(kHostMac, vlan), kPeer6, dst, 64, wire::kIcmpv6EchoRequest,
                                         0x1234, 7, kEchoData);
  });
}

}  // namespace lr::test
