// OTG devices into the data plane's emulated hosts: each ethernet one device object of
// device.load, exactly; flows between devices into streams from one host to another (ports,
// addresses, VLAN, eth "auto"); what linerate cannot do refused at its path; the data
// plane's refusal said as the config's ethernet.
#include <gtest/gtest.h>

#include <initializer_list>
#include <tuple>

#include "control/otg/otg_config.hpp"

namespace lr::otg {
namespace {

using nlohmann::json;

const std::map<std::string, uint64_t> kDevicePorts{{"p0", 10'000'000'000}, {"p1", 10'000'000'000}};

json fixed(json value) { return {{"choice", "value"}, {"value", std::move(value)}}; }

json ethernet(const char* name, const char* port, const char* mac, json ipv4 = nullptr, json ipv6 = nullptr) {
  json e{{"name", name}, {"mac", mac}, {"mtu", 1500}, {"connection", {{"choice", "port_name"}, {"port_name", port}}}};
  if (!ipv4.is_null()) e["ipv4_addresses"] = json::array({std::move(ipv4)});
  if (!ipv6.is_null()) e["ipv6_addresses"] = json::array({std::move(ipv6)});
  return e;
}

json ipv4(const char* name, const char* address, const char* gateway, int prefix = 24) {
  return {{"name", name}, {"address", address}, {"gateway", gateway}, {"prefix", prefix}};
}

json ipv6(const char* name, const char* address, const char* gateway, int prefix = 64) {
  return {{"name", name}, {"address", address}, {"gateway", gateway}, {"prefix", prefix}};
}

// Two devices, as SONiC's snappi helpers write them: an ethernet on each port with an IPv4
// address (and an IPv6 one on the first) and a gateway each.
json two_devices() {
  return json::array(
      {{{"name", "d1"},
        {"ethernets",
         json::array({ethernet("e1", "tx", "02:00:00:00:01:01", ipv4("e1.v4", "198.18.0.1", "198.18.0.254"),
                               ipv6("e1.v6", "2001:db8:a::1", "2001:db8:a::fe"))})}},
       {{"name", "d2"},
        {"ethernets",
         json::array({ethernet("e2", "rx", "02:00:00:00:02:01", ipv4("e2.v4", "198.19.0.1", "198.19.0.254"),
                               ipv6("e2.v6", "2001:db8:b::1", "2001:db8:b::fe"))})}}});
}

json device_flow(json tx, json rx, json packet = json::array()) {
  return {{"name", "f"},
          {"tx_rx", {{"choice", "device"}, {"device", {{"mode", "mesh"}, {"tx_names", tx}, {"rx_names", rx}}}}},
          {"packet", std::move(packet)}};
}

// A list of flows is built here: a braced list of one json value is that value, not a list,
// for clang (CWG 1467), unlike g++.
json config_with(json devices, std::initializer_list<json> flows = {}) {
  json list = json::array();
  for (const json& flow : flows) list.push_back(flow);
  return {{"ports", {{{"name", "tx"}, {"location", "p0"}}, {{"name", "rx"}, {"location", "p1"}}}},
          {"devices", std::move(devices)},
          {"flows", std::move(list)}};
}

std::vector<std::string> device_refusals(const json& config) {
  try {
    read_otg_config(config, kDevicePorts);
  } catch (const ConfigRefused& e) {
    return e.errors();
  }
  return {};
}

TEST(OtgDevices, EachEthernetIsOneDeviceOfDeviceLoad) {
  json devices = two_devices();
  devices[1]["ethernets"][0]["vlans"] = {{{"name", "v"}, {"id", 10}, {"tpid", "x8100"}, {"priority", 0}}};
  const OtgConfig config = read_otg_config(config_with(devices), kDevicePorts);
  EXPECT_EQ(config.devices.load, json::parse(R"([
              {"name": "e1", "port": "p0", "mac": "02:00:00:00:01:01", "count": 1, "mac_step": "00:00:00:00:00:01",
               "ipv4": {"address": "198.18.0.1", "prefix": 24, "gateway": "198.18.0.254"}, "ipv4_step": "0.0.0.1",
               "ipv6": {"address": "2001:db8:a::1", "prefix": 64, "gateway": "2001:db8:a::fe"}, "ipv6_step": "::1"},
              {"name": "e2", "port": "p1", "mac": "02:00:00:00:02:01", "count": 1, "mac_step": "00:00:00:00:00:01",
               "vlan": 10, "vlan_step": 0,
               "ipv4": {"address": "198.19.0.1", "prefix": 24, "gateway": "198.19.0.254"}, "ipv4_step": "0.0.0.1",
               "ipv6": {"address": "2001:db8:b::1", "prefix": 64, "gateway": "2001:db8:b::fe"}, "ipv6_step": "::1"}])"));
  EXPECT_EQ(config.devices.ethernets[1],
            (OtgEthernet{"e2", "devices[1].ethernets[0]", "p1", 10, "198.19.0.1", "2001:db8:b::1"}));
  using Kind = OtgEndpoint::Kind;
  EXPECT_EQ(config.devices.endpoints, (std::map<std::string, OtgEndpoint>{{"d1", {Kind::kEthernet, 0}},
                                                                          {"d2", {Kind::kEthernet, 1}},
                                                                          {"e1", {Kind::kEthernet, 0}},
                                                                          {"e1.v4", {Kind::kIpv4, 0}},
                                                                          {"e1.v6", {Kind::kIpv6, 0}},
                                                                          {"e2", {Kind::kEthernet, 1}},
                                                                          {"e2.v4", {Kind::kIpv4, 1}},
                                                                          {"e2.v6", {Kind::kIpv6, 1}}}));
  EXPECT_EQ(config.warnings, std::vector<std::string>{});
}

TEST(OtgDevices, AConfigWithoutDevicesLoadsNone) {
  EXPECT_EQ(read_otg_config(config_with(nullptr), kDevicePorts).devices.load, json::array());
  EXPECT_EQ(read_otg_config(config_with(json::array()), kDevicePorts).devices.load, json::array());
}

TEST(OtgDevices, AnEthernetWithoutAddressesAndTheModelsDefaultPrefixes) {
  json devices = json::array({{{"name", "d"},
                               {"ethernets",
                                {ethernet("e", "tx", "02:00:00:00:00:0A", nullptr,
                                          {{"name", "v6"}, {"address", "2001:db8::2"}, {"gateway", "fe80::1"}}),
                                 ethernet("l2", "rx", "02:00:00:00:00:0b")}}}});
  devices[0]["ethernets"][0]["ipv4_addresses"] = {{{"name", "v4"}, {"address", "10.0.0.2"}, {"gateway", "10.0.0.1"}}};
  EXPECT_EQ(read_otg_config(config_with(devices), kDevicePorts).devices.load, json::parse(R"([
              {"name": "e", "port": "p0", "mac": "02:00:00:00:00:0a", "count": 1, "mac_step": "00:00:00:00:00:01",
               "ipv4": {"address": "10.0.0.2", "prefix": 24, "gateway": "10.0.0.1"}, "ipv4_step": "0.0.0.1",
               "ipv6": {"address": "2001:db8::2", "prefix": 64, "gateway": "fe80::1"}, "ipv6_step": "::1"},
              {"name": "l2", "port": "p1", "mac": "02:00:00:00:00:0b", "count": 1, "mac_step": "00:00:00:00:00:01"}])"));
}

TEST(OtgDevices, WhatLinerateCannotDoIsRefusedAtItsPath) {
  json devices = two_devices();
  json& e1 = devices[0]["ethernets"][0];
  e1["vlans"] = {{{"name", "outer"}, {"id", 10}}, {{"name", "inner"}, {"id", 20}}};
  e1["ipv4_addresses"].push_back(ipv4("e1.v4b", "198.18.0.2", "198.18.0.254"));
  e1["ipv6_addresses"][0]["gateway_mac"] = {{"choice", "value"}, {"value", "02:00:00:00:00:fe"}};
  devices[0]["bgp"] = {{"router_id", "1.1.1.1"}, {"ipv4_interfaces", json::array()}};
  devices[0]["isis"] = {{"name", "isis1"}};
  devices[0]["ipv4_loopbacks"] = {{{"name", "lo"}, {"eth_name", "e1"}}};
  json& e2 = devices[1]["ethernets"][0];
  e2["connection"] = {{"choice", "lag_name"}, {"lag_name", "lag1"}};
  e2["dhcpv4_interfaces"] = {{{"name", "dhcp"}}};
  e2["mtu"] = 9000;
  e2["colour"] = "blue";
  EXPECT_EQ(device_refusals(config_with(devices)),
            (std::vector<std::string>{
                "devices[0].isis: linerate runs no IS-IS: its emulated hosts answer ARP, neighbour discovery and ping "
                "and resolve their gateways",
                "devices[0].bgp: linerate runs no BGP: its emulated hosts answer ARP, neighbour discovery and ping and "
                "resolve their gateways",
                "devices[0].ipv4_loopbacks: not supported by linerate: a loopback is reached through a route, and "
                "linerate runs no routing protocol",
                "devices[0].ethernets[0].vlans: 2 VLANs (QinQ) are not supported by linerate: its hosts carry one "
                "802.1Q tag",
                "devices[0].ethernets[0].ipv4_addresses[1]: a second address is not supported by linerate: its "
                "emulated host has one of each IP version (give another ethernet, with its own MAC)",
                "devices[0].ethernets[0].ipv6_addresses[0].gateway_mac: a fixed gateway MAC is not supported by "
                "linerate: its hosts resolve their gateway with neighbour discovery",
                "devices[1].ethernets[0].colour: not a field of an ethernet in the OTG model (1.60.0)",
                "devices[1].ethernets[0].dhcpv4_interfaces: linerate runs no DHCP: its emulated hosts answer ARP, "
                "neighbour discovery and ping and resolve their gateways",
                "devices[1].ethernets[0].connection.choice: 'lag_name' is not supported by linerate: an ethernet is "
                "on one of the config's ports"}));
}

TEST(OtgDevices, BadValuesAreRefusedAtTheirPath) {
  json devices = two_devices();
  json& e1 = devices[0]["ethernets"][0];
  e1.erase("mac");
  e1["connection"]["port_name"] = "nowhere";
  e1["ipv4_addresses"][0]["address"] = "198.18.0.300";
  e1["ipv6_addresses"][0]["prefix"] = 129;
  json& e2 = devices[1]["ethernets"][0];
  e2["vlans"] = {{{"name", "v"}, {"id", 0}, {"tpid", "x88A8"}}};
  e2["ipv6_addresses"][0]["address"] = "198.19.0.1";
  EXPECT_EQ(
      device_refusals(config_with(devices)),
      (std::vector<std::string>{
          "devices[0].ethernets[0].mac: missing (the host's MAC)",
          "devices[0].ethernets[0].connection.port_name: 'nowhere' is not one of the config's ports",
          "devices[0].ethernets[0].ipv4_addresses[0].address: '198.18.0.300' is not an IP address of this version",
          "devices[0].ethernets[0].ipv6_addresses[0].prefix: expected 1-128, found 129",
          "devices[1].ethernets[0].vlans[0].tpid: 'x88A8' is not supported by linerate: its hosts tag with 0x8100",
          "devices[1].ethernets[0].vlans[0].id: expected 1-4094, found 0",
          "devices[1].ethernets[0].ipv6_addresses[0].address: '198.19.0.1' is not an IP address of this "
          "version"}));
}

TEST(OtgDevices, TheHostsOwnChecksAreSaidAtTheEthernetsKeys) {
  json devices = two_devices();
  devices[0]["ethernets"][0]["ipv4_addresses"][0]["gateway"] = "198.19.0.254";
  devices[1]["ethernets"][0]["mac"] = "01:00:5e:00:00:01";
  EXPECT_EQ(device_refusals(config_with(devices)),
            (std::vector<std::string>{
                "devices[0].ethernets[0].ipv4_addresses[0]: gateway 198.19.0.254 is not on its subnet 198.18.0.0/24",
                "devices[1].ethernets[0].mac: 01:00:5e:00:00:01 is not a host's MAC (multicast)"}));
}

TEST(OtgDevices, TwoEthernetsSharingAMacOnAPortOrANameAreRefused) {
  json devices = two_devices();
  devices[1]["ethernets"][0]["connection"]["port_name"] = "tx";
  devices[1]["ethernets"][0]["mac"] = "02:00:00:00:01:01";
  EXPECT_EQ(device_refusals(config_with(devices)),
            std::vector<std::string>{"devices[1].ethernets[0].mac: e2[0] on port 'p0' has MAC 02:00:00:00:01:01, as "
                                     "e1[0] has"});
  devices = two_devices();
  devices[1]["ethernets"][0]["ipv4_addresses"][0]["name"] = "e1";
  EXPECT_EQ(device_refusals(config_with(devices)),
            std::vector<std::string>{"devices[1].ethernets[0].ipv4_addresses[0].name: 'e1' is the name of "
                                     "devices[0].ethernets[0] too (OTG names are unique)"});
}

TEST(OtgDevices, WhatIsNotAppliedIsAWarning) {
  json devices = two_devices();
  devices[0]["ethernets"][0]["mtu"] = 9000;
  devices[0]["ethernets"][0]["vlans"] = {{{"name", "v"}, {"id", 7}, {"priority", 3}}};
  json config = config_with(devices);
  config["options"] = {{"protocol_options", {{"auto_start_all", false}}}};
  EXPECT_EQ(read_otg_config(config, kDevicePorts).warnings,
            (std::vector<std::string>{
                "devices[0].ethernets[0].mtu: not applied: the port keeps its MTU (the profile's mtu)",
                "devices[0].ethernets[0].vlans[0].priority: not applied: the hosts' own frames (ARP, neighbour "
                "discovery) carry priority 0; a flow's priority is its vlan header's",
                "options.protocol_options.auto_start_all: not applied: linerate starts the devices' hosts with the "
                "config (their flows are checked against them); control/state protocol stop ends them"}));
}

TEST(OtgDeviceFlow, AFlowBetweenIpv4AddressesGoesFromHostToHost) {
  json devices = two_devices();
  devices[0]["ethernets"][0]["vlans"] = {{{"name", "v"}, {"id", 10}}};
  const json packet = {{{"choice", "ethernet"}, {"ethernet", {{"dst", {{"choice", "auto"}}}}}},
                       {{"choice", "ipv4"}, {"ipv4", {{"time_to_live", fixed(9)}}}},
                       {{"choice", "udp"}, {"udp", {{"dst_port", fixed(7000)}}}}};
  const OtgConfig config =
      read_otg_config(config_with(devices, {device_flow({"e1.v4"}, {"e2.v4"}, packet)}), kDevicePorts);
  ASSERT_EQ(config.streams.size(), 1u);
  const api::StreamSpec& s = config.streams[0];
  EXPECT_EQ((std::tuple{s.tx_port, *s.rx_port, s.ip_version}),
            (std::tuple{std::string("p0"), std::string("p1"), api::IpVersion::kV4}));
  EXPECT_EQ((std::tuple{s.ipv4.src, s.ipv4.dst, s.ipv4.ttl}), (std::tuple{0xC6120001u, 0xC6130001u, uint8_t{9}}));
  EXPECT_EQ((std::tuple{s.eth_src_auto, s.eth_dst_auto}), (std::tuple{true, true}));
  EXPECT_EQ(s.vlan, (api::VlanSpec{10, 0}));
  EXPECT_EQ(s.udp.dst, 7000);
  EXPECT_EQ(config.warnings, std::vector<std::string>{});
}

TEST(OtgDeviceFlow, EthernetNamesTakeTheIpVersionOfThePacket) {
  const json packet = {{{"choice", "ethernet"}, {"ethernet", json::object()}},
                       {{"choice", "ipv6"}, {"ipv6", {{"hop_limit", fixed(5)}}}},
                       {{"choice", "udp"}, {"udp", json::object()}}};
  const api::StreamSpec s =
      read_otg_config(config_with(two_devices(), {device_flow({"e1"}, {"e2"}, packet)}), kDevicePorts).streams.at(0);
  EXPECT_EQ(s.ip_version, api::IpVersion::kV6);
  EXPECT_EQ(s.ipv6.src, (api::Ipv6Addr{0x20, 0x01, 0x0d, 0xb8, 0, 0x0a, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}));
  EXPECT_EQ(s.ipv6.dst, (api::Ipv6Addr{0x20, 0x01, 0x0d, 0xb8, 0, 0x0b, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}));
  EXPECT_EQ(s.ipv6.hop_limit, 5);
  EXPECT_FALSE(s.vlan.has_value());
  // No IP header: the sending ethernet's IPv4 address (a UDP header added, as for any flow).
  const OtgConfig bare = read_otg_config(config_with(two_devices(), {device_flow({"e1"}, {"e2"})}), kDevicePorts);
  EXPECT_EQ((std::tuple{bare.streams.at(0).ip_version, bare.streams.at(0).ipv4.src}),
            (std::tuple{api::IpVersion::kV4, 0xC6120001u}));
}

TEST(OtgDeviceFlow, ADeviceOfOneEthernetStandsForIt) {
  json devices = two_devices();
  const api::StreamSpec s =
      read_otg_config(config_with(devices, {device_flow({"d1"}, {"d2"})}), kDevicePorts).streams.at(0);
  EXPECT_EQ((std::tuple{s.tx_port, *s.rx_port, s.ipv4.src, s.ipv4.dst}),
            (std::tuple{std::string("p0"), std::string("p1"), 0xC6120001u, 0xC6130001u}));
  devices[1]["ethernets"].push_back(ethernet("e3", "rx", "02:00:00:00:03:01"));
  EXPECT_EQ(device_refusals(config_with(devices, {device_flow({"d1"}, {"d2"})})),
            std::vector<std::string>{"flows[0].tx_rx.device.rx_names[0]: 'd2' is not an ethernet, IPv4 or IPv6 "
                                     "address of the config's devices (nor a device of one ethernet)"});
  devices = two_devices();
  devices[1]["name"] = "e1.v4";
  EXPECT_EQ(
      device_refusals(config_with(devices)),
      std::vector<std::string>{"devices[1].name: 'e1.v4' is the name of devices[0].ethernets[0].ipv4_addresses[0] "
                               "too (OTG names are unique)"});
}

TEST(OtgDeviceFlow, FixedValuesInThePacketAreKept) {
  const json packet = {{{"choice", "ethernet"}, {"ethernet", {{"dst", fixed("02:00:00:00:00:fe")}}}},
                       {{"choice", "vlan"}, {"vlan", {{"id", fixed(20)}}}},
                       {{"choice", "ipv4"}, {"ipv4", {{"dst", fixed("203.0.113.9")}}}}};
  json devices = two_devices();
  devices[0]["ethernets"][0]["vlans"] = {{{"name", "v"}, {"id", 10}}};
  const api::StreamSpec s =
      read_otg_config(config_with(devices, {device_flow({"e1.v4"}, {"e2.v4"}, packet)}), kDevicePorts).streams.at(0);
  EXPECT_EQ((std::tuple{s.eth_src_auto, s.eth_dst_auto}), (std::tuple{true, false}));
  EXPECT_EQ(s.eth_dst, (api::MacAddr{2, 0, 0, 0, 0, 0xfe}));
  EXPECT_EQ(s.vlan, (api::VlanSpec{20, 0}));
  EXPECT_EQ((std::tuple{s.ipv4.src, s.ipv4.dst}), (std::tuple{0xC6120001u, 0xCB007109u}));
}

TEST(OtgDeviceFlow, EndpointsLinerateCannotSendBetweenAreRefused) {
  const json v6_packet = {{{"choice", "ipv6"}, {"ipv6", json::object()}}};
  json devices = two_devices();
  devices[1]["ethernets"][0].erase("ipv6_addresses");
  const json pause = {{{"choice", "pfcpause"}, {"pfcpause", {{"pause_class_3", fixed(65535)}}}}};
  EXPECT_EQ(
      device_refusals(
          config_with(devices, {device_flow({"e1.v4", "e1.v6"}, {"e2.v4"}), device_flow(json::array(), {"e2"}),
                                device_flow({"tx"}, {"e2.v6"}), device_flow({"e1.v4"}, {"e1.v6"}),
                                device_flow({"e1.v6"}, {"e2.v4"}), device_flow({"e1.v4"}, {"e2"}, v6_packet),
                                device_flow({"e1"}, {"e2"}, v6_packet), device_flow({"e1"}, {"e2"}, pause)})),
      (std::vector<std::string>{
          "flows[0].tx_rx.device.tx_names: names 2 endpoints: linerate sends a flow between one pair (write a "
          "flow per pair)",
          "flows[1].tx_rx.device.tx_names: names no endpoint: give one ethernet, IPv4 or IPv6 address of the "
          "config's devices",
          "flows[2].tx_rx.device.tx_names[0]: 'tx' is not an ethernet, IPv4 or IPv6 address of the config's "
          "devices (nor a device of one ethernet)",
          "flows[2].tx_rx.device.rx_names[0]: 'e2.v6' is not an ethernet, IPv4 or IPv6 address of the config's "
          "devices (nor a device of one ethernet)",
          "flows[3].tx_rx.device: 'e1.v4' and 'e1.v6' are on one ethernet: a flow goes between two hosts",
          "flows[4].tx_rx.device: tx_names[0] 'e1.v6' is an IPv6 address and rx_names[0] 'e2.v4' an IPv4 one: "
          "a flow is IPv4 or IPv6",
          "flows[5].packet[0]: an ipv6 header in a flow between IPv4 addresses (its tx_rx.device names)",
          "flows[6].tx_rx.device.rx_names[0]: ethernet 'e2' has no IPv6 address (ipv6_addresses)",
          "flows[7].tx_rx.device: a MAC Control flow (pfcpause, ethernetpause) goes from a port: use tx_rx.port"}));
  json flow = device_flow({"e1"}, {"e2"});
  flow["tx_rx"]["choice"] = "router";
  EXPECT_EQ(device_refusals(config_with(two_devices(), {flow})),
            std::vector<std::string>{"flows[0].tx_rx.choice: 'router' is not port or device"});
  flow["tx_rx"]["choice"] = "device";
  flow["tx_rx"]["device"]["bidirectional"] = true;
  flow["tx_rx"]["device"]["tx_name"] = "e1";
  EXPECT_EQ(device_refusals(config_with(two_devices(), {flow})),
            (std::vector<std::string>{
                "flows[0].tx_rx.device.tx_name: not a field of a device endpoint in the OTG model (1.60.0)",
                "flows[0].tx_rx.device.bidirectional: not supported by linerate: a flow goes one way (write a flow "
                "per direction)"}));
}

TEST(OtgDevices, TheDataPlanesRefusalIsSaidAsTheConfigsEthernet) {
  const OtgDevices devices = read_otg_config(config_with(two_devices()), kDevicePorts).devices;
  EXPECT_EQ(device_load_refusal("config: key 'devices[1].ipv4': host e2[0]: 198.19.0.1 is taken", devices),
            "devices: config: key 'devices[1].ipv4': host e2[0]: 198.19.0.1 is taken (devices[1] is "
            "devices[1].ethernets[0] 'e2')");
  EXPECT_EQ(device_load_refusal("devices[0].mac and devices[1].mac: the same", devices),
            "devices: devices[0].mac and devices[1].mac: the same (devices[0] is devices[0].ethernets[0] 'e1'; "
            "devices[1] is devices[1].ethernets[0] 'e2')");
  EXPECT_EQ(device_load_refusal("devices[7].port: no such port", devices), "devices: devices[7].port: no such port");
  EXPECT_EQ(device_load_refusal("busy", devices), "devices: busy");
}

TEST(OtgDevices, AHostIsItsEthernet) {
  EXPECT_EQ(ethernet_of_host("e1[0]"), "e1");
  EXPECT_EQ(ethernet_of_host("a[b][0]"), "a[b]");
  EXPECT_EQ(ethernet_of_host("plain"), "plain");
}

}  // namespace
}  // namespace lr::otg
