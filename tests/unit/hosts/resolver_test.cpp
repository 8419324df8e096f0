// Gateway resolution on a fake clock: requests retried every R until K are sent, then
// failed with the host, the gateway and the tries named; an answer resolves (MAC, when);
// a MAC that changes later is reported; a restart asks again. And the next hop a
// destination takes.

#include "lib/hosts/resolver.hpp"

#include <gtest/gtest.h>

#include "lib/hosts/next_hop.hpp"
#include "tests/unit/hosts/expected_frames.hpp"
#include "tests/unit/hosts/hosts_fixture.hpp"

namespace lr::hosts {
namespace {

constexpr uint64_t kMs = 1'000'000;
constexpr wire::Mac kOtherMac{0x02, 0xAA, 0xBB, 0xCC, 0xDD, 0xFF};

TEST(Resolver, RetriesEveryIntervalThenFailsNamingHostGatewayAndTries) {
  HostTable t({test::host_spec()}, AddressState::kPreferred);
  Resolver r(t, ResolverConfig{250 * kMs, 3});
  const uint32_t id = r.add(0, test::kPeer4, 1000 * kMs);
  EXPECT_EQ(r.add(0, test::kPeer4, 1000 * kMs), id);  // the same pair once
  std::vector<Frame> sent = r.poll(1000 * kMs);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0], test::kArpRequest);
  EXPECT_TRUE(r.poll(1250 * kMs - 1).empty());
  EXPECT_EQ(r.poll(1250 * kMs).size(), 1u);
  EXPECT_EQ(r.poll(1500 * kMs).size(), 1u);
  EXPECT_EQ(r.neighbor(id).tries, 3u);
  EXPECT_TRUE(r.poll(1750 * kMs - 1).empty());
  EXPECT_EQ(r.neighbor(id).state, NeighborState::kIncomplete);
  EXPECT_TRUE(r.poll(1750 * kMs).empty());
  EXPECT_EQ(r.neighbor(id).state, NeighborState::kFailed);
  const std::vector<NeighborEvent> events = r.take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, NeighborEvent::Kind::kFailed);
  EXPECT_EQ(events[0].at_ns, 1750 * kMs);
  EXPECT_EQ(events[0].message,
            "port 'p0', host d[0] (10.0.0.2): gateway 10.0.0.1 did not answer 3 ARP requests, 250 ms apart");
  EXPECT_TRUE(r.poll(5000 * kMs).empty());  // failed stays failed
}

TEST(Resolver, AnAnswerResolvesAndALaterMacChangeIsReported) {
  HostTable t({test::host_spec()}, AddressState::kPreferred);
  Resolver r(t, ResolverConfig{});
  const uint32_t id = r.add(0, test::kPeer4, 0);
  r.poll(0);
  r.on_frame(parse_neighbor_frame(test::peer_arp(wire::kArpReply, test::kPeer4, test::kHost4)), 3 * kMs);
  EXPECT_EQ(r.neighbor(id).state, NeighborState::kResolved);
  EXPECT_EQ(r.neighbor(id).mac, test::kPeerMac);
  EXPECT_EQ(r.neighbor(id).resolved_ns, 3 * kMs);
  EXPECT_TRUE(r.poll(10'000 * kMs).empty());  // no more requests
  std::vector<NeighborEvent> events = r.take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].message, "port 'p0', host d[0] (10.0.0.2): gateway 10.0.0.1 is at 02:aa:bb:cc:dd:ee");

  r.on_frame(parse_neighbor_frame(test::peer_arp(wire::kArpRequest, test::kPeer4, test::kHost4, {}, kOtherMac)),
             9 * kMs);
  events = r.take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, NeighborEvent::Kind::kMacChanged);
  EXPECT_EQ(events[0].old_mac, test::kPeerMac);
  EXPECT_EQ(events[0].mac, kOtherMac);
  EXPECT_EQ(events[0].at_ns, 9 * kMs);
  EXPECT_EQ(
      events[0].message,
      "port 'p0', host d[0] (10.0.0.2): gateway 10.0.0.1 changed its MAC from 02:aa:bb:cc:dd:ee to 02:aa:bb:cc:dd:ff");
  EXPECT_EQ(r.neighbor(id).mac, kOtherMac);
  // A frame from another VLAN is another link.
  r.on_frame(parse_neighbor_frame(test::peer_arp(wire::kArpReply, test::kPeer4, test::kHost4, 7)), 10 * kMs);
  EXPECT_TRUE(r.take_events().empty());
}

