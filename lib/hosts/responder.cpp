#include "lib/hosts/responder.hpp"

namespace lr::hosts {

namespace {

Response answered(Frame reply) {
  Response r{RxVerdict::kAnswered, {}};
  r.replies.push_back(std::move(reply));
  return r;
}

Response arp(const HostTable& hosts, const NeighborFrame& f) {
  const wire::ArpPacket& a = f.arp;
  if (a.op != wire::kArpRequest && a.op != wire::kArpReply) return {RxVerdict::kUnsupported, {}};
  const auto host = hosts.find_ipv4(frame_vlan(f.eth.vlan_tci), a.target_ip);
  if (!host) return {RxVerdict::kNotForUs, {}};
  // Replies are the resolver's; a gratuitous ARP (sender = target) announces, asks nothing.
  if (a.op == wire::kArpReply || a.sender_ip == a.target_ip) return {RxVerdict::kNoReply, {}};
  return answered(arp_reply(hosts.host(*host), a.sender_mac, a.sender_ip));
}

Response solicitation(const HostTable& hosts, const NeighborFrame& f) {
  const auto match = hosts.find_ipv6(frame_vlan(f.eth.vlan_tci), f.nd.target);
  if (!match) return {RxVerdict::kNotForUs, {}};
  if (f.ip6_dst != wire::solicited_node(f.nd.target) && f.ip6_dst != f.nd.target) return {RxVerdict::kNotForUs, {}};
  const Host& host = hosts.host(match->host);
  if (host.state(match->slot) != AddressState::kPreferred) return {RxVerdict::kNoReply, {}};
  if (wire::is_unspecified(f.ip6_src))  // someone's DAD for our address: tell all-nodes (RFC 4861 section 7.2.4)
    return answered(neighbor_advertisement(host, f.nd.target, wire::kAllNodes, wire::multicast_mac(wire::kAllNodes),
                                           wire::kNaOverride));
  return answered(neighbor_advertisement(host, f.nd.target, f.ip6_src, f.nd.link_addr.value_or(f.eth.src),
                                         wire::kNaSolicited | wire::kNaOverride));
}

Response echo4(const HostTable& hosts, const NeighborFrame& f) {
  const auto host = hosts.find_ipv4(frame_vlan(f.eth.vlan_tci), f.ip4_dst);
  if (!host) return {RxVerdict::kNotForUs, {}};
  if (f.echo.type != wire::kIcmpEchoRequest) return {RxVerdict::kNoReply, {}};
  return answered(echo4_reply(hosts.host(*host), f.eth.src, f.ip4_dst, f.ip4_src, f.echo.id, f.echo.seq, f.echo.data));
}

Response echo6(const HostTable& hosts, const NeighborFrame& f) {
  const auto match = hosts.find_ipv6(frame_vlan(f.eth.vlan_tci), f.ip6_dst);
  if (!match) return {RxVerdict::kNotForUs, {}};
  const Host& host = hosts.host(match->host);
  if (f.echo.type != wire::kIcmpv6EchoRequest || host.state(match->slot) != AddressState::kPreferred ||
      wire::is_multicast(f.ip6_src) || wire::is_unspecified(f.ip6_src))
    return {RxVerdict::kNoReply, {}};
  return answered(echo6_reply(host, f.eth.src, f.ip6_dst, f.ip6_src, f.echo.id, f.echo.seq, f.echo.data));
}

}  // namespace

Response respond(const HostTable& hosts, const NeighborFrame& frame) {
  switch (frame.kind) {
    case FrameKind::kNone: return {frame.refused, {}};
    case FrameKind::kArp: return arp(hosts, frame);
    case FrameKind::kNeighborSolicitation: return solicitation(hosts, frame);
    case FrameKind::kNeighborAdvertisement: return {RxVerdict::kNoReply, {}};
    case FrameKind::kEcho4: return echo4(hosts, frame);
    case FrameKind::kEcho6: return echo6(hosts, frame);
  }
  return {RxVerdict::kUnsupported, {}};
}

Response respond(const HostTable& hosts, std::span<const uint8_t> frame) {
  return respond(hosts, parse_neighbor_frame(frame));
}

}  // namespace lr::hosts
