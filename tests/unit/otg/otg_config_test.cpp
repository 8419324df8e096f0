// OTG configs into stream specs: each header field and pattern where it lands, 64-bit
// numbers as strings, addresses' steps; every refusal with the config's JSON path.
#include "control/otg/otg_config.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <array>
#include <tuple>

namespace lr::otg {
namespace {

using nlohmann::json;

const std::map<std::string, uint64_t> kPorts{{"p0", 10'000'000'000}, {"p1", 10'000'000'000}};

json pattern(json value) { return {{"choice", "value"}, {"value", std::move(value)}}; }

json one_flow(json packet, json extra = json::object()) {
  json flow{{"name", "f"},
            {"tx_rx", {{"choice", "port"}, {"port", {{"tx_name", "a"}, {"rx_names", {"b"}}}}}},
            {"packet", std::move(packet)}};
  flow.update(extra);
  return {{"ports", {{{"name", "a"}, {"location", "p0"}}, {{"name", "b"}, {"location", "p1"}}}}, {"flows", {flow}}};
}

std::vector<std::string> refusals(const json& config) {
  try {
    read_otg_config(config, kPorts);
  } catch (const ConfigRefused& e) {
    return e.errors();
  }
  return {};
}

TEST(OtgConfig, EveryHeaderFieldAndPatternLandsInTheStream) {
  const json packet = {
      {{"choice", "ethernet"},
       {"ethernet",
        {{"src", {{"choice", "increment"},
                  {"increment", {{"start", "00:00:00:00:01:00"}, {"step", "00:00:00:00:00:02"}, {"count", "10"}}}}},
         {"dst", pattern("02:00:00:00:00:09")}}}},
      {{"choice", "vlan"}, {"vlan", {{"id", pattern(42)}, {"priority", pattern("5")}}}},
      {{"choice", "ipv4"},
       {"ipv4", {{"src", pattern("10.1.0.1")},
                 {"dst", {{"choice", "decrement"}, {"decrement", {{"start", "10.2.0.9"}, {"step", "0.0.0.1"}, {"count", 8}}}}},
                 {"time_to_live", pattern(9)},
                 {"priority", {{"choice", "raw"}, {"raw", pattern(0xB9)}}}}}},
      {{"choice", "udp"},
       {"udp", {{"src_port", {{"choice", "random"}, {"random", {{"min", 2000}, {"max", 2099}}}}},
                {"dst_port", pattern(4000)}}}}};
  const OtgConfig config = read_otg_config(
      one_flow(packet, {{"size", {{"choice", "fixed"}, {"fixed", "256"}}},
                        {"rate", {{"choice", "gbps"}, {"gbps", 2.5}}},
                        {"duration", {{"choice", "fixed_seconds"},
                                      {"fixed_seconds", {{"seconds", 3}, {"delay", {{"choice", "microseconds"},
                                                                                  {"microseconds", 20}}}}}}}}),
      kPorts);
  ASSERT_EQ(config.streams.size(), 1u);
  const api::StreamSpec& s = config.streams[0];
  EXPECT_EQ((std::tuple{s.name, s.tx_port, *s.rx_port}), (std::tuple{std::string("f"), std::string("p0"), std::string("p1")}));
  EXPECT_EQ(s.eth_src, (api::MacAddr{0, 0, 0, 0, 1, 0}));
  EXPECT_EQ(s.eth_dst, (api::MacAddr{2, 0, 0, 0, 0, 9}));
  EXPECT_EQ(s.vlan, (api::VlanSpec{42, 5}));
  EXPECT_EQ((std::tuple{s.ipv4.src, s.ipv4.dst, s.ipv4.ttl, s.ipv4.dscp, s.ipv4.ecn}),
            (std::tuple{0x0A010001u, 0x0A020009u, uint8_t{9}, uint8_t{0xB9 >> 2}, uint8_t{1}}));
  EXPECT_EQ((std::tuple{s.udp.src, s.udp.dst}), (std::tuple{uint16_t{2000}, uint16_t{4000}}));
  EXPECT_EQ(s.vary, (std::vector<api::VarySpec>{{api::VaryField::kEthSrc, api::VaryOp::kIncrement, 10, 2, {}},
                                                {api::VaryField::kIpDst, api::VaryOp::kDecrement, 8, 1, {}},
                                                {api::VaryField::kUdpSrc, api::VaryOp::kRandom, 100, 1, {}}}));
  EXPECT_EQ(s.frame.sizes, std::vector<uint16_t>{256});
  EXPECT_EQ(s.rate, (api::Rate{api::RateKind::kL1Bps, 2.5e9}));
  EXPECT_EQ((std::tuple{s.duration_ns, s.start_after_ns}), (std::tuple{uint64_t{3'000'000'000}, uint64_t{20'000}}));
  EXPECT_EQ(config.warnings, std::vector<std::string>{});
}

TEST(OtgConfig, AnIpv6FlowWithItsTrafficClassAndAnAddressIncrement) {
  const json packet = {
      {{"choice", "ethernet"}, {"ethernet", json::object()}},
      {{"choice", "ipv6"},
       {"ipv6", {{"src", {{"choice", "increment"}, {"increment", {{"start", "2001:db8::1"}, {"step", "::100"}, {"count", 4}}}}},
                 {"dst", pattern("2001:db8::2")},
                 {"traffic_class", pattern(0xB9)},
                 {"hop_limit", pattern(7)},
                 {"flow_label", pattern(12345)}}}},
      {{"choice", "udp"}, {"udp", {{"dst_port", pattern(4791)}}}}};
  const api::StreamSpec s = read_otg_config(one_flow(packet), kPorts).streams.at(0);
  EXPECT_EQ(s.ip_version, api::IpVersion::kV6);
  EXPECT_EQ(s.ipv6.src, (api::Ipv6Addr{0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}));
  EXPECT_EQ(s.ipv6.dst[15], 2);
  EXPECT_EQ((std::tuple{s.ipv6.dscp, s.ipv6.ecn, s.ipv6.hop_limit, s.ipv6.flow_label}),
            (std::tuple{uint8_t{0xB9 >> 2}, uint8_t{1}, uint8_t{7}, 12345u}));
  EXPECT_EQ(s.vary, (std::vector<api::VarySpec>{{api::VaryField::kIpSrc, api::VaryOp::kIncrement, 4, 256, {}}}));
}

TEST(OtgConfig, PfcAndPauseHeadersMakeMacControlStreams) {
  json pfc = {{{"choice", "pfcpause"},
               {"pfcpause", {{"dst", {{"choice", "value"}, {"value", "01:80:c2:00:00:01"}}},
                             {"class_enable_vector", pattern(0x18)},
                             {"pause_class_3", pattern("65535")},
                             {"pause_class_4", pattern(1000)}}}}};
  const OtgConfig config = read_otg_config(one_flow(pfc, {{"rate", {{"choice", "pps"}, {"pps", 2000}}}}), kPorts);
  const api::StreamSpec& s = config.streams.at(0);
  EXPECT_EQ(s.kind, api::StreamKind::kPfc);
  EXPECT_EQ(s.mac_control.class_enable, 0x18);
  EXPECT_EQ(s.mac_control.quanta, (std::array<uint16_t, 8>{0, 0, 0, 65535, 1000, 0, 0, 0}));
  EXPECT_EQ(config.warnings, std::vector<std::string>{"flows[0].packet[0].pfcpause.dst: linerate's MAC Control frames go "
                                                      "to 01:80:C2:00:00:01 from the port's address with EtherType "
                                                      "0x8808; not used"});
  const json pause = {{{"choice", "ethernetpause"}, {"ethernetpause", {{"time", pattern(300)}}}}};
  const api::StreamSpec p = read_otg_config(one_flow(pause), kPorts).streams.at(0);
  EXPECT_EQ((std::tuple{p.kind, p.mac_control.quanta[0]}), (std::tuple{api::StreamKind::kPause, uint16_t{300}}));
  const json none = {{{"choice", "pfcpause"}, {"pfcpause", {{"class_enable_vector", pattern(0)}}}}};
  EXPECT_EQ(refusals(one_flow(none)),
            std::vector<std::string>{"flows[0].packet[0].pfcpause.class_enable_vector: names no priority to pause "
                                     "(bits 0-7)"});
}

json values(json list) { return {{"choice", "values"}, {"values", std::move(list)}}; }

TEST(OtgConfig, ValuesListsWeightPairsAndBurstsBecomeTheStreamsOwn) {
  const json packet = {{{"choice", "ethernet"}, {"ethernet", json::object()}},
                       {{"choice", "ipv4"}, {"ipv4", {{"dst", values({"10.0.0.1", "10.0.0.7"})}}}},
                       {{"choice", "udp"}, {"udp", {{"src_port", values({"53", 4791, 7000})}}}}};
  const json imix_bursts = {
      {"rate", {{"choice", "pps"}, {"pps", "1000000"}}},
      {"size", {{"choice", "weight_pairs"}, {"weight_pairs", {{"choice", "predefined"}, {"predefined", "imix"}}}}},
      {"duration",
       {{"choice", "burst"},
        {"burst", {{"packets", 100}, {"bursts", 5}, {"gap", 12},
                   {"inter_burst_gap", {{"choice", "nanoseconds"}, {"nanoseconds", 1000}}}}}}}};
  const OtgConfig config = read_otg_config(one_flow(packet, imix_bursts), kPorts);
  const api::StreamSpec& s = config.streams.at(0);
  EXPECT_EQ((std::tuple{s.ipv4.dst, s.udp.src}), (std::tuple{0x0A000001u, uint16_t{53}}));
  EXPECT_EQ(s.vary, (std::vector<api::VarySpec>{{api::VaryField::kIpDst, api::VaryOp::kList, 2, 1, {0x0A000001, 0x0A000007}},
                                                {api::VaryField::kUdpSrc, api::VaryOp::kList, 3, 1, {53, 4791, 7000}}}));
  EXPECT_EQ((std::tuple{s.frame.kind, s.frame.sizes, s.frame.weights}),
            (std::tuple{api::FrameSizeKind::kImix, std::vector<uint16_t>{64, 570, 1518}, std::vector<uint32_t>{700, 400, 100}}));
  // 100 frames at 1 Mpps take 100 us, then 1 us of gap: a burst every 101 us, 5 of them.
  EXPECT_EQ(s.burst, (api::BurstSpec{100, 101'000}));
  EXPECT_EQ(s.count, 500u);
  EXPECT_EQ(config.warnings, std::vector<std::string>{"flows[0].size.weight_pairs: linerate sends the mix in a fixed "
                                                      "order that repeats, each size in its exact share, not drawn at "
                                                      "random"});
  // Custom pairs; a gap in bytes at the port's 10 Gbit/s; a share of the line as the rate.
  const json custom = {
      {"rate", {{"choice", "percentage"}, {"percentage", 50}}},
      {"size", {{"choice", "weight_pairs"},
                {"weight_pairs", {{"choice", "custom"}, {"custom", {{{"size", 128}, {"weight", 2.5}}, {{"size", 1024}, {"weight", 1}}}}}}}},
      {"duration", {{"choice", "burst"},
                    {"burst", {{"packets", 10}, {"bursts", 0}, {"inter_burst_gap", {{"choice", "bytes"}, {"bytes", 1250}}}}}}}};
  const api::StreamSpec c = read_otg_config(one_flow(json::array(), custom), kPorts).streams.at(0);
  EXPECT_EQ((std::tuple{c.frame.sizes, c.frame.weights}),
            (std::tuple{std::vector<uint16_t>{128, 1024}, std::vector<uint32_t>{250, 100}}));
  // The mean frame (2.5 x 128 + 1024) / 3.5 = 384 bytes, 404 with preamble and gap: 5 Gbit/s
  // is 1,547,029.7 frames/s; 10 of them 6,464 ns, then 1,250 bytes are 1,000 ns.
  EXPECT_EQ(c.burst, (api::BurstSpec{10, 7'464}));
  EXPECT_EQ(c.count, 0u);
  const json lists = {{{"choice", "ethernet"}, {"ethernet", {{"dst", values(json::array())}}}}};
  EXPECT_EQ(refusals(one_flow(lists)), std::vector<std::string>{"flows[0].packet[0].ethernet.dst.values: names no value"});
  const json bad_port = {{{"choice", "udp"}, {"udp", {{"src_port", values({53, "x"})}}}}};
  EXPECT_EQ(refusals(one_flow(bad_port)),
            std::vector<std::string>{"flows[0].packet[0].udp.src_port.values[1]: expected a whole number, found \"x\""});
}

TEST(OtgConfig, ATcpHeaderBecomesTheStreamsStatelessSegment) {
  const json packet = {{{"choice", "ethernet"}, {"ethernet", json::object()}},
                       {{"choice", "ipv4"}, {"ipv4", json::object()}},
                       {{"choice", "tcp"},
                        {"tcp", {{"src_port", {{"choice", "increment"}, {"increment", {{"start", 1000}, {"step", 2}, {"count", 8}}}}},
                                 {"dst_port", pattern(443)}, {"seq_num", pattern("4000000000")}, {"ack_num", pattern(7)},
                                 {"data_offset", pattern(5)}, {"ctl_syn", pattern(1)}, {"ctl_ack", pattern(1)},
                                 {"ctl_fin", pattern(0)}, {"ecn_cwr", pattern(1)}, {"window", pattern(1024)},
                                 {"ecn_ns", pattern(1)}}}}};
  const OtgConfig config = read_otg_config(one_flow(packet, {{"size", {{"choice", "fixed"}, {"fixed", 128}}}}), kPorts);
  const api::StreamSpec& s = config.streams.at(0);
  ASSERT_TRUE(s.tcp.has_value());
  EXPECT_EQ(*s.tcp, (api::TcpSpec{1000, 443, 4000000000u, 7, 0x02 | 0x10 | 0x80, 1024}));
  EXPECT_EQ(s.vary, (std::vector<api::VarySpec>{{api::VaryField::kUdpSrc, api::VaryOp::kIncrement, 8, 2, {}}}));
  EXPECT_EQ(config.warnings, std::vector<std::string>{"flows[0].packet[2].tcp.ecn_ns: not set (linerate writes the 8 "
                                                      "flags from CWR to FIN)"});
}

TEST(OtgConfig, Layer1FlowControlBecomesEachPortsSettingAndTheRestWarns) {
  json config = one_flow(json::array());
  json qbb = {{"pfc_delay", 0}};
  for (int c = 0; c < 8; ++c) qbb[fmt::format("pfc_class_{}", c)] = c == 2 ? json() : json(c);
  config["layer1"] = {{{"name", "l1"}, {"port_names", {"a", "b"}}, {"speed", "speed_40_gbps"}, {"mtu", 1500},
                       {"flow_control", {{"choice", "ieee_802_1qbb"}, {"ieee_802_1qbb", qbb}}}},
                      {{"name", "l2"}, {"port_names", {"b"}}, {"speed", "speed_10_gbps"}, {"mtu", 9000},
                       {"flow_control", {{"choice", "ieee_802_3x"}, {"ieee_802_3x", json::object()}}}}};
  const OtgConfig read = read_otg_config(config, kPorts);
  ASSERT_EQ(read.flow_control.size(), 3u);
  EXPECT_EQ((std::tuple{read.flow_control[0].port, read.flow_control[0].pfc_priorities, read.flow_control[0].pause}),
            (std::tuple{std::string("p0"), std::vector<unsigned>{0, 1, 3, 4, 5, 6, 7}, false}));
  EXPECT_EQ(read.flow_control[1].port, "p1");
  EXPECT_EQ((std::tuple{read.flow_control[2].port, read.flow_control[2].path, read.flow_control[2].pause}),
            (std::tuple{std::string("p1"), std::string("layer1[1].flow_control"), true}));
  EXPECT_EQ(read.warnings,
            (std::vector<std::string>{
                "layer1[0].speed: not applied: p0 runs at 10 Gbit/s as the data plane set it up (linerate does not "
                "change a port's speed)",
                "layer1[0].speed: not applied: p1 runs at 10 Gbit/s as the data plane set it up (linerate does not "
                "change a port's speed)",
                "layer1[1].mtu: not applied: the port keeps its MTU (the profile's mtu)"}));
  config["layer1"][1]["port_names"] = {"q"};
  EXPECT_EQ(refusals(config), std::vector<std::string>{"layer1[1].port_names[0]: \"q\" is not one of the config's ports"});
}

// Fields linerate does not read are checked, not ignored: what its frames carry anyway is
// taken, a computed field's value is taken with a warning, anything else is refused.
// Found by the otg_request fuzz target: a layer1 speed on a port whose location the data
// plane lacks threw std::out_of_range (which ended `otg serve`); it is the location's refusal.
TEST(OtgConfig, Layer1SpeedOnAPortTheDataPlaneLacksIsTheLocationsRefusal) {
  json config = one_flow(json::array());
  config["ports"][0]["location"] = "p5";
  config["layer1"] = {{{"name", "l1"}, {"port_names", {"a", "b"}}, {"speed", "speed_100_gbps"}}};
  EXPECT_EQ(refusals(config),
            std::vector<std::string>{"ports[0].location: 'p5' is not a port of the data plane (it has "
                                     "p0, p1)"});
}

TEST(OtgConfig, FieldsLinerateDoesNotReadAreCheckedNotIgnored) {
  const json fine = {{{"choice", "ethernet"}, {"ethernet", {{"ether_type", {{"choice", "auto"}}}}}},
                     {{"choice", "ipv4"}, {"ipv4", {{"version", pattern(4)}, {"protocol", pattern(17)},
                                                    {"dont_fragment", pattern(1)}, {"total_length", pattern(100)},
                                                    {"header_checksum", {{"choice", "generated"}}}}}},
                     {{"choice", "udp"}, {"udp", {{"length", {{"choice", "value"}, {"value", 8}}}}}}};
  json config = one_flow(fine);
  config["options"] = {{"port_options", {{"location_preemption", true}}}};
  EXPECT_EQ(read_otg_config(config, kPorts).warnings,
            (std::vector<std::string>{"flows[0].packet[1].ipv4.total_length: linerate writes the frame's own length",
                                      "flows[0].packet[2].udp.length: linerate writes the datagram's own length"}));
  const json wrong = {{{"choice", "ethernet"}, {"ethernet", {{"dts", pattern("00:00:00:00:00:01")}}}},
                      {{"choice", "ipv4"}, {"ipv4", {{"identification", pattern(7)}, {"protocol", pattern(6)},
                                                     {"dont_fragment", pattern(0)}}}},
                      {{"choice", "udp"}, {"udp", {{"checksum", {{"choice", "custom"}, {"custom", 0}}}}}}};
  json bad = one_flow(wrong, {{"payload", {{"choice", "fixed"}}}});
  bad["flowz"] = json::array({1});
  EXPECT_EQ(refusals(bad),
            (std::vector<std::string>{
                "flowz: not a field of a config in the OTG model (1.60.0)",
                "flows[0].payload: not supported by linerate (its payload is zeros and its signature)",
                "flows[0].packet[0].ethernet.dts: not a field of ethernet in the OTG model (1.60.0)",
                "flows[0].packet[1].ipv4.dont_fragment: linerate's frames carry DF set (benchmark frames are never "
                "fragmented): other values are not supported",
                "flows[0].packet[1].ipv4.identification: linerate's frames carry identification 0: other values are not "
                "supported",
                "flows[0].packet[1].ipv4.protocol: linerate's frames carry the protocol of its L4 header: other values "
                "are not supported",
                "flows[0].packet[2].udp.checksum: linerate's frames carry the right checksum: other values are not "
                "supported"}));
}

TEST(OtgConfig, RefusalsNameTheirPath) {
  json packet = {{{"choice", "ethernet"}, {"ethernet", json::object()}},
                 {{"choice", "gre"}, {"gre", json::object()}},
                 {{"choice", "ipv4"}, {"ipv4", {{"time_to_live", {{"choice", "values"}, {"values", {1, 2}}}}}}},
                 {{"choice", "udp"}, {"udp", {{"dst_port", pattern(-3)}}}}};
  json config = one_flow(packet, {{"rate", {{"choice", "line"}}}, {"duration", {{"choice", "forever"}}}});
  config["flows"][0]["tx_rx"]["port"]["tx_name"] = "z";
  config["lags"] = {{{"name", "l"}}};
  EXPECT_EQ(refusals(config),
            (std::vector<std::string>{
                "lags: not supported by linerate: it runs no protocols (LACP)",
                "flows[0].tx_rx.port.tx_name: \"z\" is not one of the config's ports",
                "flows[0].packet[1]: gre is not supported by linerate",
                "flows[0].packet[2].ipv4.time_to_live.values: a list of values is not supported on this field by "
                "linerate",
                "flows[0].packet[3].udp.dst_port: expected a whole number, found -3",
                "flows[0].rate: 'line' is not a rate linerate knows",
                "flows[0].duration: 'forever' is not a duration linerate knows"}));
  EXPECT_EQ(refusals(one_flow(json::array(), {{"size", {{"choice", "fixed"}, {"fixed", 70000}}}})),
            std::vector<std::string>{"flows[0]: 70000 is out of range [1, 9600] (as linerate's streams[0].frame_size)"});
}

}  // namespace
}  // namespace lr::otg
