// The responder's rules, one each, its replies byte for byte against frames built
// independently (expected_frames.hpp), every refusal with its verdict, and a port of
// 1,000 hosts each answering its own ARP request, NS and pings.

#include "lib/hosts/responder.hpp"

#include <gtest/gtest.h>

#include "lib/hosts/host_expansion.hpp"
#include "tests/unit/hosts/expected_frames.hpp"
#include "tests/unit/hosts/hosts_fixture.hpp"

namespace lr::hosts {
namespace {

using test::kHost4;
using test::kHost6;
using test::kPeer4;
using test::kPeer6;

HostTable table(std::optional<uint16_t> vlan = std::nullopt) {
  return HostTable({test::host_spec(vlan)}, AddressState::kPreferred);
}

TEST(Responder, ArpRequestForAHostIsAnsweredOnItsVlan) {
  const Response r = respond(table(100), test::peer_arp(wire::kArpRequest, kPeer4, kHost4, 100));
  EXPECT_EQ(r.verdict, RxVerdict::kAnswered);
  ASSERT_EQ(r.replies.size(), 1u);
  EXPECT_EQ(r.replies[0], test::kArpReplyVlan);
  // Another VLAN, untagged, or another address: not ours.
  EXPECT_EQ(respond(table(100), test::peer_arp(wire::kArpRequest, kPeer4, kHost4, 101)).verdict, RxVerdict::kNotForUs);
  EXPECT_EQ(respond(table(100), test::peer_arp(wire::kArpRequest, kPeer4, kHost4)).verdict, RxVerdict::kNotForUs);
  EXPECT_EQ(respond(table(), test::peer_arp(wire::kArpRequest, kPeer4, kHost4 + 1)).verdict, RxVerdict::kNotForUs);
}

TEST(Responder, ArpRepliesAndGratuitousArpsAskNothing) {
  EXPECT_EQ(respond(table(), test::peer_arp(wire::kArpReply, kPeer4, kHost4)).verdict, RxVerdict::kNoReply);
  EXPECT_EQ(respond(table(), test::peer_arp(wire::kArpRequest, kHost4, kHost4)).verdict, RxVerdict::kNoReply);
  EXPECT_EQ(respond(table(), test::peer_arp(3, kPeer4, kHost4)).verdict, RxVerdict::kUnsupported);  // RARP request
}

TEST(Responder, SolicitationToTheGroupOrUnicastGetsASolicitedAdvertisement) {
  for (const wire::Ipv6& dst : {wire::solicited_node(kHost6), kHost6}) {
    const Response r = respond(table(), test::peer_ns(kPeer6, dst, kHost6));
    EXPECT_EQ(r.verdict, RxVerdict::kAnswered);
    ASSERT_EQ(r.replies.size(), 1u);
    EXPECT_EQ(r.replies[0], test::kSolicitedNa);
  }
  // To another group, or for an address no host has: not ours.
  EXPECT_EQ(respond(table(), test::peer_ns(kPeer6, wire::kAllNodes, kHost6)).verdict, RxVerdict::kNotForUs);
  EXPECT_EQ(respond(table(), test::peer_ns(kPeer6, wire::solicited_node(kPeer6), kPeer6)).verdict,
            RxVerdict::kNotForUs);
}

TEST(Responder, SolicitationOfTheLinkLocalAddressIsAnsweredFromIt) {
  const wire::Ipv6 ll = wire::link_local_from_mac(test::kHostMac);
  const Response r = respond(table(), test::peer_ns(kPeer6, wire::solicited_node(ll), ll));
  ASSERT_EQ(r.verdict, RxVerdict::kAnswered);
  const auto reply = parse_neighbor_frame(r.replies[0]);
  EXPECT_EQ(reply.kind, FrameKind::kNeighborAdvertisement);
  EXPECT_EQ(reply.ip6_src, ll);
  EXPECT_EQ(reply.nd.target, ll);
  EXPECT_EQ(reply.nd.flags, wire::kNaSolicited | wire::kNaOverride);
}

TEST(Responder, AnotherNodesDadForAPreferredAddressIsToldOnAllNodes) {
  const Response r = respond(table(), test::peer_ns(wire::kUnspecified, wire::solicited_node(kHost6), kHost6));
  ASSERT_EQ(r.verdict, RxVerdict::kAnswered);
  EXPECT_EQ(r.replies[0], test::kUnsolicitedNa);  // to ff02::1, O set, S clear (RFC 4861 section 7.2.4)
}

TEST(Responder, TentativeOrDuplicateAddressesAreNotAnswered) {
  for (const AddressState state : {AddressState::kTentative, AddressState::kDuplicate}) {
    HostTable t({test::host_spec()}, state);
    EXPECT_EQ(respond(t, test::peer_ns(wire::kUnspecified, wire::solicited_node(kHost6), kHost6)).verdict,
              RxVerdict::kNoReply);
    EXPECT_EQ(respond(t, test::peer_ns(kPeer6, wire::solicited_node(kHost6), kHost6)).verdict, RxVerdict::kNoReply);
    EXPECT_EQ(respond(t, test::peer_ping6(kHost6)).verdict, RxVerdict::kNoReply);
  }
}

TEST(Responder, EchoRequestsAreReturnedWithTheirIdentifierSequenceAndData) {
  Response r = respond(table(), test::peer_ping4(kHost4));
  ASSERT_EQ(r.verdict, RxVerdict::kAnswered);
  EXPECT_EQ(r.replies[0], test::kEcho4Reply);
  r = respond(table(100), test::peer_ping6(kHost6, 100));
  ASSERT_EQ(r.verdict, RxVerdict::kAnswered);
  EXPECT_EQ(r.replies[0], test::kEcho6Reply);
  EXPECT_EQ(respond(table(), test::peer_ping4(kHost4 + 1)).verdict, RxVerdict::kNotForUs);
  EXPECT_EQ(respond(table(), test::peer_ping4(kHost4, std::nullopt, wire::kIcmpEchoReply)).verdict,
            RxVerdict::kNoReply);
}

TEST(Responder, MalformedAndUnsupportedFramesEachHaveTheirVerdict) {
  std::vector<uint8_t> f = test::peer_ping4(kHost4);
  f[14 + 20 + 9] ^= 0xFF;  // ICMP data, checksum not redone
  EXPECT_EQ(respond(table(), f).verdict, RxVerdict::kMalformed);
  f = test::peer_ping4(kHost4);
  f[14 + 9] = 17;  // UDP; the header checksum redone below
  wire::store_be16(&f[24], 0);
  wire::store_be16(&f[24], static_cast<uint16_t>(~wire::csum_fold(wire::csum_partial(&f[14], 20))));
  EXPECT_EQ(respond(table(), f).verdict, RxVerdict::kUnsupported);
  f = test::peer_arp(wire::kArpRequest, kPeer4, kHost4);
  f[12] = 0x88;  // EtherType 0x8806
  EXPECT_EQ(respond(table(), f).verdict, RxVerdict::kUnsupported);
  for (const size_t len : {0, 13, 14, 41}) {  // no Ethernet header; ARP cut short
    const std::vector<uint8_t> cut(test::kArpRequest.begin(), test::kArpRequest.begin() + static_cast<long>(len));
    EXPECT_EQ(respond(table(), cut).verdict, RxVerdict::kMalformed) << len;
  }
  f = test::peer_ns(kPeer6, wire::solicited_node(kHost6), kHost6);
  f[21] = 1;  // hop limit 1
  EXPECT_EQ(respond(table(), f).verdict, RxVerdict::kMalformed);
}

TEST(Responder, GroupAddressesAsSourcesAreNeverAnswered) {
  const wire::Mac group{0x01, 0x00, 0x5E, 0, 0, 0x01};
  std::vector<uint8_t> f = test::peer_ping4(kHost4);
  std::copy(group.begin(), group.end(), f.begin() + 6);  // Ethernet source
  EXPECT_EQ(respond(table(), f).verdict, RxVerdict::kMalformed);
  f = test::peer_arp(wire::kArpRequest, kPeer4, kHost4);
  std::copy(group.begin(), group.end(), f.begin() + 22);  // ARP sender hardware address
  EXPECT_EQ(respond(table(), f).verdict, RxVerdict::kMalformed);
  f = test::frame([](std::span<uint8_t> out) {
    return wire::build_icmpv4_echo_frame(out, test::from_peer(test::kHostMac, std::nullopt), 0xE0000001, kHost4, 64,
                                         wire::kIcmpEchoRequest, 1, 1, test::kEchoData);
  });
  EXPECT_EQ(respond(table(), f).verdict, RxVerdict::kMalformed);  // from 224.0.0.1
  f = test::frame([](std::span<uint8_t> out) {
    return wire::build_icmpv6_echo_frame(out, test::from_peer(test::kHostMac, std::nullopt), wire::kAllNodes, kHost6,
                                         64, wire::kIcmpv6EchoRequest, 1, 1, test::kEchoData);
  });
  EXPECT_EQ(respond(table(), f).verdict, RxVerdict::kMalformed);  // from ff02::1
}

TEST(Responder, AThousandHostsEachAnswerTheirOwnAddresses) {
  api::DeviceSpec d;
  d.name = "many";
  d.first = test::host_spec();
  d.first.ipv4->prefix = 16;
  d.count = 1000;
  const auto hosts = expand_device(d);
  ASSERT_TRUE(hosts.has_value()) << hosts.error().message;
  HostTable t(*hosts, AddressState::kPreferred);
  for (uint32_t i = 0; i < 1000; ++i) {
    const Host& h = t.host(i);
    const Response arp = respond(t, test::peer_arp(wire::kArpRequest, kPeer4, h.spec.ipv4->address));
    ASSERT_EQ(arp.verdict, RxVerdict::kAnswered) << i;
    const NeighborFrame reply = parse_neighbor_frame(arp.replies[0]);
    EXPECT_EQ(reply.arp.sender_mac, h.spec.mac) << i;
    EXPECT_EQ(reply.arp.sender_ip, h.spec.ipv4->address) << i;
    EXPECT_EQ(reply.eth.src, h.spec.mac) << i;
    const Response na =
        respond(t, test::peer_ns(kPeer6, wire::solicited_node(h.spec.ipv6->address), h.spec.ipv6->address));
    ASSERT_EQ(na.verdict, RxVerdict::kAnswered) << i;
    EXPECT_EQ(parse_neighbor_frame(na.replies[0]).nd.link_addr, h.spec.mac) << i;
    EXPECT_EQ(respond(t, test::peer_ping4(h.spec.ipv4->address)).verdict, RxVerdict::kAnswered) << i;
    EXPECT_EQ(respond(t, test::peer_ping6(h.spec.ipv6->address)).verdict, RxVerdict::kAnswered) << i;
  }
  EXPECT_EQ(t.host(999).spec.mac, (api::MacAddr{0x02, 0, 0, 0, 0x03, 0xE8}));
  EXPECT_EQ(t.host(999).spec.ipv4->address, kHost4 + 999);
}

}  // namespace
}  // namespace lr::hosts
