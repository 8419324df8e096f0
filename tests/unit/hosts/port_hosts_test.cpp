// A port's hosts driven as the data plane will drive them, on a fake clock: what they send
// at start (gratuitous ARP, DAD probes, the gateway's ARP request, byte for byte), gateways
// resolved over both families, a gateway that never answers named before traffic, an IPv4
// address another MAC claims, a link flap; and two ports cabled together, 1,000 hosts on
// one resolving the gateway on the other over ARP and ND.

#include "lib/hosts/port_hosts.hpp"

#include <gtest/gtest.h>

#include "lib/hosts/host_expansion.hpp"
#include "tests/unit/hosts/expected_frames.hpp"
#include "tests/unit/hosts/hosts_fixture.hpp"

namespace lr::hosts {
namespace {

using test::kSecond;

TEST(PortHosts, StartAnnouncesProbesAndAsksForTheGateway) {
  PortHosts port({test::host_spec()}, PortHostsConfig{});
  const std::vector<Frame> sent = port.start(0);
  ASSERT_EQ(sent.size(), 4u);
  EXPECT_EQ(sent[0], test::kGratuitousArp);
  EXPECT_EQ(sent[1], test::kDadProbe);
  EXPECT_EQ(parse_neighbor_frame(sent[2]).nd.target, test::kHost6);
  EXPECT_EQ(sent[3], test::kArpRequest);
  EXPECT_TRUE(port.on_frame(test::peer_arp(wire::kArpReply, test::kPeer4, test::kHost4), kSecond / 10).empty());
  EXPECT_EQ(port.gateway_mac_ipv4(0), test::kPeerMac);
  EXPECT_FALSE(port.gateway_mac_ipv6(0).has_value());
  EXPECT_EQ(
      port.unresolved(),
      std::vector<std::string>{"port 'p0', host d[0] (2001:db8::2): gateway 2001:db8::1 is not resolved (its address "
                               "is still tentative)"});
  // DAD ends: both addresses announced, then the IPv6 gateway asked.
  const std::vector<Frame> later = port.poll(kSecond);
  ASSERT_EQ(later.size(), 3u);
  EXPECT_EQ(later[1], test::kUnsolicitedNa);
  EXPECT_EQ(later[2], test::kNs);
  port.on_frame(test::peer_na(test::kPeer6, test::kHost6, wire::kNaSolicited | wire::kNaOverride), kSecond + 1);
  EXPECT_EQ(port.gateway_mac_ipv6(0), test::kPeerMac);
  EXPECT_TRUE(port.unresolved().empty());
  const std::vector<HostEvent> events = port.take_events();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].message, "port 'p0', host d[0] (10.0.0.2): gateway 10.0.0.1 is at 02:aa:bb:cc:dd:ee");
  EXPECT_EQ(events[1].message, "port 'p0', host d[0] (2001:db8::2): gateway 2001:db8::1 is at 02:aa:bb:cc:dd:ee");
  EXPECT_EQ(port.counts()[static_cast<size_t>(RxVerdict::kNoReply)], 2u);
}

TEST(PortHosts, AGatewayThatNeverAnswersIsNamedWithItsTries) {
  api::HostSpec spec = test::host_spec();
  spec.ipv6.reset();
  PortHosts port({spec}, PortHostsConfig{{}, {kSecond, 3}});
  EXPECT_EQ(
      port.unresolved(),
      std::vector<std::string>{"port 'p0', host d[0] (10.0.0.2): gateway 10.0.0.1 is not resolved"});  // not started
  port.start(0);
  for (uint64_t t = 1; t <= 3; ++t) port.poll(t * kSecond);
  EXPECT_EQ(port.unresolved(), std::vector<std::string>{"port 'p0', host d[0] (10.0.0.2): gateway 10.0.0.1 is not "
                                                        "resolved (3 ARP requests unanswered)"});
  const std::vector<HostEvent> events = port.take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, HostEvent::Kind::kResolveFailed);
  EXPECT_EQ(events[0].at_ns, 3 * kSecond);
}

