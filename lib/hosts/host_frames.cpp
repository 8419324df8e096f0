#include "lib/hosts/host_frames.hpp"

#include <algorithm>

#include "lib/wire/arp.hpp"
#include "lib/wire/icmp_echo.hpp"
#include "lib/wire/ipv6_nd.hpp"

namespace lr::hosts {

namespace {

// Room for an echo reply carrying `data`: a tagged Ethernet header, the larger IP header.
size_t echo_room(std::span<const uint8_t> data) {
  return std::max(wire::kMinFrameBytes, 18 + wire::kIpv6HeaderBytes + wire::kEchoHeaderBytes + data.size());
}

wire::EthHeader from_host(const Host& host, const wire::Mac& dst) {
  wire::EthHeader h;
  h.dst = dst;
  h.src = host.spec.mac;
  if (host.spec.vlan) h.vlan_tci = *host.spec.vlan;
  return h;
}

template <class Build>
Frame built(size_t room, Build build) {
  Frame f(room);
  f.resize(build(std::span<uint8_t>(f)));
  return f;
}

wire::ArpPacket arp_from(const Host& host, uint16_t op, const wire::Mac& target_mac, uint32_t target_ip) {
  return wire::ArpPacket{op, host.spec.mac, host.spec.ipv4 ? host.spec.ipv4->address : 0, target_mac, target_ip};
}

}  // namespace

Frame arp_request(const Host& host, uint32_t target_ip) {
  const wire::ArpPacket arp = arp_from(host, wire::kArpRequest, {}, target_ip);
  return built(wire::kMinFrameBytes, [&](std::span<uint8_t> out) {
    return wire::build_arp_frame(out, from_host(host, wire::kBroadcastMac), arp);
  });
}

Frame gratuitous_arp(const Host& host) { return arp_request(host, host.spec.ipv4 ? host.spec.ipv4->address : 0); }

Frame arp_reply(const Host& host, const wire::Mac& to_mac, uint32_t to_ip) {
  const wire::ArpPacket arp = arp_from(host, wire::kArpReply, to_mac, to_ip);
  return built(wire::kMinFrameBytes,
               [&](std::span<uint8_t> out) { return wire::build_arp_frame(out, from_host(host, to_mac), arp); });
}

Frame neighbor_solicitation(const Host& host, const wire::Ipv6& src, const wire::Ipv6& target) {
  const wire::Ipv6 group = wire::solicited_node(target);
  const wire::NdMessage ns{wire::kNdSolicitation, 0, target, host.spec.mac};
  return built(128, [&](std::span<uint8_t> out) {
    return wire::build_nd_frame(out, from_host(host, wire::multicast_mac(group)), src, group, ns);
  });
}

Frame dad_probe(const Host& host, const wire::Ipv6& tentative) {
  const wire::Ipv6 group = wire::solicited_node(tentative);
  const wire::NdMessage ns{wire::kNdSolicitation, 0, tentative, std::nullopt};
  return built(128, [&](std::span<uint8_t> out) {
    return wire::build_nd_frame(out, from_host(host, wire::multicast_mac(group)), wire::kUnspecified, group, ns);
  });
}

Frame neighbor_advertisement(const Host& host, const wire::Ipv6& target, const wire::Ipv6& dst,
                             const wire::Mac& dst_mac, uint8_t flags) {
  const wire::NdMessage na{wire::kNdAdvertisement, flags, target, host.spec.mac};
  return built(128, [&](std::span<uint8_t> out) {
    return wire::build_nd_frame(out, from_host(host, dst_mac), target, dst, na);
  });
}

Frame unsolicited_na(const Host& host, const wire::Ipv6& address) {
  return neighbor_advertisement(host, address, wire::kAllNodes, wire::multicast_mac(wire::kAllNodes),
                                wire::kNaOverride);
}

Frame echo4_reply(const Host& host, const wire::Mac& dst_mac, uint32_t src, uint32_t dst, uint16_t id, uint16_t seq,
                  std::span<const uint8_t> data) {
  return built(echo_room(data), [&](std::span<uint8_t> out) {
    return wire::build_icmpv4_echo_frame(out, from_host(host, dst_mac), src, dst, kHostTtl, wire::kIcmpEchoReply, id,
                                         seq, data);
  });
}

Frame echo6_reply(const Host& host, const wire::Mac& dst_mac, const wire::Ipv6& src, const wire::Ipv6& dst, uint16_t id,
                  uint16_t seq, std::span<const uint8_t> data) {
  return built(echo_room(data), [&](std::span<uint8_t> out) {
    return wire::build_icmpv6_echo_frame(out, from_host(host, dst_mac), src, dst, kHostTtl, wire::kIcmpv6EchoReply, id,
                                         seq, data);
  });
}

}  // namespace lr::hosts