TEST(Resolver, Ipv6AsksTheSolicitedNodeGroupAndLearnsFromTheAdvertisement) {
  HostTable t({test::host_spec()}, AddressState::kPreferred);
  Resolver r(t, ResolverConfig{});
  const uint32_t id = r.add(0, test::kPeer6, 0);
  const std::vector<Frame> sent = r.poll(0);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0], test::kNs);
  r.on_frame(parse_neighbor_frame(test::peer_na(test::kPeer6, test::kHost6, wire::kNaSolicited | wire::kNaOverride)),
             kMs);
  EXPECT_EQ(r.neighbor(id).state, NeighborState::kResolved);
  EXPECT_EQ(r.neighbor(id).mac, test::kPeerMac);
  // Without O, an NA does not override a resolved MAC (RFC 4861 section 7.2.5).
  r.on_frame(parse_neighbor_frame(test::peer_na(test::kPeer6, test::kHost6, wire::kNaSolicited, kOtherMac)), 2 * kMs);
  EXPECT_EQ(r.neighbor(id).mac, test::kPeerMac);
  r.on_frame(parse_neighbor_frame(test::peer_na(test::kPeer6, wire::kAllNodes, wire::kNaOverride, kOtherMac)), 3 * kMs);
  EXPECT_EQ(r.neighbor(id).mac, kOtherMac);
  const std::vector<NeighborEvent> events = r.take_events();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].kind, NeighborEvent::Kind::kMacChanged);
}

TEST(Resolver, RestartAsksAgainFromTheStart) {
  HostTable t({test::host_spec()}, AddressState::kPreferred);
  Resolver r(t, ResolverConfig{100 * kMs, 2});
  const uint32_t id = r.add(0, test::kPeer4, 0);
  r.poll(0);
  r.poll(100 * kMs);
  r.poll(200 * kMs);
  ASSERT_EQ(r.neighbor(id).state, NeighborState::kFailed);
  r.restart(500 * kMs);
  EXPECT_EQ(r.neighbor(id).state, NeighborState::kIncomplete);
  EXPECT_EQ(r.poll(500 * kMs).size(), 1u);
  EXPECT_EQ(r.neighbor(id).tries, 1u);
}

TEST(Resolver, RetryFailedAsksAFailedNeighbourAgainAndLeavesOthersAlone) {
  HostTable t({test::host_spec()}, AddressState::kPreferred);
  Resolver r(t, ResolverConfig{100 * kMs, 2});
  const uint32_t id = r.add(0, test::kPeer4, 0);
  r.retry_failed(id, 0);  // incomplete: untouched
  EXPECT_EQ(r.poll(0).size(), 1u);
  EXPECT_EQ(r.neighbor(id).tries, 1u);
  r.poll(100 * kMs);
  r.poll(200 * kMs);
  ASSERT_EQ(r.neighbor(id).state, NeighborState::kFailed);
  r.retry_failed(id, 900 * kMs);
  EXPECT_EQ(r.neighbor(id).tries, 0u);
  EXPECT_EQ(r.neighbor(id).state, NeighborState::kIncomplete);
  std::vector<Frame> sent = r.poll(900 * kMs);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0], test::kArpRequest);
  r.on_frame(parse_neighbor_frame(test::peer_arp(wire::kArpReply, test::kPeer4, test::kHost4)), 950 * kMs);
  ASSERT_EQ(r.neighbor(id).state, NeighborState::kResolved);
  r.retry_failed(id, 990 * kMs);  // resolved: untouched
  EXPECT_EQ(r.neighbor(id).state, NeighborState::kResolved);
  EXPECT_EQ(r.neighbor(id).resolved_ns, 950 * kMs);
}

TEST(NextHop, OnLinkIsTheDestinationOffLinkTheGatewayNeitherAnError) {
  api::HostSpec h = test::host_spec();
  EXPECT_EQ(next_hop_ipv4(h, 0x0A0000FE), 0x0A0000FEu);     // 10.0.0.254, on 10.0.0.0/24
  EXPECT_EQ(next_hop_ipv4(h, 0xC0A80101), test::kPeer4);    // 192.168.1.1 through 10.0.0.1
  const api::Ipv6Addr far{0x20, 0x01, 0x0D, 0xB9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x09};
  const api::Ipv6Addr near{0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x09};
  EXPECT_EQ(next_hop_ipv6(h, far), test::kPeer6);
  EXPECT_EQ(next_hop_ipv6(h, near), near);
  const wire::Ipv6 peer_ll = wire::link_local_from_mac(test::kPeerMac);
  EXPECT_EQ(next_hop_ipv6(h, peer_ll), peer_ll);
  h.ipv4->gateway.reset();
  h.ipv6->gateway.reset();
  EXPECT_EQ(next_hop_ipv4(h, 0xC0A80101).error(),
            "port 'p0', host d[0] (10.0.0.2/24) has no gateway, and 192.168.1.1 is not on its subnet");
  EXPECT_EQ(next_hop_ipv6(h, far).error(),
            "port 'p0', host d[0] (2001:db8::2/64) has no gateway, and 2001:db9::9 is not on its subnet");
  h.ipv4.reset();
  EXPECT_EQ(next_hop_ipv4(h, 0x0A0000FE).error(), "port 'p0', host d[0] has no IPv4 address to reach 10.0.0.254 from");
}

}  // namespace
}  // namespace lr::hosts