TEST(PortHosts, AnotherMacClaimingAHostsAddressIsReportedOnce) {
  PortHosts port({test::host_spec()}, PortHostsConfig{});
  port.start(0);
  port.take_events();
  const wire::Mac intruder{0x02, 0x66, 0, 0, 0, 0x01};
  for (int i = 0; i < 2; ++i)
    port.on_frame(test::peer_arp(wire::kArpRequest, test::kHost4, test::kHost4, std::nullopt, intruder), 5);
  const std::vector<HostEvent> events = port.take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, HostEvent::Kind::kAddressConflict);
  EXPECT_EQ(events[0].message,
            "port 'p0', host d[0]: 02:66:00:00:00:01 also claims its IPv4 address 10.0.0.2 (ARP request)");
  // Its own announcement, looped back, is no conflict.
  port.on_frame(test::kGratuitousArp, 6);
  EXPECT_TRUE(port.take_events().empty());
}

TEST(PortHosts, ALinkFlapAnnouncesAgainAndResolvesAgain) {
  PortHosts port({test::host_spec()}, PortHostsConfig{});
  port.start(0);
  port.on_frame(test::peer_arp(wire::kArpReply, test::kPeer4, test::kHost4), 1);
  port.poll(kSecond);
  const std::vector<Frame> sent = port.link_up(5 * kSecond);
  ASSERT_EQ(sent.size(), 5u);  // gratuitous ARP, two NAs, the ARP request and the NS
  EXPECT_EQ(sent[0], test::kGratuitousArp);
  EXPECT_EQ(sent[2], test::kUnsolicitedNa);
  EXPECT_EQ(sent[3], test::kArpRequest);
  EXPECT_EQ(sent[4], test::kNs);
  EXPECT_FALSE(port.gateway_mac_ipv4(0).has_value());
}

// Frames from one port handed to the other until neither has anything to say.
void exchange(PortHosts& a, PortHosts& b, std::vector<Frame> from_a, std::vector<Frame> from_b, uint64_t now_ns) {
  while (!from_a.empty() || !from_b.empty()) {
    std::vector<Frame> next_a, next_b;
    for (const Frame& f : from_a)
      for (Frame& reply : b.on_frame(f, now_ns)) next_b.push_back(std::move(reply));
    for (const Frame& f : from_b)
      for (Frame& reply : a.on_frame(f, now_ns)) next_a.push_back(std::move(reply));
    from_a = std::move(next_a);
    from_b = std::move(next_b);
  }
}

TEST(PortHosts, AThousandHostsResolveTheGatewayOnTheOtherPort) {
  api::DeviceSpec many;
  many.name = "many";
  many.first = test::host_spec();
  many.first.ipv4->prefix = 16;
  many.count = 1000;
  api::HostSpec router = test::host_spec();
  router.device = "router";
  router.port = "p1";
  router.mac = test::kPeerMac;
  router.ipv4 = api::HostIpv4{test::kPeer4, 16, std::nullopt};
  router.ipv6 = api::HostIpv6{test::kPeer6, 64, std::nullopt};
  PortHosts a(*expand_device(many), PortHostsConfig{});
  PortHosts b({router}, PortHostsConfig{});
  exchange(a, b, a.start(0), b.start(0), 0);
  exchange(a, b, a.poll(kSecond), b.poll(kSecond), kSecond);
  exchange(a, b, a.poll(kSecond + 1), b.poll(kSecond + 1), kSecond + 1);
  EXPECT_TRUE(a.unresolved().empty()) << a.unresolved().front();
  for (uint32_t h = 0; h < 1000; ++h) {
    ASSERT_EQ(a.gateway_mac_ipv4(h), test::kPeerMac) << h;
    ASSERT_EQ(a.gateway_mac_ipv6(h), test::kPeerMac) << h;
  }
  // The router answered each host's ARP request and NS: 2,000 answers, and no duplicate found.
  EXPECT_EQ(b.counts()[static_cast<size_t>(RxVerdict::kAnswered)], 2000u);
  for (const HostEvent& e : a.take_events()) EXPECT_EQ(e.kind, HostEvent::Kind::kResolved) << e.message;
}

}  // namespace
}  // namespace lr::hosts
