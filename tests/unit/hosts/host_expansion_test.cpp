// A device's range expanded host by host (MAC, IPv4, IPv6 and VLAN steps), and each
// refusal naming the host's index and the key to blame: overflow, addresses no host may
// have, gateways off the subnet, and hosts of one port that clash.

#include "lib/hosts/host_expansion.hpp"

#include <gtest/gtest.h>

#include "tests/unit/hosts/hosts_fixture.hpp"

namespace lr::hosts {
namespace {

api::DeviceSpec device(uint32_t count) {
  api::DeviceSpec d;
  d.name = "d";
  d.first = test::host_spec(10);
  d.count = count;
  return d;
}

TEST(HostExpansion, EachHostIsTheFirstPlusItsSteps) {
  api::DeviceSpec d = device(3);
  d.mac_step = {0, 0, 0, 0, 0x01, 0x00};
  d.ipv4_step = 4;
  d.ipv6_step = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x00};
  d.vlan_step = 2;
  const auto hosts = expand_device(d);
  ASSERT_TRUE(hosts.has_value()) << hosts.error().message;
  ASSERT_EQ(hosts->size(), 3u);
  const api::HostSpec& h = (*hosts)[2];
  EXPECT_EQ(h.device, "d");
  EXPECT_EQ(h.index, 2u);
  EXPECT_EQ(h.port, "p0");
  EXPECT_EQ(h.mac, (api::MacAddr{0x02, 0, 0, 0, 0x02, 0x01}));
  EXPECT_EQ(h.vlan, 14);
  EXPECT_EQ(h.ipv4->address, test::kHost4 + 8);
  EXPECT_EQ(h.ipv4->gateway, test::kPeer4);
  EXPECT_EQ(h.ipv6->address, (api::Ipv6Addr{0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x02}));
  EXPECT_EQ(h.ipv6->prefix, 64);
}

TEST(HostExpansion, AStepPastTheLargestValueIsRefusedAtItsHost) {
  api::DeviceSpec d = device(300);
  d.first.vlan = 4000;
  d.vlan_step = 1;
  auto hosts = expand_device(d);
  ASSERT_FALSE(hosts.has_value());
  EXPECT_EQ(hosts.error().key, "vlan_step");
  EXPECT_EQ(hosts.error().message, "host 95: VLAN 4000 + 95 x 1 passes 4094");

  d = device(2);
  d.first.mac = {0x02, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  d.first.ipv4.reset();
  d.mac_step = {0xFE, 0, 0, 0, 0, 0};
  hosts = expand_device(d);
  ASSERT_FALSE(hosts.has_value());
  EXPECT_EQ(hosts.error().message, "host 1: 02:ff:ff:ff:ff:ff + 1 x fe:00:00:00:00:00 passes ff:ff:ff:ff:ff:ff");

  d = device(2);
  d.first.ipv4 = api::HostIpv4{0xDFFFFFFE, 0, std::nullopt};
  d.ipv4_step = 0x20000002;
  hosts = expand_device(d);
  ASSERT_FALSE(hosts.has_value());
  EXPECT_EQ(hosts.error().key, "ipv4_step");
  EXPECT_EQ(hosts.error().message, "host 1: 223.255.255.254 + 1 x 32.0.0.2 passes 255.255.255.255");

  d = device(2);
  d.first.ipv6->address = {0xFE, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01};
  d.first.ipv6->gateway.reset();
  d.ipv6_step = {0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  hosts = expand_device(d);
  ASSERT_FALSE(hosts.has_value());
  EXPECT_EQ(hosts.error().key, "ipv6_step");
  EXPECT_EQ(hosts.error().message, "host 1: feff::1 + 1 x 200:: passes ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff");
}

TEST(HostExpansion, AddressesNoHostMayHaveAreRefused) {
  api::DeviceSpec d = device(300);
  d.first.ipv6.reset();
  auto hosts = expand_device(d);  // 10.0.0.2 + 253 = 10.0.0.255, the /24's broadcast address
  ASSERT_FALSE(hosts.has_value());
  EXPECT_EQ(hosts.error().message, "host 253: 10.0.0.255 is the broadcast address of 10.0.0.0/24");
  d = device(1);
  d.first.ipv4->gateway = 0x0A000102;
  hosts = expand_device(d);
  ASSERT_FALSE(hosts.has_value());
  EXPECT_EQ(hosts.error().key, "ipv4");
  EXPECT_EQ(hosts.error().message, "host 0: gateway 10.0.1.2 is not on its subnet 10.0.0.0/24");
  d = device(1);
  d.first.ipv6->gateway = api::Ipv6Addr{0x20, 0x01, 0x0D, 0xB9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  hosts = expand_device(d);
  ASSERT_FALSE(hosts.has_value());
  EXPECT_EQ(hosts.error().message,
            "host 0: gateway 2001:db9::1 is neither link-local nor on its subnet (2001:db8::2/64)");
  d.first.ipv6->gateway = wire::link_local_from_mac(test::kPeerMac);  // a router's link-local address: fine
  EXPECT_TRUE(expand_device(d).has_value());
  d = device(2);
  d.mac_step = {0x01, 0, 0, 0, 0, 0};  // 03:...: the group bit set
  hosts = expand_device(d);
  ASSERT_FALSE(hosts.has_value());
  EXPECT_EQ(hosts.error().message, "host 1: 03:00:00:00:00:01 is not a host's MAC (multicast)");
}

TEST(HostExpansion, HostsOfOnePortThatClashAreRefusedNamingBoth) {
  api::DeviceSpec a = device(10), b = device(10);
  b.name = "e";
  b.first.mac = {0x02, 0, 0, 0, 0x10, 0x00};
  b.first.ipv4->address = test::kHost4 + 5;
  b.first.ipv6.reset();
  std::vector<api::HostSpec> all = *expand_device(a);
  const auto more = *expand_device(b);
  all.insert(all.end(), more.begin(), more.end());
  auto distinct = check_distinct(all);
  ASSERT_FALSE(distinct.has_value());
  EXPECT_EQ(distinct.error().key, "ipv4");
  EXPECT_EQ(distinct.error().host, 10u);
  EXPECT_EQ(distinct.error().message, "e[0] on port 'p0' VLAN 10 has IPv4 address 10.0.0.7, as d[5] has");
  // On another VLAN it is another link.
  for (size_t i = 10; i < all.size(); ++i) all[i].vlan = 11;
  EXPECT_TRUE(check_distinct(all).has_value());
  api::DeviceSpec same_mac = device(2);
  same_mac.mac_step = {};
  distinct = check_distinct(*expand_device(same_mac));
  ASSERT_FALSE(distinct.has_value());
  EXPECT_EQ(distinct.error().key, "mac_step");
  EXPECT_EQ(distinct.error().message, "d[1] on port 'p0' VLAN 10 has MAC 02:00:00:00:00:01, as d[0] has");
}

}  // namespace
}  // namespace lr::hosts
