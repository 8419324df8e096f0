// The slow path's codecs (lib/wire: arp, ipv6_nd, icmp_echo, ip_headers) byte for byte
// against frames built independently (tests/unit/hosts/expected_frames.py), read back, and
// every refusal a frame off the wire can earn: truncated at each length, lying lengths,
// bad checksums, ND options of length 0.

#include <gtest/gtest.h>

#include <array>
#include <span>
#include <vector>

#include "lib/wire/arp.hpp"
#include "lib/wire/icmp_echo.hpp"
#include "lib/wire/ip_headers.hpp"
#include "lib/wire/ipv6_nd.hpp"
#include "tests/unit/hosts/expected_frames.hpp"

namespace lr::wire {
namespace {

constexpr Mac kHostMac{0x02, 0, 0, 0, 0, 0x01};
constexpr Mac kPeerMac{0x02, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE};
constexpr Ipv6 kHost6{0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02};
constexpr Ipv6 kPeer6{0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01};
constexpr uint32_t kHost4 = 0x0A000002, kPeer4 = 0x0A000001;
const std::vector<uint8_t> kData{'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'};

std::vector<uint8_t> frame_of(size_t len, const std::array<uint8_t, 256>& buf) {
  return {buf.begin(), buf.begin() + len};
}

TEST(ArpCodec, RequestAndTaggedReplyAreTheExpectedBytes) {
  std::array<uint8_t, 256> buf{};
  size_t n =
      build_arp_frame(buf, EthHeader{kBroadcastMac, kHostMac, {}, 0}, {kArpRequest, kHostMac, kHost4, {}, kPeer4});
  EXPECT_EQ(frame_of(n, buf), test::kArpRequest);
  n = build_arp_frame(buf, EthHeader{kPeerMac, kHostMac, 100, 0}, {kArpReply, kHostMac, kHost4, kPeerMac, kPeer4});
  EXPECT_EQ(frame_of(n, buf), test::kArpReplyVlan);
  EXPECT_EQ(build_arp_frame(std::span<uint8_t>(buf).first(59), EthHeader{}, ArpPacket{}),
            0u);  // no room for the padding
}

TEST(ArpCodec, ReadsBackAndRefusesShortOrForeignPackets) {
  const auto eth = parse_eth(test::kArpReplyVlan);
  ASSERT_TRUE(eth.has_value());
  EXPECT_EQ(eth->header.vlan_tci, 100);
  EXPECT_EQ(eth->header.ether_type, kEtherTypeArp);
  ArpPacket arp;
  ASSERT_EQ(parse_arp(eth->payload, arp), ArpError::kOk);
  EXPECT_EQ(arp, (ArpPacket{kArpReply, kHostMac, kHost4, kPeerMac, kPeer4}));
  for (size_t len = 0; len < kArpBytes; ++len)
    EXPECT_EQ(parse_arp(eth->payload.first(len), arp), ArpError::kTruncated) << len;
  std::vector<uint8_t> ipx(eth->payload.begin(), eth->payload.end());
  ipx[3] = 0x37;  // protocol type 0x0837
  EXPECT_EQ(parse_arp(ipx, arp), ArpError::kNotEthernetIpv4);
}

TEST(NdCodec, SolicitationsAndAdvertisementsAreTheExpectedBytes) {
  std::array<uint8_t, 256> buf{};
  const Ipv6 group = solicited_node(kPeer6);
  size_t n = build_nd_frame(buf, {multicast_mac(group), kHostMac, {}, 0}, kHost6, group,
                            {kNdSolicitation, 0, kPeer6, kHostMac});
  EXPECT_EQ(frame_of(n, buf), test::kNs);
  const Ipv6 link_local = link_local_from_mac(kHostMac);
  n = build_nd_frame(buf, {multicast_mac(solicited_node(link_local)), kHostMac, {}, 0}, kUnspecified,
                     solicited_node(link_local), {kNdSolicitation, 0, link_local, {}});
  EXPECT_EQ(frame_of(n, buf), test::kDadProbe);
  n = build_nd_frame(buf, {kPeerMac, kHostMac, {}, 0}, kHost6, kPeer6,
                     {kNdAdvertisement, kNaSolicited | kNaOverride, kHost6, kHostMac});
  EXPECT_EQ(frame_of(n, buf), test::kSolicitedNa);
  n = build_nd_frame(buf, {multicast_mac(kAllNodes), kHostMac, {}, 0}, kHost6, kAllNodes,
                     {kNdAdvertisement, kNaOverride, kHost6, kHostMac});
  EXPECT_EQ(frame_of(n, buf), test::kUnsolicitedNa);
}

TEST(NdCodec, AddressesOfRfc4291AndRfc2464) {
  EXPECT_EQ(link_local_from_mac({0x00, 0x1B, 0x21, 0x3C, 0x4D, 0x5E}),
            (Ipv6{0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x1B, 0x21, 0xFF, 0xFE, 0x3C, 0x4D, 0x5E}));
  EXPECT_EQ(solicited_node(kHost6), (Ipv6{0xFF, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0xFF, 0, 0, 0x02}));
  EXPECT_EQ(multicast_mac(solicited_node(Ipv6{0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0x12, 0x34, 0x56, 0x78})),
            (Mac{0x33, 0x33, 0xFF, 0x34, 0x56, 0x78}));
  EXPECT_TRUE(is_solicited_node(solicited_node(kPeer6)));
  EXPECT_FALSE(is_solicited_node(kAllNodes));
}

NdError parse_nd_frame(const std::vector<uint8_t>& frame, NdMessage& msg) {
  const auto eth = parse_eth(frame);
  Ipv6View ip;
  if (!eth || parse_ipv6(eth->payload, ip) != IpError::kOk) return NdError::kTruncated;
  return parse_nd(ip, msg);
}

// Rewrites the ICMPv6 checksum of an ND frame (untagged) after a change.
void fix_icmpv6_checksum(std::vector<uint8_t>& f) {
  Ipv6 src, dst;
  std::copy(f.begin() + 22, f.begin() + 38, src.begin());
  std::copy(f.begin() + 38, f.begin() + 54, dst.begin());
  const size_t len = load_be16(&f[18]);
  store_be16(&f[56], 0);
  store_be16(&f[56], icmpv6_checksum(src, dst, std::span<const uint8_t>(f).subspan(54, len)));
}

TEST(NdCodec, ReadsBackTheMessagesAndTheirOptions) {
  NdMessage msg;
  ASSERT_EQ(parse_nd_frame(test::kNs, msg), NdError::kOk);
  EXPECT_EQ(msg.type, kNdSolicitation);
  EXPECT_EQ(msg.target, kPeer6);
  EXPECT_EQ(msg.link_addr, kHostMac);
  ASSERT_EQ(parse_nd_frame(test::kSolicitedNa, msg), NdError::kOk);
  EXPECT_EQ(msg.flags, kNaSolicited | kNaOverride);
  EXPECT_EQ(msg.link_addr, kHostMac);
  ASSERT_EQ(parse_nd_frame(test::kDadProbe, msg), NdError::kOk);
  EXPECT_FALSE(msg.link_addr.has_value());
}

TEST(NdCodec, RefusesWhatRfc4861Section7Drops) {
  NdMessage msg;
  std::vector<uint8_t> f = test::kNs;
  f[79] = 0;  // option length 0: the whole message is dropped (section 4.6)
  fix_icmpv6_checksum(f);
  EXPECT_EQ(parse_nd_frame(f, msg), NdError::kMalformed);
  f = test::kNs;
  f[79] = 2;  // an option running past the message
  fix_icmpv6_checksum(f);
  EXPECT_EQ(parse_nd_frame(f, msg), NdError::kMalformed);
  f = test::kNs;
  f[21] = 64;  // hop limit not 255: routed, not from the link
  EXPECT_EQ(parse_nd_frame(f, msg), NdError::kMalformed);
  f = test::kNs;
  f[62] = 0xFF;  // a multicast target
  fix_icmpv6_checksum(f);
  EXPECT_EQ(parse_nd_frame(f, msg), NdError::kMalformed);
  f = test::kNs;
  f[57] ^= 1;
  EXPECT_EQ(parse_nd_frame(f, msg), NdError::kBadChecksum);
  f = test::kUnsolicitedNa;
  f[58] |= kNaSolicited;  // S set on an NA to all-nodes
  fix_icmpv6_checksum(f);
  EXPECT_EQ(parse_nd_frame(f, msg), NdError::kMalformed);
  f = test::kDadProbe;  // a DAD probe (from ::) with a source address option
  f.insert(f.end(), {kNdOptSourceLinkAddr, 1, 2, 0, 0, 0, 0, 1});
  store_be16(&f[18], 32);
  fix_icmpv6_checksum(f);
  EXPECT_EQ(parse_nd_frame(f, msg), NdError::kMalformed);
}

TEST(IpHeaders, LengthsThatLieAreRefusedNeverRead) {
  const auto eth = parse_eth(test::kEcho4Reply);
  ASSERT_TRUE(eth.has_value());
  Ipv4View v4;
  ASSERT_EQ(parse_ipv4(eth->payload, v4), IpError::kOk);
  EXPECT_EQ(v4.payload.size(), 16u);  // the padding after the packet is not its payload
  for (size_t len = 0; len < 36; ++len) EXPECT_NE(parse_ipv4(eth->payload.first(len), v4), IpError::kOk) << len;
  std::vector<uint8_t> p(eth->payload.begin(), eth->payload.end());
  p[3] = 200;  // total length 200 in 46 bytes
  EXPECT_EQ(parse_ipv4(p, v4), IpError::kTruncated);
  p = {eth->payload.begin(), eth->payload.end()};
  p[0] = 0x44;  // IHL 4
  EXPECT_EQ(parse_ipv4(p, v4), IpError::kMalformed);
  p = {eth->payload.begin(), eth->payload.end()};
  p[8] = 63;  // TTL changed, checksum not
  EXPECT_EQ(parse_ipv4(p, v4), IpError::kMalformed);
  p = {eth->payload.begin(), eth->payload.end()};
  p[6] = 0x20;  // MF
  store_be16(&p[10], 0);
  store_be16(&p[10], static_cast<uint16_t>(~csum_fold(csum_partial(p.data(), 20))));
  EXPECT_EQ(parse_ipv4(p, v4), IpError::kFragment);

  const auto eth6 = parse_eth(test::kEcho6Reply);
  ASSERT_TRUE(eth6.has_value());
  Ipv6View v6;
  ASSERT_EQ(parse_ipv6(eth6->payload, v6), IpError::kOk);
  for (size_t len = 0; len < eth6->payload.size(); ++len)
    EXPECT_EQ(parse_ipv6(eth6->payload.first(len), v6), IpError::kTruncated) << len;
}

TEST(IcmpEcho, RepliesAreTheExpectedBytesAndReadBack) {
  std::array<uint8_t, 256> buf{};
  size_t n =
      build_icmpv4_echo_frame(buf, {kPeerMac, kHostMac, {}, 0}, kHost4, kPeer4, 64, kIcmpEchoReply, 0x1234, 7, kData);
  EXPECT_EQ(frame_of(n, buf), test::kEcho4Reply);
  n = build_icmpv6_echo_frame(buf, {kPeerMac, kHostMac, 100, 0}, kHost6, kPeer6, 64, kIcmpv6EchoReply, 0x1234, 7,
                              kData);
  EXPECT_EQ(frame_of(n, buf), test::kEcho6Reply);

  const auto eth = parse_eth(test::kEcho6Reply);
  Ipv6View ip;
  ASSERT_EQ(parse_ipv6(eth->payload, ip), IpError::kOk);
  EchoMessage echo;
  ASSERT_EQ(parse_icmpv6_echo(ip, echo), IcmpError::kOk);
  EXPECT_EQ(echo.type, kIcmpv6EchoReply);
  EXPECT_EQ(echo.id, 0x1234);
  EXPECT_EQ(echo.seq, 7);
  EXPECT_EQ(std::vector<uint8_t>(echo.data.begin(), echo.data.end()), kData);
  std::vector<uint8_t> bad(ip.payload.begin(), ip.payload.end());
  bad[9] ^= 0x01;  // one data bit
  ip.payload = bad;
  EXPECT_EQ(parse_icmpv6_echo(ip, echo), IcmpError::kBadChecksum);
  EXPECT_EQ(parse_icmpv4_echo(std::span<const uint8_t>(bad).first(7), echo), IcmpError::kTruncated);
}

}  // namespace
}  // namespace lr::wire
