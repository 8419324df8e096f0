// A device's JSON form (device.load, device.list): what to_json writes, exactly, and reads
// back as the same spec; and each refusal of devices_from_json at "devices[i].key": not an
// array, not an object, a bad value, a port the running profile lacks, a name twice, hosts
// of two devices that clash, too many hosts in all.

#include "lib/profile/device_spec_json.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lib/profile/load_toml.hpp"

namespace lr::profile::device_spec_json_test {
namespace {

using nlohmann::json;

constexpr const char* kPorts =
    "[[port]]\nname = \"p0\"\ndevice = \"net_ring0\"\n\n"
    "[[port]]\nname = \"p1\"\ndevice = \"net_ring1\"\n";

const Profile& running() {
  static const Profile profile = load_profile_text(kPorts, "running.toml");
  return profile;
}

const json kFull = {{"name", "hosts_a"},
                    {"port", "p1"},
                    {"mac", "02:00:00:00:01:01"},
                    {"count", 1000},
                    {"mac_step", "00:00:00:00:00:02"},
                    {"vlan", 10},
                    {"vlan_step", 1},
                    {"ipv4", {{"address", "198.18.0.1"}, {"prefix", 16}, {"gateway", "198.18.255.254"}}},
                    {"ipv4_step", "0.0.0.2"},
                    {"ipv6", {{"address", "2001:db8:a::1"}, {"prefix", 64}, {"gateway", "fe80::1"}}},
                    {"ipv6_step", "::1:0"}};

std::string refusal(const json& devices) {
  try {
    devices_from_json(devices, "params", running());
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "accepted";
}

TEST(DeviceSpecJson, EveryKeyIsReadAndWrittenBackAsItWas) {
  const std::vector<api::DeviceSpec> read = devices_from_json(json::array({kFull}), "params", running());
  ASSERT_EQ(read.size(), 1u);
  const api::DeviceSpec& d = read[0];
  EXPECT_EQ(d.name, "hosts_a");
  EXPECT_EQ(d.first.port, "p1");
  EXPECT_EQ(d.first.mac, (api::MacAddr{0x02, 0, 0, 0, 0x01, 0x01}));
  EXPECT_EQ(d.first.vlan, 10);
  EXPECT_EQ(d.first.ipv4, (api::HostIpv4{0xC6120001, 16, 0xC612FFFE}));
  EXPECT_EQ(d.first.ipv6->gateway, (api::Ipv6Addr{0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}));
  EXPECT_EQ(d.count, 1000u);
  EXPECT_EQ(d.vlan_step, 1);
  EXPECT_EQ(d.ipv4_step, 2u);
  EXPECT_EQ(to_json(d), kFull);
  EXPECT_EQ(to_json(read), json::array({kFull}));
}

TEST(DeviceSpecJson, AProfilesDeviceTravelsAsItsTable) {
  const Profile p = load_profile_text(std::string(kPorts) +
                                          "\n[[device]]\nname = \"a\"\nport = \"p0\"\n"
                                          "mac = \"02:00:00:00:00:01\"\n"
                                          "ipv6 = { address = \"2001:db8::2\" }\n",
                                      "lab.toml");
  const json form = to_json(p.devices.at(0));
  // Left out: the VLAN and IPv4 the device does not have, with their steps; a gateway it has not.
  EXPECT_EQ(form, (json{{"name", "a"},
                        {"port", "p0"},
                        {"mac", "02:00:00:00:00:01"},
                        {"count", 1},
                        {"mac_step", "00:00:00:00:00:01"},
                        {"ipv6", {{"address", "2001:db8::2"}, {"prefix", 64}}},
                        {"ipv6_step", "::1"}}));
  api::DeviceSpec read = devices_from_json(json::array({form}), "params", running()).at(0);
  api::DeviceSpec written = p.devices[0];
  written.loc = read.loc;  // a file's places stay in the file
  written.key_locs.clear();
  EXPECT_EQ(read, written);
}

TEST(DeviceSpecJson, AnEmptyArrayIsNoDevices) {
  EXPECT_TRUE(devices_from_json(json::array(), "params", running()).empty());
}

TEST(DeviceSpecJson, BadFormsAreRefusedAtTheirKey) {
  const json a = {{"name", "a"}, {"port", "p0"}, {"mac", "02:00:00:00:00:01"}};
  EXPECT_EQ(refusal(json::object()), "params: key 'devices': expected an array of device objects, found object");
  EXPECT_EQ(refusal(json::array({a, "b"})),
            "params: key 'devices[1]': expected an object with a [[device]] table's keys, found string");
  json bad = a;
  bad["mac"] = "01:00:00:00:00:01";
  EXPECT_EQ(refusal(json::array({bad})),
            "params: key 'devices[0].mac': host 0: 01:00:00:00:00:01 is not a host's MAC (multicast)");
  bad = a;
  bad["port"] = "p9";
  EXPECT_EQ(refusal(json::array({bad})),
            "params: key 'devices[0].port': device 'a' is on port 'p9', which the profile does not have (it has p0, "
            "p1)");
  bad = a;
  bad["ipv4"] = {{"address", "10.0.0.2"}, {"gateway", nullptr}};
  EXPECT_EQ(refusal(json::array({bad})),
            "params: key 'devices[0].ipv4.gateway': null is not a value (leave the key out for its default)");
  bad = a;
  bad["mac_stpe"] = "00:00:00:00:00:01";
  EXPECT_EQ(refusal(json::array({bad})),
            "params: key 'devices[0].mac_stpe': unknown key: did you mean 'mac_step'? (see config/README.md for "
            "the schema)");
  EXPECT_EQ(refusal(json::array({a, a})), "params: key 'devices[1].name': device name 'a' is used twice");
}

TEST(DeviceSpecJson, HostsOfTwoDevicesThatClashAreRefusedAtTheSecond) {
  const json a = {
      {"name", "a"}, {"port", "p0"}, {"mac", "02:00:00:00:00:01"}, {"ipv4", {{"address", "10.0.0.2"}}}, {"count", 10}};
  json b = {{"name", "b"}, {"port", "p0"}, {"mac", "02:00:00:00:01:01"}, {"ipv4", {{"address", "10.0.0.9"}}}};
  EXPECT_EQ(refusal(json::array({a, b})),
            "params: key 'devices[1].ipv4': b[0] on port 'p0' has IPv4 address 10.0.0.9, as a[7] has");
  b["port"] = "p1";  // another link
  EXPECT_EQ(refusal(json::array({a, b})), "accepted");
}

TEST(DeviceSpecJson, TheRunningDevicesAreReplacedNotAddedTo) {
  Profile with_hosts = running();
  with_hosts.devices = devices_from_json(json::array({kFull}), "params", running());
  // The same name and hosts again: the new devices replace the old, so nothing clashes.
  EXPECT_EQ(devices_from_json(json::array({kFull}), "params", with_hosts).size(), 1u);
}

TEST(DeviceSpecJson, TooManyHostsInAllAreRefused) {
  json a = {{"name", "a"}, {"port", "p0"}, {"mac", "02:00:00:00:00:01"}, {"count", 65536}};
  json b = {{"name", "b"}, {"port", "p1"}, {"mac", "02:00:00:01:00:01"}, {"count", 1}};
  EXPECT_EQ(refusal(json::array({a, b})),
            "params: key 'devices[1].count': the devices hold 65537 hosts with this one, at most 65536");
}

}  // namespace
}  // namespace lr::profile::device_spec_json_test
