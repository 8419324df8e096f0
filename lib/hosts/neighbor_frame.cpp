#include "lib/hosts/neighbor_frame.hpp"

namespace lr::hosts {

namespace {

NeighborFrame& refuse(NeighborFrame& f, RxVerdict why) noexcept {
  f.kind = FrameKind::kNone;
  f.refused = why;
  return f;
}

void read_arp(std::span<const uint8_t> payload, NeighborFrame& f) noexcept {
  switch (wire::parse_arp(payload, f.arp)) {
    case wire::ArpError::kOk:
      if (wire::is_multicast_mac(f.arp.sender_mac)) return void(refuse(f, RxVerdict::kMalformed));
      f.kind = FrameKind::kArp;
      return;
    case wire::ArpError::kTruncated: refuse(f, RxVerdict::kMalformed); return;
    case wire::ArpError::kNotEthernetIpv4: refuse(f, RxVerdict::kUnsupported); return;
  }
}

void read_ipv4(std::span<const uint8_t> payload, NeighborFrame& f) noexcept {
  wire::Ipv4View ip;
  const wire::IpError e = wire::parse_ipv4(payload, ip);
  if (e != wire::IpError::kOk) {
    refuse(f, e == wire::IpError::kFragment ? RxVerdict::kUnsupported : RxVerdict::kMalformed);
    return;
  }
  if (ip.protocol != wire::kProtoIcmp) return void(refuse(f, RxVerdict::kUnsupported));
  // RFC 1122 section 3.2.1.3: a source that is no host's (0/8, 224/4 and above) is discarded.
  if ((ip.src >> 24) == 0 || (ip.src >> 28) >= 0xE) return void(refuse(f, RxVerdict::kMalformed));
  f.ip4_src = ip.src;
  f.ip4_dst = ip.dst;
  switch (wire::parse_icmpv4_echo(ip.payload, f.echo)) {
    case wire::IcmpError::kOk: f.kind = FrameKind::kEcho4; return;
    case wire::IcmpError::kNotEcho: refuse(f, RxVerdict::kUnsupported); return;
    case wire::IcmpError::kTruncated:
    case wire::IcmpError::kBadChecksum: refuse(f, RxVerdict::kMalformed); return;
  }
}

void read_ipv6(std::span<const uint8_t> payload, NeighborFrame& f) noexcept {
  wire::Ipv6View ip;
  if (wire::parse_ipv6(payload, ip) != wire::IpError::kOk) return void(refuse(f, RxVerdict::kMalformed));
  if (ip.next_header != wire::kProtoIcmpv6) return void(refuse(f, RxVerdict::kUnsupported));
  if (wire::is_multicast(ip.src)) return void(refuse(f, RxVerdict::kMalformed));  // RFC 4291 section 2.7
  if (ip.payload.empty()) return void(refuse(f, RxVerdict::kMalformed));
  f.ip6_src = ip.src;
  f.ip6_dst = ip.dst;
  const uint8_t type = ip.payload[0];
  if (type == wire::kNdSolicitation || type == wire::kNdAdvertisement) {
    if (wire::parse_nd(ip, f.nd) != wire::NdError::kOk) return void(refuse(f, RxVerdict::kMalformed));
    f.kind = type == wire::kNdSolicitation ? FrameKind::kNeighborSolicitation : FrameKind::kNeighborAdvertisement;
    return;
  }
  switch (wire::parse_icmpv6_echo(ip, f.echo)) {
    case wire::IcmpError::kOk: f.kind = FrameKind::kEcho6; return;
    case wire::IcmpError::kNotEcho: refuse(f, RxVerdict::kUnsupported); return;
    case wire::IcmpError::kTruncated:
    case wire::IcmpError::kBadChecksum: refuse(f, RxVerdict::kMalformed); return;
  }
}

}  // namespace

NeighborFrame parse_neighbor_frame(std::span<const uint8_t> frame) noexcept {
  NeighborFrame f;
  const auto eth = wire::parse_eth(frame);
  if (!eth) return refuse(f, RxVerdict::kMalformed);
  f.eth = eth->header;
  // A source address is an individual one (IEEE 802.3 clause 3.2.3): a reply must not go to a group.
  if (wire::is_multicast_mac(f.eth.src)) return refuse(f, RxVerdict::kMalformed);
  switch (f.eth.ether_type) {
    case wire::kEtherTypeArp: read_arp(eth->payload, f); break;
    case wire::kEtherTypeIpv4: read_ipv4(eth->payload, f); break;
    case wire::kEtherTypeIpv6: read_ipv6(eth->payload, f); break;
    default: refuse(f, RxVerdict::kUnsupported); break;
  }
  return f;
}

}  // namespace lr::hosts
