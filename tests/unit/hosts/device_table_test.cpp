// The profile's [[device]] table: what is read, and the exact error (file, line, column,
// key, reason) for each refusal: a port the profile lacks, a key out of range, a step
// without what it steps, a range that overflows or clashes, naming the host's index.

#include "lib/profile/device_table.hpp"

#include <gtest/gtest.h>

#include <string>

#include "lib/profile/load_toml.hpp"

namespace lr::profile {
namespace {

constexpr const char* kPorts = R"([[port]]
name = "p0"
device = "net_ring0"

[[port]]
name = "p1"
device = "net_ring1"
)";

std::string error_of(const std::string& devices) {
  try {
    load_profile_text(std::string(kPorts) + devices, "test.toml");
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "";
}

TEST(DeviceTable, ReadsEveryKey) {
  const Profile p = load_profile_text(std::string(kPorts) + R"(
[[device]]
name = "hosts"
port = "p1"
mac = "02:00:00:00:01:00"
vlan = 10
ipv4 = { address = "10.1.0.2", prefix = 16, gateway = "10.1.0.1" }
ipv6 = { address = "2001:db8:1::2", prefix = 48, gateway = "fe80::1" }
count = 1000
mac_step = "00:00:00:00:00:02"
ipv4_step = "0.0.0.2"
ipv6_step = "::1:0"
vlan_step = 0
)",
                                      "test.toml");
  ASSERT_EQ(p.devices.size(), 1u);
  const api::DeviceSpec& d = p.devices[0];
  EXPECT_EQ(d.name, "hosts");
  EXPECT_EQ(d.first.port, "p1");
  EXPECT_EQ(d.first.mac, (api::MacAddr{0x02, 0, 0, 0, 0x01, 0x00}));
  EXPECT_EQ(d.first.vlan, 10);
  EXPECT_EQ(d.first.ipv4, (api::HostIpv4{0x0A010002, 16, 0x0A010001}));
  EXPECT_EQ(d.first.ipv6->prefix, 48);
  EXPECT_EQ(d.first.ipv6->gateway, (api::Ipv6Addr{0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}));
  EXPECT_EQ(d.count, 1000u);
  EXPECT_EQ(d.mac_step, (api::MacAddr{0, 0, 0, 0, 0, 2}));
  EXPECT_EQ(d.ipv4_step, 2u);
  EXPECT_EQ(d.ipv6_step, (api::Ipv6Addr{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0}));
  EXPECT_EQ(d.loc_of("count").line, 16u);
}

TEST(DeviceTable, DefaultsAreOneUntaggedHostWithoutAddresses) {
  const Profile p = load_profile_text(
      std::string(kPorts) + "[[device]]\nname = \"a\"\nport = \"p0\"\nmac = \"02:00:00:00:00:01\"\n", "test.toml");
  ASSERT_EQ(p.devices.size(), 1u);
  EXPECT_EQ(p.devices[0].count, 1u);
  EXPECT_FALSE(p.devices[0].first.vlan.has_value());
  EXPECT_FALSE(p.devices[0].first.ipv4.has_value());
  EXPECT_FALSE(p.devices[0].first.ipv6.has_value());
}

TEST(DeviceTable, APortTheProfileLacksIsRefusedNamingBoth) {
  EXPECT_EQ(error_of("[[device]]\nname = \"a\"\nport = \"p9\"\nmac = \"02:00:00:00:00:01\"\n"),
            "test.toml:10:8: key 'device[0].port': device 'a' is on port 'p9', which the profile does not have (it has "
            "p0, p1)");
}

TEST(DeviceTable, EachKeyIsCheckedWhereItStands) {
  const std::string head = "[[device]]\nname = \"a\"\nport = \"p0\"\nmac = \"02:00:00:00:00:01\"\n";
  EXPECT_EQ(error_of("[[device]]\nname = \"a\"\nport = \"p0\"\n"), "test.toml:8:1: key 'device[0].mac': is required");
  EXPECT_EQ(error_of(head + "vlan = 4095\n"), "test.toml:12:8: key 'device[0].vlan': 4095 is out of range [1, 4094]");
  EXPECT_EQ(error_of(head + "ipv4 = { prefix = 24 }\n"), "test.toml:12:8: key 'device[0].ipv4.address': is required");
  EXPECT_EQ(error_of(head + "ipv6 = { address = \"2001:db8::1\", prefix = 129 }\n"),
            "test.toml:12:44: key 'device[0].ipv6.prefix': 129 is out of range [0, 128]");
  EXPECT_EQ(error_of(head + "ipv4_step = \"0.0.0.1\"\n"),
            "test.toml:12:13: key 'device[0].ipv4_step': goes with ipv4 = { address = ... }");
  EXPECT_EQ(error_of(head + "count = 0\n"), "test.toml:12:9: key 'device[0].count': 0 is out of range [1, 65536]");
  EXPECT_EQ(error_of(head + "mac_step = \"1\"\n"),
            "test.toml:12:12: key 'device[0].mac_step': '1' is not a MAC address: write e.g. '02:00:00:00:00:01'");
  EXPECT_EQ(error_of(head + "gateway = \"10.0.0.1\"\n"),
            "test.toml:12:1: key 'device[0].gateway': unknown key (see config/README.md for the schema)");
  EXPECT_EQ(error_of(head + head), "test.toml:13:8: key 'device[1].name': device name 'a' is used twice");
}

TEST(DeviceTable, ARangeThatOverflowsNamesTheHost) {
  EXPECT_EQ(error_of("[[device]]\nname = \"a\"\nport = \"p0\"\nmac = \"02:00:00:00:00:01\"\n"
                     "ipv4 = { address = \"10.0.0.2\", prefix = 24, gateway = \"10.0.0.1\" }\ncount = 300\n"),
            "test.toml:13:9: key 'device[0].count': host 253: 10.0.0.255 is the broadcast address of 10.0.0.0/24");
}

TEST(DeviceTable, HostsOfTwoDevicesThatClashAreRefusedAtTheSecond) {
  const std::string a =
      "[[device]]\nname = \"a\"\nport = \"p0\"\nmac = \"02:00:00:00:00:01\"\n"
      "ipv4 = { address = \"10.0.0.2\" }\ncount = 10\n";
  const std::string b =
      "[[device]]\nname = \"b\"\nport = \"p0\"\nmac = \"02:00:00:00:01:01\"\n"
      "ipv4 = { address = \"10.0.0.9\" }\n";
  EXPECT_EQ(error_of(a + b),
            "test.toml:18:8: key 'device[1].ipv4': b[0] on port 'p0' has IPv4 address 10.0.0.9, as a[7] has");
  // The same addresses on another port are another link.
  std::string other = b;
  other.replace(other.find("p0"), 2, "p1");
  EXPECT_EQ(error_of(a + other), "");
}

}  // namespace
}  // namespace lr::profile
