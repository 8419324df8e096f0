// Duplicate address detection on a fake clock: probes from :: to the solicited-node group,
// the address preferred and announced after the window; an NA, or another MAC's probe,
// during the window makes it a duplicate, reported and never answered for.

#include "lib/hosts/dad.hpp"

#include <gtest/gtest.h>

#include "lib/hosts/responder.hpp"
#include "tests/unit/hosts/expected_frames.hpp"
#include "tests/unit/hosts/hosts_fixture.hpp"

namespace lr::hosts {
namespace {

using test::kSecond;
const wire::Ipv6 kLinkLocal = wire::link_local_from_mac(test::kHostMac);

TEST(Dad, ProbesEachTentativeAddressThenPrefersAndAnnouncesIt) {
  HostTable t({test::host_spec()});
  Dad dad(t, DadConfig{2, kSecond});
  std::vector<Frame> sent = dad.start(5 * kSecond);
  ASSERT_EQ(sent.size(), 2u);  // link-local and global, one probe each
  EXPECT_EQ(sent[0], test::kDadProbe);
  EXPECT_EQ(parse_neighbor_frame(sent[1]).nd.target, test::kHost6);
  EXPECT_EQ(dad.pending(), 2u);
  EXPECT_TRUE(dad.poll(6 * kSecond - 1).empty());
  EXPECT_EQ(dad.poll(6 * kSecond).size(), 2u);  // the second probes
  EXPECT_EQ(t.host(0).global_state, AddressState::kTentative);
  sent = dad.poll(7 * kSecond);
  ASSERT_EQ(sent.size(), 2u);  // the announcements
  EXPECT_EQ(sent[1], test::kUnsolicitedNa);
  EXPECT_EQ(t.host(0).link_local_state, AddressState::kPreferred);
  EXPECT_EQ(t.host(0).global_state, AddressState::kPreferred);
  EXPECT_EQ(dad.pending(), 0u);
  EXPECT_TRUE(dad.poll(100 * kSecond).empty());
  EXPECT_TRUE(dad.take_duplicates().empty());
}

TEST(Dad, AnAdvertisementDuringTheWindowIsADuplicate) {
  HostTable t({test::host_spec()});
  Dad dad(t, DadConfig{});
  dad.start(0);
  dad.on_frame(parse_neighbor_frame(test::peer_na(test::kHost6, wire::kAllNodes, wire::kNaOverride)), kSecond / 2);
  const std::vector<DuplicateAddress> dups = dad.take_duplicates();
  ASSERT_EQ(dups.size(), 1u);
  EXPECT_EQ(dups[0].address, test::kHost6);
  EXPECT_EQ(dups[0].by_mac, test::kPeerMac);
  EXPECT_EQ(dups[0].at_ns, kSecond / 2);
  EXPECT_EQ(dups[0].message,
            "port 'p0', host d[0]: IPv6 address 2001:db8::2 is a duplicate: 02:aa:bb:cc:dd:ee advertised it (NA) "
            "during DAD; the address is not used");
  EXPECT_EQ(t.host(0).global_state, AddressState::kDuplicate);
  // The window ends: only the link-local address is preferred and announced.
  const std::vector<Frame> sent = dad.poll(kSecond);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(parse_neighbor_frame(sent[0]).nd.target, kLinkLocal);
  EXPECT_EQ(respond(t, test::peer_ns(test::kPeer6, wire::solicited_node(test::kHost6), test::kHost6)).verdict,
            RxVerdict::kNoReply);
}

TEST(Dad, AnotherNodesProbeIsADuplicateOurOwnLoopedBackIsNot) {
  HostTable t({test::host_spec()});
  Dad dad(t, DadConfig{});
  const std::vector<Frame> probes = dad.start(0);
  for (const Frame& own : probes) dad.on_frame(parse_neighbor_frame(own), 1);  // a loopback cable hands them back
  // Someone resolving the address (from a unicast source) is not probing it.
  dad.on_frame(parse_neighbor_frame(test::peer_ns(test::kPeer6, wire::solicited_node(test::kHost6), test::kHost6)), 2);
  EXPECT_TRUE(dad.take_duplicates().empty());
  dad.on_frame(parse_neighbor_frame(test::peer_ns(wire::kUnspecified, wire::solicited_node(kLinkLocal), kLinkLocal)),
               3);
  const std::vector<DuplicateAddress> dups = dad.take_duplicates();
  ASSERT_EQ(dups.size(), 1u);
  EXPECT_EQ(dups[0].slot, Ipv6Slot::kLinkLocal);
  EXPECT_EQ(
      dups[0].message,
      "port 'p0', host d[0]: IPv6 address fe80::ff:fe00:1 is a duplicate: 02:aa:bb:cc:dd:ee probes it too (DAD NS) "
      "during DAD; the address is not used");
  EXPECT_EQ(dad.pending(), 1u);
  EXPECT_EQ(t.host(0).link_local_state, AddressState::kDuplicate);
}

TEST(Dad, AfterTheWindowAnAdvertisementChangesNothing) {
  HostTable t({test::host_spec()});
  Dad dad(t, DadConfig{});
  dad.start(0);
  dad.poll(kSecond);
  dad.on_frame(parse_neighbor_frame(test::peer_na(test::kHost6, wire::kAllNodes, wire::kNaOverride)), 2 * kSecond);
  EXPECT_TRUE(dad.take_duplicates().empty());
  EXPECT_EQ(t.host(0).global_state, AddressState::kPreferred);
}

}  // namespace
}  // namespace lr::hosts
