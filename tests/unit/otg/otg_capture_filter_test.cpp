// OTG capture filters as libpcap expressions: the text for each header's fields, and what
// the expression matches, compiled by libpcap and run on frames built here (a VLAN-tagged
// IPv4 frame and an untagged IPv6 one), masks and negate included; refusals at their path.
#include "control/otg/otg_capture_filter.hpp"

#include <gtest/gtest.h>
#include <pcap/pcap.h>

#include <array>
#include <cstdint>
#include <vector>

namespace lr::otg {
namespace {

using nlohmann::json;

json field(const char* value, const char* mask = "00", bool negate = false) {
  return {{"value", value}, {"mask", mask}, {"negate", negate}};
}

// Whether libpcap's compiled `expression` accepts `frame`.
bool matches(const std::string& expression, const std::vector<uint8_t>& frame) {
  pcap_t* dead = pcap_open_dead(DLT_EN10MB, 65535);
  bpf_program program{};
  EXPECT_EQ(pcap_compile(dead, &program, expression.c_str(), 1, PCAP_NETMASK_UNKNOWN), 0)
      << expression << ": " << pcap_geterr(dead);
  pcap_pkthdr header{};
  header.caplen = header.len = static_cast<bpf_u_int32>(frame.size());
  const bool accepted = pcap_offline_filter(&program, &header, frame.data()) != 0;
  pcap_freecode(&program);
  pcap_close(dead);
  return accepted;
}

// 02:00:00:00:00:02 <- 02:00:00:00:00:01, 802.1Q PCP 3 VLAN 100, IPv4 10.0.0.1 -> 10.0.0.9, TTL 64, UDP.
std::vector<uint8_t> tagged_ipv4() {
  std::vector<uint8_t> f{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x81, 0x00, 0x60, 0x64, 0x08, 0x00,
                         0x45, 0x00, 0x00, 0x2e, 0, 0, 0x40, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 9};
  f.resize(64, 0);
  return f;
}

std::vector<uint8_t> ipv6() {
  std::vector<uint8_t> f{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x86, 0xdd, 0x6b, 0x80, 0x00, 0x00, 0, 8, 17, 7};
  const std::array<uint8_t, 16> src{0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  f.insert(f.end(), src.begin(), src.end());
  f.insert(f.end(), src.begin(), src.end());
  f[53] = 2;  // destination ::2
  f.resize(80, 0);
  return f;
}

TEST(OtgCaptureFilter, FieldsBecomeByteComparisons) {
  EXPECT_EQ(capture_filter_expression(json::array(), "f"), "");
  const json ethernet = {{{"choice", "ethernet"}, {"ethernet", {{"dst", field("020000000002")}}}}};
  EXPECT_EQ(capture_filter_expression(ethernet, "f"),
            "(ether[0] = 0x02 and ether[1] = 0x00 and ether[2] = 0x00 and ether[3] = 0x00 and ether[4] = 0x00 and "
            "ether[5] = 0x02)");
  // VLAN 100 after an Ethernet filter: the id's 12 bits across the TCI's two bytes.
  const json vlan = {{{"choice", "ethernet"}, {"ethernet", json::object()}},
                     {{"choice", "vlan"}, {"vlan", {{"id", field("064")}}}}};
  EXPECT_EQ(capture_filter_expression(vlan, "f"), "(ether[14] & 0x0f = 0x00 and ether[15] = 0x64)");
}

TEST(OtgCaptureFilter, LibpcapMatchesWhatTheFiltersSay) {
  const std::vector<uint8_t> v4 = tagged_ipv4();
  const std::vector<uint8_t> v6 = ipv6();
  const auto filter = [](json list) { return capture_filter_expression(list, "f"); };
  const json eth_vlan_ip = {{{"choice", "ethernet"}, {"ethernet", {{"src", field("020000000001")}}}},
                            {{"choice", "vlan"}, {"vlan", {{"priority", field("3")}, {"id", field("64")}, {"protocol", field("0800")}}}},
                            {{"choice", "ipv4"}, {"ipv4", {{"dst", field("0a000009")}, {"time_to_live", field("40")}}}}};
  EXPECT_TRUE(matches(filter(eth_vlan_ip), v4));
  EXPECT_FALSE(matches(filter(eth_vlan_ip), v6));
  // A mask's set bits do not matter: 10.0.0.0/24 matches .9; without the mask .8 does not.
  const json subnet = {{{"choice", "ethernet"}, {"ethernet", json::object()}},
                       {{"choice", "vlan"}, {"vlan", json::object()}},
                       {{"choice", "ipv4"}, {"ipv4", {{"dst", field("0a000008", "000000ff")}}}}};
  EXPECT_TRUE(matches(filter(subnet), v4));
  const json exact = {{{"choice", "ethernet"}, {"ethernet", json::object()}},
                      {{"choice", "vlan"}, {"vlan", json::object()}},
                      {{"choice", "ipv4"}, {"ipv4", {{"dst", field("0a000008")}}}}};
  EXPECT_FALSE(matches(filter(exact), v4));
  // negate: every frame but VLAN 100.
  const json not_100 = {{{"choice", "vlan"}, {"vlan", {{"id", field("64", "00", true)}}}}};
  EXPECT_FALSE(matches(filter(not_100), v4));
  // IPv6 after an untagged Ethernet header: traffic class 0xb8 (DSCP 46), destination ::2.
  const json v6_filter = {{{"choice", "ipv6"}, {"ipv6", {{"traffic_class", field("b8")}, {"dst", field("20010db8000000000000000000000002")}}}}};
  EXPECT_TRUE(matches(filter(v6_filter), v6));
  EXPECT_FALSE(matches(filter(v6_filter), v4));
  // A custom field: 16 bits at bit 96 from the frame's start, the 802.1Q type.
  const json custom = {{{"choice", "custom"}, {"custom", {{"offset", 96}, {"bit_length", 16}, {"value", "8100"}, {"mask", "00"}}}}};
  EXPECT_TRUE(matches(filter(custom), v4));
  EXPECT_FALSE(matches(filter(custom), v6));
}

TEST(OtgCaptureFilter, RefusalsNameTheirPath) {
  const auto refusal = [](json list) {
    try {
      capture_filter_expression(list, "captures[0].filters");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(refusal({{{"choice", "ipv4"}, {"ipv4", {{"dst", field("1a0000090")}}}}}),
            "captures[0].filters[0].ipv4.dst.value: wider than the field's 32 bits");
  EXPECT_EQ(refusal({{{"choice", "ethernet"}, {"ethernet", {{"pfc_queue", field("1")}}}}}),
            "captures[0].filters[0].ethernet.pfc_queue: not a field linerate filters on");
  EXPECT_EQ(refusal({{{"choice", "ethernet"}, {"ethernet", {{"src", field("zz")}}}}}),
            "captures[0].filters[0].ethernet.src.value: 'zz' is not hex");
  EXPECT_EQ(refusal({{{"choice", "tcp"}, {"tcp", json::object()}}}),
            "captures[0].filters[0]: a tcp filter is not supported by linerate");
  // Found by the otg_request fuzz target: numbers out of unsigned's range were converted
  // by nlohmann's value() (undefined behaviour); they are refused with their path.
  const auto custom = [](json offset, json bit_length) {
    return json{{{"choice", "custom"}, {"custom", {{"offset", offset}, {"bit_length", bit_length}, {"value", "1"}}}}};
  };
  EXPECT_EQ(refusal(custom(1e30, 8)), "captures[0].filters[0].custom.offset: expected 0-131072 bits");
  EXPECT_EQ(refusal(custom(-1, 8)), "captures[0].filters[0].custom.offset: expected 0-131072 bits");
  EXPECT_EQ(refusal(custom(0, 4294967296.0)), "captures[0].filters[0].custom.bit_length: expected 1-128 bits");
  EXPECT_EQ(refusal(custom("8", "4")), "(accepted)");  // snappi's 64-bit numbers as strings
}

}  // namespace
}  // namespace lr::otg
