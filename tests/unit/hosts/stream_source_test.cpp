// The host a stream with eth "auto" is sent from and its next hop: through the gateway or
// to an on-link destination, over IPv4 and IPv6 (a global source, a link-local one), on
// the stream's VLAN; and each refusal's exact text (no host on the port, none with the
// address, one with it on another VLAN, a destination off the subnet without a gateway).

#include "lib/hosts/stream_source.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "lib/wire/ipv6_nd.hpp"
#include "tests/unit/hosts/hosts_fixture.hpp"

namespace lr::hosts::stream_source_test {
namespace {

constexpr uint32_t kOffLink = 0xC6130001;  // 198.19.0.1
constexpr uint32_t kOnLink = 0x0A000009;   // 10.0.0.9

// d[0] as the fixture has it (10.0.0.2/24 via 10.0.0.1, 2001:db8::2/64 via 2001:db8::1),
// after another port's host with the same addresses and an untagged host of its own port.
std::vector<api::HostSpec> port_hosts(std::optional<uint16_t> vlan = std::nullopt) {
  api::HostSpec elsewhere = test::host_spec();
  elsewhere.port = "p1";
  api::HostSpec neighbour = test::host_spec();
  neighbour.device = "e";
  neighbour.mac = {0x02, 0, 0, 0, 0, 0x07};
  neighbour.ipv4->address = 0x0A000007;
  neighbour.ipv6.reset();
  return {elsewhere, neighbour, test::host_spec(vlan)};
}

api::StreamSpec stream_v4(uint32_t src, uint32_t dst) {
  api::StreamSpec s;
  s.name = "s1";
  s.tx_port = "p0";
  s.eth_src_auto = true;
  s.eth_dst_auto = true;
  s.ipv4.src = src;
  s.ipv4.dst = dst;
  return s;
}

api::StreamSpec stream_v6(const api::Ipv6Addr& src, const api::Ipv6Addr& dst) {
  api::StreamSpec s = stream_v4(0, 0);
  s.ip_version = api::IpVersion::kV6;
  s.ipv6.src = src;
  s.ipv6.dst = dst;
  return s;
}

TEST(StreamSource, OffTheSubnetGoesToTheGateway) {
  const auto hosts = port_hosts();
  const auto source = stream_source(hosts, stream_v4(test::kHost4, kOffLink));
  ASSERT_TRUE(source.has_value()) << source.error();
  EXPECT_EQ(source->host, 2u);
  EXPECT_EQ(source->next_hop, IpAddress{test::kPeer4});
  EXPECT_TRUE(source->via_gateway);
}

TEST(StreamSource, OnTheSubnetGoesToTheDestinationItself) {
  const auto hosts = port_hosts();
  const auto source = stream_source(hosts, stream_v4(test::kHost4, kOnLink));
  ASSERT_TRUE(source.has_value()) << source.error();
  EXPECT_EQ(source->host, 2u);
  EXPECT_EQ(source->next_hop, IpAddress{kOnLink});
  EXPECT_FALSE(source->via_gateway);
  // The other host of the port sends from its own address.
  EXPECT_EQ(stream_source(hosts, stream_v4(0x0A000007, kOnLink))->host, 1u);
}

TEST(StreamSource, Ipv6GlobalSourceGoesToItsGateway) {
  const auto hosts = port_hosts();
  const api::Ipv6Addr remote{0x20, 0x01, 0x0D, 0xB8, 0, 0x09, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x05};
  const auto source = stream_source(hosts, stream_v6(test::kHost6, remote));
  ASSERT_TRUE(source.has_value()) << source.error();
  EXPECT_EQ(source->host, 2u);
  EXPECT_EQ(source->next_hop, IpAddress{test::kPeer6});
  EXPECT_TRUE(source->via_gateway);
}

TEST(StreamSource, Ipv6LinkLocalSourceReachesALinkLocalDestinationOnLink) {
  const auto hosts = port_hosts();
  const api::Ipv6Addr router{0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01};
  const auto source = stream_source(hosts, stream_v6(wire::link_local_from_mac(test::kHostMac), router));
  ASSERT_TRUE(source.has_value()) << source.error();
  EXPECT_EQ(source->host, 2u);
  EXPECT_EQ(source->next_hop, IpAddress{router});
  EXPECT_FALSE(source->via_gateway);
}

TEST(StreamSource, TheStreamsVlanPicksTheHost) {
  const auto tagged = port_hosts(10);
  api::StreamSpec s = stream_v4(test::kHost4, kOffLink);
  s.vlan = api::VlanSpec{10, 3};
  const auto source = stream_source(tagged, s);
  ASSERT_TRUE(source.has_value()) << source.error();
  EXPECT_EQ(source->host, 2u);
  // VID 0 is a priority tag: the untagged hosts'.
  s.vlan = api::VlanSpec{0, 3};
  EXPECT_EQ(stream_source(port_hosts(), s)->host, 2u);
  EXPECT_EQ(stream_source(tagged, s).error(),
            "stream 's1': eth.dst 'auto' needs an emulated host with address 10.0.0.2 on port p0 (untagged): none of "
            "its 2 hosts has it (d[0] has it on VLAN 10: give the stream that VLAN); add a [[device]] or set ipv4.src "
            "to one of theirs");
  s.vlan = api::VlanSpec{20, 0};
  EXPECT_EQ(stream_source(port_hosts(), s).error(),
            "stream 's1': eth.dst 'auto' needs an emulated host with address 10.0.0.2 on port p0 (VLAN 20): none of "
            "its 2 hosts has it (d[0] has it untagged: give the stream that VLAN); add a [[device]] or set ipv4.src "
            "to one of theirs");
}

TEST(StreamSource, AnAddressNoHostHasIsRefusedNamingThePortAndTheAddress) {
  const auto hosts = port_hosts();
  EXPECT_EQ(stream_source(hosts, stream_v4(0xC6120001, kOffLink)).error(),
            "stream 's1': eth.dst 'auto' needs an emulated host with address 198.18.0.1 on port p0 (untagged): none "
            "of its 2 hosts has it; add a [[device]] or set ipv4.src to one of theirs");
  api::StreamSpec src_only = stream_v6(test::kPeer6, test::kHost6);
  src_only.eth_dst_auto = false;
  EXPECT_EQ(stream_source(hosts, src_only).error(),
            "stream 's1': eth.src 'auto' needs an emulated host with address 2001:db8::1 on port p0 (untagged): none "
            "of its 2 hosts has it; add a [[device]] or set ipv6.src to one of theirs");
  api::StreamSpec other_port = stream_v4(test::kHost4, kOffLink);
  other_port.tx_port = "p2";
  EXPECT_EQ(stream_source(hosts, other_port).error(),
            "stream 's1': eth.dst 'auto' needs an emulated host with address 10.0.0.2 on port p2 (untagged): port p2 "
            "has no emulated hosts; add a [[device]] on it");
}

TEST(StreamSource, ADestinationWithoutARouteIsRefusedOnlyWhenEthDstIsAuto) {
  std::vector<api::HostSpec> hosts = port_hosts();
  hosts[2].ipv4->gateway.reset();
  api::StreamSpec s = stream_v4(test::kHost4, kOffLink);
  EXPECT_EQ(stream_source(hosts, s).error(),
            "stream 's1': eth.dst 'auto': port 'p0', host d[0] (10.0.0.2/24) has no gateway, and 198.19.0.1 is not "
            "on its subnet");
  // eth.src alone needs the host, not its next hop.
  s.eth_dst_auto = false;
  const auto source = stream_source(hosts, s);
  ASSERT_TRUE(source.has_value()) << source.error();
  EXPECT_EQ(source->host, 2u);
  EXPECT_EQ(source->next_hop, IpAddress{kOffLink});
  EXPECT_FALSE(source->via_gateway);
}

}  // namespace
}  // namespace lr::hosts::stream_source_test
