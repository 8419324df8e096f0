// Profiles: what is read, and the exact error (file, line, column, key, reason) for
// what is refused.

#include "lib/profile/load_toml.hpp"
#include "lib/profile/quantity.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <tuple>
#include <map>

#include <string>

namespace lr::profile {
namespace {

using api::FrameSizeKind;
using api::RangeOrder;
using api::RateKind;
using api::StreamSpec;
using api::VaryField;
using api::VaryOp;

constexpr const char* kMinimal = R"(
[[port]]
name = "p0"
device = "net_ring0"
)";

Profile load(const std::string& text) { return load_profile_text(text, "test.toml"); }

// Loads `text` and returns the ConfigError message ("" if it loaded).
std::string error_of(const std::string& text) {
  try {
    load(text);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "";
}

TEST(LoadToml, MinimalProfileTakesDefaults) {
  const Profile p = load(kMinimal);
  ASSERT_EQ(p.ports.size(), 1u);
  EXPECT_EQ(p.ports[0].device, "net_ring0");
  EXPECT_EQ(p.ports[0].rx_queues, 1);
  EXPECT_EQ(p.eal.lcores, "0-1");
  EXPECT_EQ(p.run.drain_ns, 500'000'000u);
  EXPECT_TRUE(p.streams.empty());
}

TEST(LoadToml, ReadsTheIssueExampleStream) {
  const Profile p = load(std::string(kMinimal) + R"(
[[stream]]
name = "s1"
tx_port = "p0"
rx_port = "p0"
frame_size = 64
rate = "10%"
duration = "5s"
vlan = { id = 100, pcp = 3 }
ipv4 = { src = "198.18.0.1", dst = "198.19.0.1", dscp = 26 }
udp = { src = 1024, dst = 4791 }
)");
  ASSERT_EQ(p.streams.size(), 1u);
  const StreamSpec& s = p.streams[0];
  EXPECT_EQ(s.rate.kind, RateKind::kPercentOfLine);
  EXPECT_EQ(s.rate.value, 10.0);
  EXPECT_EQ(s.duration_ns, 5'000'000'000u);
  ASSERT_TRUE(s.vlan.has_value());
  EXPECT_EQ(s.vlan->id, 100);
  EXPECT_EQ(s.vlan->pcp, 3);
  EXPECT_EQ(s.ipv4.src, 0xC6120001u);
  EXPECT_EQ(s.ipv4.dscp, 26);
  EXPECT_EQ(s.udp.dst, 4791);
  EXPECT_EQ(header_bytes(s), 46);
}

TEST(LoadToml, ReadsImixRangeBurstAndVary) {
  const Profile p = load(std::string(kMinimal) + R"(
[[stream]]
name = "imix"
tx_port = "p0"
frame_size = [64, 594, 1518]
frame_weights = [7, 4, 1]
rate = "5Gbps-l2"
count = 1000
burst = { packets = 32, interval = "1ms" }
vary = [ { field = "ipv4.src", op = "random", count = 256 }, { field = "udp.dst", count = 10, step = 2 } ]

[[stream]]
name = "range"
tx_port = "p0"
frame_size = { min = 64, max = 128, order = "increment" }
rate = "1.5Mpps"
)");
  const StreamSpec& imix = p.streams[0];
  EXPECT_EQ(imix.frame.kind, FrameSizeKind::kImix);
  EXPECT_EQ(imix.frame.weights, (std::vector<uint32_t>{7, 4, 1}));
  EXPECT_NEAR(imix.frame.mean(), (64.0 * 7 + 594 * 4 + 1518) / 12, 1e-9);
  EXPECT_EQ(imix.rate.kind, RateKind::kL2Bps);
  EXPECT_EQ(imix.rate.value, 5e9);
  ASSERT_TRUE(imix.burst.has_value());
  EXPECT_EQ(imix.burst->interval_ns, 1'000'000u);
  ASSERT_EQ(imix.vary.size(), 2u);
  EXPECT_EQ(imix.vary[0].op, VaryOp::kRandom);
  EXPECT_EQ(imix.vary[1].step, 2u);
  EXPECT_FALSE(imix.rx_port.has_value());
  const StreamSpec& range = p.streams[1];
  EXPECT_EQ(range.frame.kind, FrameSizeKind::kRange);
  EXPECT_EQ(range.frame.order, RangeOrder::kIncrement);
  EXPECT_EQ(range.rate.kind, RateKind::kPps);
  EXPECT_EQ(range.rate.value, 1.5e6);
}

TEST(LoadToml, BadRateNamesFileLineKeyAndFix) {
  const std::string text = std::string(kMinimal) + "\n[[stream]]\nname = \"s\"\ntx_port = \"p0\"\nrate = \"10x\"\n";
  EXPECT_EQ(error_of(text),
            "test.toml:9:8: key 'stream[0].rate': '10x' is not a rate: write '10%' (of line rate), '1.5Mpps', "
            "'5Gbps' (L1), '5Gbps-l2' or 'max'");
}

TEST(LoadToml, SyntaxErrorNamesLine) {
  EXPECT_EQ(error_of("[[port]]\nname = \"p0\ndevice = 1\n"),
            "test.toml:2:11: Error while parsing string: unescaped control characters other than TAB (U+0009) are "
            "explicitly prohibited");
}

TEST(LoadToml, UnknownKeyIsRefused) {
  EXPECT_EQ(error_of("[[port]]\nname = \"p0\"\ndevice = \"net_ring0\"\nrx_queue = 2\n"),
            "test.toml:4:1: key 'port[0].rx_queue': unknown key: did you mean 'rx_queues'? (see config/README.md for "
            "the schema)");
  // The key's own column (not its value's), and no guess when no key is two edits away.
  EXPECT_EQ(error_of("[[port]]\nname = \"p0\"\ndevice = \"net_ring0\"\n  colour = 2\n"),
            "test.toml:4:3: key 'port[0].colour': unknown key (see config/README.md for the schema)");
  EXPECT_EQ(error_of(std::string(kMinimal) + "[[stream]]\nname = \"s\"\ntx_port = \"p0\"\nframe_sise = 64\n"),
            "test.toml:8:1: key 'stream[0].frame_sise': unknown key: did you mean 'frame_size'? (see "
            "config/README.md for the schema)");
}

TEST(LoadToml, WrongTypeIsRefused) {
  EXPECT_EQ(error_of("[[port]]\nname = \"p0\"\ndevice = \"net_ring0\"\nrx_queues = \"2\"\n"),
            "test.toml:4:13: key 'port[0].rx_queues': expected an integer, found a string");
}

TEST(LoadToml, OutOfRangeIsRefused) {
  const std::string text = std::string(kMinimal) +
                           "[[stream]]\nname = \"s\"\ntx_port = \"p0\"\nvlan = { id = 4096 }\n";
  EXPECT_EQ(error_of(text), "test.toml:8:15: key 'stream[0].vlan.id': 4096 is out of range [0, 4095]");
}

TEST(LoadToml, FrameTooSmallForHeadersAndSignatureIsRefused) {
  const std::string text = std::string(kMinimal) +
                           "[[stream]]\nname = \"v6\"\ntx_port = \"p0\"\nframe_size = 64\n"
                           "vlan = { id = 1 }\nipv6 = { src = \"2001:db8::1\" }\n";
  EXPECT_EQ(error_of(text),
            "test.toml:8:14: key 'stream[0].frame_size': stream 'v6': a 64-byte frame cannot hold its 66 bytes of "
            "headers, the 14-byte signature and the FCS; the smallest frame for this stream is 84 bytes");
}

TEST(LoadToml, SixtyFourBytesFitVlanIpv4UdpAndSignature) {
  const Profile p = load(std::string(kMinimal) + "[[stream]]\nname = \"s\"\ntx_port = \"p0\"\nframe_size = 64\n"
                                                 "vlan = { id = 1 }\n");
  EXPECT_EQ(min_frame_bytes(p.streams[0]), 64);
}

TEST(LoadToml, UnknownPortIsRefused) {
  const std::string text = std::string(kMinimal) + "[[stream]]\nname = \"s\"\ntx_port = \"p9\"\n";
  EXPECT_EQ(error_of(text), "test.toml:7:11: key 'stream[0].tx_port': stream 's': no [[port]] is named 'p9'");
}

TEST(LoadToml, CountAndDurationTogetherAreRefused) {
  const std::string text = std::string(kMinimal) + "[[stream]]\nname = \"s\"\ntx_port = \"p0\"\ncount = 5\nduration = \"1s\"\n";
  EXPECT_EQ(error_of(text), "test.toml:9:12: key 'stream[0].duration': give count or duration, not both");
}

// A port of another data plane (linerate run over several): ENGINE;PORT, never beside a device.
TEST(LoadToml, ALocationIsEngineAndPort) {
  const Profile p = load("[[port]]\nname = \"west\"\nlocation = \"10.0.0.2:7300;p0\"\n");
  EXPECT_EQ((std::tuple{p.ports[0].location, p.ports[0].device}),
            (std::tuple{std::string("10.0.0.2:7300;p0"), std::string()}));
  for (const char* bad : {"10.0.0.2:7300", ";p0", "10.0.0.2:7300;", "a;b;c"})
    EXPECT_EQ(
        error_of(std::string("[[port]]\nname = \"west\"\nlocation = \"") + bad + "\"\n"),
        "test.toml:3:12: key 'port[0].location': write ENGINE;PORT: the data plane's HOST:PORT (linerate-dataplane "
        "--listen) and its port's name, e.g. \"10.0.0.2:7300;p0\"")
        << bad;
  EXPECT_EQ(error_of("[[port]]\nname = \"west\"\nlocation = \"h:1;p0\"\ndevice = \"net_null0\"\n"),
            "test.toml:4:10: key 'port[0].device': give device (a port of this host) or location (another data "
            "plane's), not both");
}

// A stream another data plane sends: received here only, its lanes its sender's.
TEST(LoadToml, AReceiveOnlyStreamNeedsItsRxPortAndGivenAddresses) {
  const std::string head = std::string(kMinimal) + "[[stream]]\nname = \"s\"\ntx_port = \"p0\"\nreceive_only = true\n";
  const Profile p = load(head + "rx_port = \"p0\"\nlanes = 4\n");
  EXPECT_TRUE(p.streams[0].receive_only);
  EXPECT_EQ(p.streams[0].lanes, 4);  // beyond p0's one TX queue: the sender's lanes
  EXPECT_EQ(error_of(head),
            "test.toml:8:16: key 'stream[0].receive_only': a stream this data plane only receives "
            "needs its rx_port");
  EXPECT_EQ(error_of(head + "rx_port = \"p0\"\neth = { src = \"auto\" }\n"),
            "test.toml:8:16: key 'stream[0].receive_only': a stream this data plane only receives resolves no "
            "addresses: give eth.src and eth.dst, not \"auto\"");
}

// Another clock's stamps put on ours: only for a stream another data plane sends.
TEST(LoadToml, ALatencyShiftIsForAReceiveOnlyStream) {
  const std::string head = std::string(kMinimal) + "[[stream]]\nname = \"s\"\ntx_port = \"p0\"\nrx_port = \"p0\"\n";
  const Profile p = load(head + "receive_only = true\nlatency_shift_ns = -85842\n");
  EXPECT_EQ(p.streams[0].latency_shift_ns, -85842);
  EXPECT_FALSE(load(head + "receive_only = true\n").streams[0].latency_shift_ns);
  EXPECT_EQ(error_of(head + "latency_shift_ns = 12\n"),
            "test.toml:9:20: key 'stream[0].latency_shift_ns': only a stream this data plane only receives "
            "(receive_only) is stamped by another clock");
}

TEST(LoadToml, LanesBeyondQueuesAreRefused) {
  const std::string text = std::string(kMinimal) + "[[stream]]\nname = \"s\"\ntx_port = \"p0\"\nlanes = 2\n";
  EXPECT_EQ(error_of(text),
            "test.toml:8:9: key 'stream[0].lanes': stream 's' wants 2 lanes but port 'p0' has tx_queues = 1");
}

TEST(LoadToml, BadAddressesAreRefused) {
  const std::string base = std::string(kMinimal) + "[[stream]]\nname = \"s\"\ntx_port = \"p0\"\n";
  EXPECT_EQ(error_of(base + "ipv4 = { src = \"198.18.0.256\" }\n"),
            "test.toml:8:16: key 'stream[0].ipv4.src': '198.18.0.256' is not an IPv4 address");
  EXPECT_EQ(error_of(base + "eth = { dst = \"02:00:00:00:00\" }\n"),
            "test.toml:8:15: key 'stream[0].eth.dst': '02:00:00:00:00' is not a MAC address: write e.g. "
            "'02:00:00:00:00:01', or 'auto' (an emulated host's)");
}

TEST(LoadToml, VaryOnAbsentVlanIsRefused) {
  const std::string text = std::string(kMinimal) +
                           "[[stream]]\nname = \"s\"\ntx_port = \"p0\"\nvary = [ { field = \"vlan.id\", count = 4 } ]\n";
  EXPECT_EQ(error_of(text), "test.toml:8:20: key 'stream[0].vary.field': vlan.id varies but the stream has no vlan table");
}

TEST(LoadToml, FieldVaryingTwiceIsRefusedAtTheSecondEntry) {
  const std::string text = std::string(kMinimal) +
                           "[[stream]]\nname = \"s\"\ntx_port = \"p0\"\n"
                           "vary = [ { field = \"udp.src\", count = 4 }, { field = \"udp.src\", op = \"random\" } ]\n";
  EXPECT_EQ(error_of(text), "test.toml:8:54: key 'stream[0].vary.field': this field already varies in an earlier entry of "
                            "this stream");
}

TEST(LoadToml, ReadsAListOfValuesAndRefusesBadOnes) {
  const std::string base = std::string(kMinimal) + "[[stream]]\nname = \"s\"\ntx_port = \"p0\"\nframe_size = 128\n";
  const Profile p = load(base + "ipv6 = { src = \"2001:db8::1\" }\n"
                                               "vary = [ { field = \"ipv6.src\", values = [\"2001:db8::9\", \"2001:db8::1:2\"] },\n"
                                               "         { field = \"eth.dst\", values = [\"02:00:00:00:00:0a\"] },\n"
                                               "         { field = \"udp.dst\", op = \"list\", values = [7, 65535] } ]\n");
  const std::vector<api::VarySpec>& vary = p.streams.at(0).vary;
  EXPECT_EQ(vary, (std::vector<api::VarySpec>{{VaryField::kIpSrc, VaryOp::kList, 2, 1, {9, 0x10002}},
                                              {VaryField::kEthDst, VaryOp::kList, 1, 1, {0x02000000000A}},
                                              {VaryField::kUdpDst, VaryOp::kList, 2, 1, {7, 65535}}}));
  EXPECT_EQ(error_of(base + "vary = [ { field = \"udp.src\", values = [1, 65536] } ]\n"),
            "test.toml:9:44: key 'stream[0].vary.values': 65536 is out of range [0, 65535]");
  EXPECT_EQ(error_of(base + "vary = [ { field = \"udp.src\", values = [] } ]\n"),
            "test.toml:9:40: key 'stream[0].vary.values': expected a list of 1 to 65536 values");
  EXPECT_EQ(error_of(base + "vary = [ { field = \"udp.src\", values = [1], count = 2 } ]\n"),
            "test.toml:9:53: key 'stream[0].vary.count': a list of values has no count or step");
  EXPECT_EQ(error_of(base + "vary = [ { field = \"udp.src\", op = \"random\", values = [1] } ]\n"),
            "test.toml:9:55: key 'stream[0].vary.values': values are a list's (op = \"list\"), not random's");
  EXPECT_EQ(error_of(base + "vary = [ { field = \"ipv4.dst\", values = [\"10.0.0.1\", 3] } ]\n"),
            "test.toml:9:54: key 'stream[0].vary.values': expected addresses as strings, found an integer");
  EXPECT_EQ(error_of(base + "ipv6 = {}\nvary = [ { field = \"ipv6.dst\", values = [\"2001:db9::2\"] } ]\n"),
            "test.toml:10:42: key 'stream[0].vary.values': '2001:db9::2' differs from the header's address above its low "
            "32 bits");
}

TEST(LoadToml, ReadsATcpHeaderAndRefusesItBesideUdpOrRoce) {
  const std::string base = std::string(kMinimal) + "[[stream]]\nname = \"s\"\ntx_port = \"p0\"\nframe_size = 128\n";
  const Profile p = load(base + "tcp = { src = 5, dst = 80, seq = 4294967295, flags = [\"syn\", \"ece\"], window = 0 }\n"
                                "vary = [ { field = \"tcp.dst\", count = 3 } ]\n");
  EXPECT_EQ(p.streams.at(0).tcp, (api::TcpSpec{5, 80, 4294967295u, 0, 0x42, 0}));
  EXPECT_EQ(p.streams.at(0).vary.at(0).field, VaryField::kUdpDst);
  EXPECT_EQ(error_of(base + "tcp = { flags = [\"ack\", \"nope\"] }\n"),
            "test.toml:9:25: key 'stream[0].tcp.flags': 'nope' is not a TCP flag (fin, syn, rst, psh, ack, urg, ece, cwr)");
  EXPECT_EQ(error_of(base + "tcp = {}\nudp = { src = 1 }\n"),
            "test.toml:9:7: key 'stream[0].tcp': a stream's L4 header is TCP or UDP: give tcp or udp, not both");
  EXPECT_EQ(error_of(base + "tcp = {}\nvary = [ { field = \"udp.src\" } ]\n"),
            "test.toml:10:20: key 'stream[0].vary.field': 'udp.src' cannot vary; use eth.src, eth.dst, vlan.id, ipv4.src, "
            "ipv4.dst, tcp.src or tcp.dst");
}

TEST(LoadToml, NoPortIsRefused) {
  EXPECT_EQ(error_of("[eal]\nlcores = \"0-1\"\n"), "test.toml:1:1: key 'port': the profile has no [[port]] (nor a [[switch]] to run alone)");
}

TEST(LoadToml, ARateAboveLineRateSaysSo) {
  EXPECT_EQ(rate_refusal("110%"), "'110%' is above line rate: a share of line rate is at most 100%");
  EXPECT_EQ(rate_refusal("fast"),
            "'fast' is not a rate: write '10%' (of line rate), '1.5Mpps', '5Gbps' (L1), '5Gbps-l2' or 'max'");
}

TEST(LoadToml, MissingFileIsAClearError) {
  try {
    load_profile_file("/nonexistent/profile.toml");
    FAIL() << "expected ConfigError";
  } catch (const ConfigError& error) {
    EXPECT_STREQ(error.what(), "/nonexistent/profile.toml: cannot open the profile file: No such file or directory");
  }
}

TEST(LoadToml, PortControlKeys) {
  const Profile p = load(std::string(kMinimal) + R"(fec = "rs"
pause = "off"
pfc = [3, 4]
flow_rules = ["pattern eth / udp dst is 4791 actions queue index 0"]
flow_isolate = true
)");
  EXPECT_EQ(p.ports[0].fec, FecMode::kRs);
  EXPECT_EQ(p.ports[0].pause, PauseMode::kOff);
  EXPECT_FALSE(load(kMinimal).ports[0].fec.has_value());  // unset: FEC and pause left as they are
  EXPECT_FALSE(load(kMinimal).ports[0].pause.has_value());
  EXPECT_EQ(p.ports[0].pfc_priorities, (std::vector<unsigned>{3, 4}));
  EXPECT_EQ(p.ports[0].flow_rules.size(), 1u);
  EXPECT_TRUE(p.ports[0].flow_isolate);
  EXPECT_FALSE(load(kMinimal).ports[0].pfc_priorities.has_value());  // unset: PFC left as it is
  EXPECT_EQ(load(std::string(kMinimal) + "pfc = []\n").ports[0].pfc_priorities, std::vector<unsigned>{});
  EXPECT_EQ(error_of(std::string(kMinimal) + "fec = \"rs528\"\n"),
            "test.toml:5:7: key 'port[0].fec': 'rs528' is not one of off, baser, rs, llrs, auto");
  EXPECT_EQ(error_of(std::string(kMinimal) + "pause = \"on\"\n"),
            "test.toml:5:9: key 'port[0].pause': 'on' is not one of rx, tx, both, off");
  EXPECT_EQ(error_of(std::string(kMinimal) + "autoneg = false\n"),
            "test.toml:5:11: key 'port[0].autoneg': false needs a speed to force: set speed too");
  EXPECT_EQ(load(std::string(kMinimal) + "speed = \"25G\"\nautoneg = false\n").ports[0].autoneg, false);
  EXPECT_EQ(error_of(std::string(kMinimal) + "pfc = [8]\n"),
            "test.toml:5:8: key 'port[0].pfc': 8 is out of range [0, 7]");
  EXPECT_EQ(error_of(std::string(kMinimal) + "flow_rules = \"pattern eth actions drop\"\n"),
            "test.toml:5:14: key 'port[0].flow_rules': expected an array of rules, e.g. [\"pattern eth / udp dst is "
            "4791 actions queue index 1\"]");
}

TEST(LoadToml, PfcHonourKeys) {
  const Profile p = load(std::string(kMinimal) + R"(pfc_honour = true
pfc_reaction_delay = 400
dscp_to_priority = { 26 = 3, 46 = 5 }
[[stream]]
name = "tagged"
tx_port = "p0"
vlan = { id = 10, pcp = 6 }
ipv4 = { dscp = 26 }
[[stream]]
name = "roce"
tx_port = "p0"
ipv4 = { dscp = 26 }
[[stream]]
name = "v6-voice"
tx_port = "p0"
ipv6 = { dscp = 46 }
frame_size = 128
[[stream]]
name = "best-effort"
tx_port = "p0"
[[stream]]
name = "xoff"
tx_port = "p0"
kind = "pfc"
priorities = [3]
)");
  const api::PortSpec& port = p.ports[0];
  EXPECT_TRUE(port.pfc_honour);
  EXPECT_EQ(port.pfc_reaction_delay_quanta, 400u);
  EXPECT_EQ(port.dscp_to_priority, (std::map<uint8_t, uint8_t>{{26, 3}, {46, 5}}));
  EXPECT_EQ(stream_priority(p.streams[0], port), 6);  // the VLAN's PCP wins over the DSCP
  EXPECT_EQ(stream_priority(p.streams[1], port), 3);
  EXPECT_EQ(stream_priority(p.streams[2], port), 5);
  EXPECT_EQ(stream_priority(p.streams[3], port), std::nullopt);  // DSCP 0 is not mapped: only PAUSE holds it
  EXPECT_EQ(stream_priority(p.streams[4], port), std::nullopt);  // MAC Control frames carry none
  EXPECT_EQ(load(std::string(kMinimal) + "pfc_honour = true\npfc_reaction_delay = \"5us\"\n").ports[0].pfc_reaction_delay_ns,
            5000u);

  EXPECT_EQ(error_of(std::string(kMinimal) + "pfc_reaction_delay = 10\n"),
            "test.toml:5:22: key 'port[0].pfc_reaction_delay': needs pfc_honour = true");
  EXPECT_EQ(error_of(std::string(kMinimal) + "pfc_honour = true\npfc_reaction_delay = \"soon\"\n"),
            "test.toml:6:22: key 'port[0].pfc_reaction_delay': 'soon' is not quanta (an integer) or a duration such as "
            "'5us'");
  EXPECT_EQ(error_of(std::string(kMinimal) + "pfc_honour = true\npfc_reaction_delay = 70000\n"),
            "test.toml:6:22: key 'port[0].pfc_reaction_delay': 70000 is out of range [0, 65535]");
  EXPECT_EQ(error_of(std::string(kMinimal) + "dscp_to_priority = { 64 = 3 }\n"),
            "test.toml:5:27: key 'port[0].dscp_to_priority.64': a DSCP is 0-63, e.g. dscp_to_priority = { 26 = 3 }");
  EXPECT_EQ(error_of(std::string(kMinimal) + "dscp_to_priority = { 26 = 8 }\n"),
            "test.toml:5:27: key 'port[0].dscp_to_priority.26': 8 is out of range [0, 7]");
  EXPECT_EQ(error_of(std::string(kMinimal) + "rx_queues = 0\npfc_honour = true\n"),
            "test.toml:6:14: key 'port[0].pfc_honour': needs the port to receive (rx_queues = 0 hears no PFC frame)");
}

TEST(LoadToml, ShippedExamplesLoad) {
  size_t examples = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(LR_SOURCE_ROOT) + "/config/examples")) {
    if (entry.path().extension() != ".toml") continue;
    ++examples;
    const std::string path = entry.path().string();
    EXPECT_NO_THROW(load_profile_file(path)) << path;
  }
  EXPECT_GE(examples, 10u);
}

// start_after: a stream that begins later in the run, which needs a pacer to hold it.
TEST(LoadToml, StartAfter) {
  const Profile p = load(std::string(kMinimal) + "[[stream]]\nname = \"s\"\ntx_port = \"p0\"\nrate = \"1%\"\n"
                                                 "start_after = \"50ms\"\nduration = \"100ms\"\n");
  EXPECT_EQ(p.streams[0].start_after_ns, 50'000'000u);
  EXPECT_EQ(error_of(std::string(kMinimal) + "[[stream]]\nname = \"s\"\ntx_port = \"p0\"\nrate = \"max\"\nstart_after = \"50ms\"\n"),
            "test.toml:9:15: key 'stream[0].start_after': a stream at rate 'max' starts with the run: give it a rate");
}

}  // namespace
}  // namespace lr::profile

namespace lr::profile {
namespace {

// Streams for a running data plane: read against its ports, errors at the text's own lines.
TEST(LoadStreams, ReadAgainstARunningDataPlanesPorts) {
  Profile running;
  running.ports.emplace_back().name = "p0";
  running.ports[0].device = "net_ring0";
  const auto streams = load_streams_text("\n[[stream]]\nname = \"s\"\ntx_port = \"p0\"\nrx_port = \"p0\"\n", "add", running);
  ASSERT_EQ(streams.size(), 1u);
  EXPECT_EQ(streams[0].loc.line, 2u);
  const auto error = [&](const std::string& text) {
    try {
      load_streams_text(text, "add", running);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error("[[stream]]\nname = \"s\"\ntx_port = \"p1\"\n"),
            "add:3:11: key 'stream[0].tx_port': stream 's' uses port 'p1', which this data plane does not have (it has p0)");
  EXPECT_EQ(error("[[port]]\nname = \"q\"\ndevice = \"net_null0\"\n[[stream]]\nname = \"s\"\ntx_port = \"p0\"\n"),
            "add:2:8: key 'port[0].name': this data plane has no port 'q' (it has p0)");
  EXPECT_EQ(error("[[stream]]\nname = \"s\"\ntx_port = \"p0\"\nframe_size = 20\n"),
            "add:4:14: key 'stream[0].frame_size': stream 's': a 20-byte frame cannot hold its 42 bytes of headers, the "
            "14-byte signature and the FCS; the smallest frame for this stream is 64 bytes");
}

// A data plane whose tester ports are cabled to its own switch: the streams read against
// it see both ends of each cable (a stream-only text has no [[switch]] of its own).
TEST(LoadStreams, ReadAgainstPortsCabledToTheDataPlanesSwitch) {
  const Profile running = load_profile_text(R"(
[[port]]
name = "a"
device = "cable:a"
[[port]]
name = "r"
device = "cable:r"
[[switch]]
name = "dut"
ports = [{ name = "dut-a", device = "cable:a" }, { name = "dut-r", device = "cable:r" }]
forward = { dut-a = "dut-r" }
)", "running.toml");
  const auto streams = load_streams_text("[[stream]]\nname = \"s\"\ntx_port = \"a\"\nrx_port = \"r\"\n", "load", running);
  ASSERT_EQ(streams.size(), 1u);
  EXPECT_EQ(streams[0].rx_port, "r");
}

constexpr const char* kCabled = R"(
[[port]]
name = "tx"
device = "cable:a"
[[port]]
name = "rx"
device = "cable:b"
[[switch]]
name = "dut"
ports = [{ name = "s1", device = "cable:a", speed = "10G" },
         { name = "s2", device = "cable:b", shape = "50%" }]
forward = { s1 = "s2" }
)";

std::string cabled_with(const std::string& keys) { return std::string(kCabled) + keys; }

TEST(LoadToml, SwitchKeys) {
  const Profile p = load(std::string(kCabled) + R"(lcore = 2
classify = "dscp"
dscp_to_priority = { 26 = 3 }
lossless = [3, 4]
buffer = "2MB"
queue_limit = "64KiB"
xoff = 30000
xon = "10KB"
headroom = "50KB"
pfc_quanta = 1000
pfc_refresh = "100us"
ecn = { kmin = "10KB", kmax = "100KB", pmax = 0.2 }
watchdog = { detect = "200ms", restore = "400ms", action = "forward" }
seed = 7
)");
  ASSERT_EQ(p.switches.size(), 1u);
  const api::SwitchSpec& sw = p.switches[0];
  EXPECT_EQ(sw.name, "dut");
  EXPECT_EQ(sw.lcore, 2u);
  ASSERT_EQ(sw.ports.size(), 2u);
  EXPECT_EQ(sw.ports[0].speed_bps, 10'000'000'000u);
  EXPECT_FALSE(sw.ports[0].shape);
  ASSERT_TRUE(sw.ports[1].shape);
  EXPECT_EQ(sw.ports[1].shape->kind, RateKind::kPercentOfLine);
  EXPECT_EQ(sw.ports[1].shape->value, 50);
  EXPECT_EQ(sw.forward, (std::map<std::string, std::string>{{"s1", "s2"}}));
  EXPECT_EQ(sw.classify, api::SwitchClassify::kDscp);
  EXPECT_EQ(sw.dscp_to_priority, (std::map<uint8_t, uint8_t>{{26, 3}}));
  EXPECT_EQ(sw.lossless, 0x18);
  EXPECT_EQ(sw.buffer_bytes, 2'000'000u);
  EXPECT_EQ(sw.queue_limit_bytes, 65'536u);
  EXPECT_EQ(sw.xoff_bytes, 30'000u);
  EXPECT_EQ(sw.xon_bytes, 10'000u);
  EXPECT_EQ(sw.headroom_bytes, 50'000u);
  EXPECT_EQ(sw.pfc_quanta, 1000);
  EXPECT_EQ(sw.pfc_refresh_ns, 100'000u);
  EXPECT_TRUE(sw.ecn);
  EXPECT_EQ(sw.ecn_kmin_bytes, 10'000u);
  EXPECT_EQ(sw.ecn_kmax_bytes, 100'000u);
  EXPECT_DOUBLE_EQ(sw.ecn_pmax, 0.2);
  EXPECT_TRUE(sw.watchdog);
  EXPECT_EQ(sw.watchdog_detect_ns, 200'000'000u);
  EXPECT_EQ(sw.watchdog_restore_ns, 400'000'000u);
  EXPECT_TRUE(sw.watchdog_forward);
  EXPECT_EQ(sw.seed, 7u);
  std::string learning = kCabled;
  learning.replace(learning.find("forward = { s1 = \"s2\" }"), 23, "forward = \"learn\"");
  EXPECT_TRUE(load(learning).switches[0].learn);
  EXPECT_TRUE(load(learning).switches[0].forward.empty());
  EXPECT_FALSE(sw.learn);
  // Defaults: PCP, no lossless priority, auto refresh.
  const Profile defaults = load(kCabled);
  const api::SwitchSpec& d = defaults.switches[0];
  EXPECT_EQ(d.classify, api::SwitchClassify::kPcp);
  EXPECT_EQ(d.lossless, 0);
  EXPECT_EQ(d.pfc_refresh_ns, 0u);
  EXPECT_FALSE(d.ecn);
  EXPECT_FALSE(d.watchdog);
  EXPECT_FALSE(d.pfc_honour);
  EXPECT_FALSE(d.pause_honour);
  EXPECT_EQ(d.pause_reaction_ns, 0u);
  const api::SwitchSpec obeying = load(cabled_with("pfc_honour = [0, 3]\npause_honour = true\npause_reaction = \"2ms\"\n")).switches[0];
  EXPECT_EQ(obeying.pfc_honour, uint8_t{0x09});
  EXPECT_EQ(obeying.pause_honour, true);
  EXPECT_EQ(obeying.pause_reaction_ns, 2'000'000u);
  EXPECT_EQ(load(cabled_with("pfc_honour = []\n")).switches[0].pfc_honour, uint8_t{0});
  // The address table (RFC 2889's figures) and the queueing.
  EXPECT_EQ(d.mac_table_size, 8192u);
  EXPECT_EQ(d.learn_rate, 0u);
  EXPECT_EQ(d.mac_age_ns, 300'000'000'000u);
  EXPECT_FALSE(d.input_queued);
  EXPECT_EQ(d.max_frame_bytes, 0u);
  std::string table = learning + "mac_table_size = 1000\nlearn_rate = 20000\nmac_age = \"500ms\"\nqueueing = \"input\"\n"
                                 "max_frame = 1522\n";
  const api::SwitchSpec learner = load(table).switches[0];
  EXPECT_EQ(learner.mac_table_size, 1000u);
  EXPECT_EQ(learner.learn_rate, 20000u);
  EXPECT_EQ(learner.mac_age_ns, 500'000'000u);
  EXPECT_TRUE(learner.input_queued);
  EXPECT_EQ(learner.max_frame_bytes, 1522u);
  EXPECT_EQ(load(learning + "mac_age = \"off\"\n").switches[0].mac_age_ns, 0u);
}

TEST(LoadToml, SwitchRefusals) {
  const std::string cabled = kCabled;
  EXPECT_EQ(error_of(cabled + "mac_table_size = 100\n"),
            "test.toml:13:18: key 'switch[0].mac_table_size': needs forward = \"learn\" (a static forwarding table "
            "learns no addresses)");
  EXPECT_EQ(error_of(cabled + "queueing = \"virtual\"\n"),
            "test.toml:13:12: key 'switch[0].queueing': 'virtual' is not one of output (a queue per egress port and "
            "priority), input (one FIFO per ingress port: head-of-line blocking)");
  EXPECT_EQ(error_of(cabled + "lossless = [3]\nqueueing = \"input\"\n"),
            "test.toml:14:12: key 'switch[0].queueing': input queueing is for lossy priorities only: remove `lossless`");
  EXPECT_EQ(error_of(cabled + "ecn = { kmin = \"10KB\", kmax = \"100KB\", pmax = 0.1 }\nqueueing = \"input\"\n"),
            "test.toml:14:12: key 'switch[0].queueing': input queueing marks no ECN (a frame waits behind its port's "
            "head, not in an egress queue): remove `ecn`");
  EXPECT_EQ(error_of(cabled + "max_frame = 60\n"),
            "test.toml:13:13: key 'switch[0].max_frame': 60 bytes is below the 64-byte minimum frame");
  EXPECT_EQ(error_of(cabled + "xon = \"50KB\"\n"),
            "test.toml:13:7: key 'switch[0].xon': 50000 bytes is not below xoff (40000 bytes): XON must come after "
            "the buffer drained");
  EXPECT_EQ(error_of(cabled + "buffer = \"1.5 parsecs\"\n"),
            "test.toml:13:10: key 'switch[0].buffer': '1.5 parsecs' is not a size: write bytes as an integer, or e.g. "
            "'64KB', '1.5MB', '64KiB'");
  EXPECT_EQ(error_of(cabled + "lossless = [8]\n"),
            "test.toml:13:13: key 'switch[0].lossless': 8 is out of range [0, 7]");
  EXPECT_EQ(error_of(cabled + "pfc_honour = 3\n"),
            "test.toml:13:14: key 'switch[0].pfc_honour': expected an array of priorities 0-7 whose PFC it obeys, e.g. [3]");
  EXPECT_EQ(error_of(cabled + "pause_reaction = \"2s\"\n"), "test.toml:13:18: key 'switch[0].pause_reaction': at most 1s");
  EXPECT_EQ(error_of(cabled + "ecn = { kmin = \"100KB\", kmax = \"10KB\", pmax = 0.1 }\n"),
            "test.toml:13:32: key 'switch[0].ecn.kmax': 10000 bytes is not above kmin (100000 bytes)");
  EXPECT_EQ(error_of(cabled + "ecn = { kmin = \"10KB\", kmax = \"100KB\", pmax = 1.5 }\n"),
            "test.toml:13:47: key 'switch[0].ecn.pmax': 1.5 is out of range [0, 1]");
  EXPECT_EQ(error_of(cabled + "watchdog = { detect = \"200ms\" }\n"),
            "test.toml:13:12: key 'switch[0].watchdog.restore': is required");
  EXPECT_EQ(error_of(cabled + "watchdog = { detect = \"2ms\", restore = \"2ms\", action = \"reboot\" }\n"),
            "test.toml:13:56: key 'switch[0].watchdog.action': 'reboot' is not one of drop, forward");
  EXPECT_EQ(error_of(cabled + "dscp_to_priority = { 26 = 3 }\n"),
            "test.toml:13:20: key 'switch[0].dscp_to_priority': needs classify = \"dscp\"");
  EXPECT_EQ(error_of(cabled + "pfc_refresh = \"soon\"\n"),
            "test.toml:13:15: key 'switch[0].pfc_refresh': 'soon' is not 'auto' or a duration: write e.g. '500ns', "
            "'20us', '100ms', '5s' or '2m'");
  // Names: the forwarding map's, every port's own, and each cable's two ends.
  std::string text = kCabled;
  text.replace(text.find("forward = { s1 = \"s2\" }"), 23, "forward = { s1 = \"s9\" }");
  EXPECT_EQ(error_of(text), "test.toml:12:11: key 'switch[0].forward.s1': switch 'dut' has no port 's9'");
  text = kCabled;
  text.replace(text.find("forward = { s1 = \"s2\" }"), 23, "forward = { s1 = \"s1\" }");
  EXPECT_EQ(error_of(text), "test.toml:12:11: key 'switch[0].forward.s1': a port cannot forward to itself");
  text = kCabled;
  text.replace(text.find("forward = { s1 = \"s2\" }"), 23, "forward = \"flood\"");
  EXPECT_EQ(error_of(text),
            "test.toml:12:11: key 'switch[0].forward': expected \"learn\" (by destination MAC, flooding unknown ones) "
            "or a table of ingress port = egress port, e.g. forward = { s1 = \"s3\" }");
  text = kCabled;
  text.replace(text.find("name = \"s2\""), 11, "name = \"rx\"");
  EXPECT_EQ(error_of(text),
            "test.toml:11:10: key 'switch[0].ports[1].name': port name 'rx' is already a [[port]]: every port, "
            "tester's or switch's, needs its own name");
  text = kCabled;
  text.replace(text.find("device = \"cable:b\", shape"), 18, "device = \"cable:a\"");
  EXPECT_EQ(error_of(text),
            "test.toml:11:10: key 'device': cable 'a' already joins ports 'tx' and 's1': port 's2' needs a cable of "
            "its own");
  text = kCabled;
  text.replace(text.find("device = \"cable:b\", shape"), 18, "device = \"cable:c\"");
  EXPECT_EQ(error_of(text),
            "test.toml:7:10: key 'device': cable 'b' has one end only (port 'rx'): give another port device = "
            "\"cable:b\"");
  EXPECT_EQ(error_of(cabled + "[[switch]]\nname = \"dut\"\nports = [{ name = \"t1\", device = \"net_null0\" }, "
                              "{ name = \"t2\", device = \"net_null1\" }]\nforward = {}\n"),
            "test.toml:14:8: key 'switch[1].name': switch name 'dut' is used twice");
  EXPECT_EQ(error_of("[[port]]\nname = \"p\"\ndevice = \"net_null0\"\n[[switch]]\nname = \"x\"\nports = []\nforward = {}\n"),
            "test.toml:6:9: key 'switch[0].ports': expected an array of at least two ports, e.g. [{ name = \"s1\", "
            "device = \"cable:a\" }, ...]");
}

// The refusals of the switch table's other parts (ports, forwarding, classification,
// buffer, limits), each at its key.
TEST(LoadToml, SwitchRefusalsOfEachPart) {
  const std::string cabled = kCabled;
  std::string text = kCabled;
  text.replace(text.find("forward = { s1 = \"s2\" }"), 23, "");
  EXPECT_EQ(error_of(text),
            "test.toml:8:1: key 'switch[0].forward': is required: \"learn\", or which port each ingress port forwards "
            "to, e.g. forward = { s1 = \"s3\" }");
  text = kCabled;
  text.replace(text.find("forward = { s1 = \"s2\" }"), 23, "forward = { s1 = 2 }");
  EXPECT_EQ(error_of(text),
            "test.toml:12:18: key 'switch[0].forward.s1': expected the egress port's name, e.g. forward = { s1 = \"s3\" }");
  EXPECT_EQ(error_of("[[switch]]\nname = \"x\"\nports = [\"s1\", \"s2\"]\nforward = {}\n"),
            "test.toml:3:10: key 'switch[0].ports': each port is a table: { name = \"s1\", device = \"cable:a\" }");
  std::string crowded = "[[switch]]\nname = \"x\"\nforward = {}\nports = [";
  for (size_t i = 0; i <= api::kMaxSwitchPorts; ++i)
    crowded += "{ name = \"s" + std::to_string(i) + "\", device = \"net_null" + std::to_string(i) + "\" },";
  EXPECT_EQ(error_of(crowded + "]\n"), "test.toml:4:9: key 'switch[0].ports': 257 ports: a switch has at most 256");
  EXPECT_EQ(error_of(cabled + "classify = \"vlan\"\n"),
            "test.toml:13:12: key 'switch[0].classify': 'vlan' is not one of pcp, dscp");
  EXPECT_EQ(error_of(cabled + "xoff = 0\n"), "test.toml:13:8: key 'switch[0].xoff': must be above 0 bytes");
  EXPECT_EQ(error_of(cabled + "catch_up = \"500us\"\n"), "test.toml:13:12: key 'switch[0].catch_up': between 1ms and 1s");
  EXPECT_EQ(error_of(cabled + "catch_up = \"2s\"\n"), "test.toml:13:12: key 'switch[0].catch_up': between 1ms and 1s");
}

}  // namespace
}  // namespace lr::profile

namespace lr::profile {
namespace {

constexpr const char* kRoceStream = R"(
[[stream]]
name = "r"
tx_port = "p0"
)";

TEST(LoadToml, RoceKeys) {
  const Profile p = load(std::string(kMinimal) + kRoceStream + R"(frame_size = 1086
udp = { src = 49152 }
roce = { opcode = "rc-write-only", dest_qp = 0x11, psn = 100, pkey = 0x8001, va = 0x1000, rkey = 7 }
[[stream]]
name = "ud"
tx_port = "p0"
roce = { opcode = "ud-send-only", qkey = 0x11111111, src_qp = 2 }
)");
  const StreamSpec& s = p.streams[0];
  ASSERT_TRUE(s.roce.has_value());
  EXPECT_EQ(s.roce->opcode, 0x0A);
  EXPECT_EQ(s.roce->dest_qp, 0x11u);
  EXPECT_EQ(s.roce->psn, 100u);
  EXPECT_EQ(s.roce->pkey, 0x8001);
  EXPECT_EQ(s.roce->va, 0x1000u);
  EXPECT_EQ(s.roce->rkey, 7u);
  EXPECT_EQ(s.udp.dst, 4791);  // RoCEv2's port, set by the table
  EXPECT_EQ(s.udp.src, 49152);
  EXPECT_EQ(header_bytes(s), 14 + 20 + 8 + 12 + 16);
  EXPECT_EQ(roce_payload_bytes(s, 1086), 1086 - 4 - 4 - 70);
  const StreamSpec& ud = p.streams[1];
  EXPECT_EQ(ud.roce->opcode, 0x64);
  EXPECT_EQ(ud.roce->qkey, 0x11111111u);
  EXPECT_EQ(ud.roce->src_qp, 2u);
  // Without a frame size, the smallest RoCEv2 frame this stream can send.
  EXPECT_EQ(ud.frame.sizes, (std::vector<uint16_t>{86}));
}

TEST(LoadToml, MacControlTxKey) {
  EXPECT_EQ(load(std::string(kMinimal) + "mac_control_tx = \"netdev\"\n").ports[0].mac_control_tx, api::MacControlTx::kNetdev);
  EXPECT_EQ(load(std::string(kMinimal) + "mac_control_tx = \"pmd\"\n").ports[0].mac_control_tx, api::MacControlTx::kPmd);
  EXPECT_EQ(load(kMinimal).ports[0].mac_control_tx, api::MacControlTx::kAuto);
  EXPECT_EQ(error_of(std::string(kMinimal) + "mac_control_tx = \"kernel\"\n"),
            "test.toml:5:18: key 'port[0].mac_control_tx': 'kernel' is not auto, pmd or netdev");
}

TEST(LoadToml, RoceRefusals) {
  const std::string stream = std::string(kMinimal) + kRoceStream;
  EXPECT_EQ(error_of(stream + "roce = { opcode = \"rc-read-request\" }\n"),
            "test.toml:9:19: key 'stream[0].roce.opcode': 'rc-read-request' is not a single-packet opcode linerate "
            "sends (rc-send-only, rc-write-only, uc-send-only, uc-write-only, ud-send-only)");
  EXPECT_EQ(error_of(stream + "roce = { dest_qp = 0x1000000 }\n"),
            "test.toml:9:20: key 'stream[0].roce.dest_qp': 16777216 is out of range [0, 16777215]");
  EXPECT_EQ(error_of(stream + "roce = { rkey = 5 }\n"),
            "test.toml:9:17: key 'stream[0].roce.rkey': belongs to the RETH of an RDMA WRITE; opcode 'rc-send-only' "
            "has none");
  EXPECT_EQ(error_of(stream + "roce = { opcode = \"rc-write-only\", qkey = 5 }\n"),
            "test.toml:9:43: key 'stream[0].roce.qkey': belongs to the DETH of a UD opcode; opcode 'rc-write-only' "
            "has none");
  EXPECT_EQ(error_of(stream + "udp = { dst = 5000 }\nroce = {}\n"),
            "test.toml:9:7: key 'stream[0].udp.dst': a RoCEv2 stream goes to UDP port 4791 (leave udp.dst out)");
  EXPECT_EQ(error_of(stream + "frame_size = [128, 256]\nroce = {}\n"),
            "test.toml:9:14: key 'stream[0].frame_size': a RoCEv2 stream sends one message size: give one frame size");
  EXPECT_EQ(error_of(stream + "frame_size = 128\nroce = {}\n"),
            "test.toml:9:14: key 'stream[0].frame_size': a 128-byte RoCEv2 frame has a 66-byte payload; InfiniBand "
            "payloads are whole 4-byte words: 126 or 130 bytes fit");
  EXPECT_EQ(error_of(stream + "frame_size = 74\nroce = {}\n"),
            "test.toml:9:14: key 'stream[0].frame_size': stream 'r': a 74-byte frame cannot hold its 54 bytes of "
            "headers, the 14-byte signature, the ICRC and the FCS; the smallest frame for this stream is 78 bytes");
  EXPECT_EQ(error_of(stream + "kind = \"pfc\"\npriorities = [3]\nroce = {}\n"),
            "test.toml:11:8: key 'stream[0].roce': a pfc stream sends MAC Control frames, which have no VLAN, IP or "
            "UDP header");
}

}  // namespace
}  // namespace lr::profile

namespace lr::profile {
namespace {

TEST(LoadToml, CaptureTablesAreCheckedAgainstThePortsAndStreams) {
  const std::string base = std::string(kMinimal) + "[[stream]]\nname = \"s\"\ntx_port = \"p0\"\n";
  const Profile p = load(base + "[[capture]]\nport = \"p0\"\nfile = \"/tmp/c.pcapng\"\nfilter = \"udp\"\n"
                                "duration = \"5s\"\ntrigger = \"loss\"\nstream = \"s\"\nbefore = 3\n");
  ASSERT_EQ(p.captures.size(), 1u);
  const api::CaptureSpec& c = p.captures[0];
  EXPECT_EQ((std::tuple{c.port, c.file, c.filter, c.duration_ns, c.trigger, c.trigger_stream, c.before, c.after}),
            (std::tuple{std::string("p0"), std::string("/tmp/c.pcapng"), std::string("udp"), uint64_t{5'000'000'000},
                        std::string("loss"), std::string("s"), 3u, 10u}));
  EXPECT_EQ(load(base + "[[capture]]\nport = \"p0\"\nfile = \"c.pcapng\"\n").captures[0].file,
            (std::filesystem::current_path() / "c.pcapng").string());
  EXPECT_EQ(error_of(base + "[[capture]]\nport = \"p9\"\nfile = \"c.pcapng\"\n"),
            "test.toml:9:8: key 'capture[0].port': no [[port]] is named 'p9'");
  EXPECT_EQ(error_of(base + "[[capture]]\nport = \"p0\"\nfile = \"c\"\ntrigger = \"loss\"\nstream = \"t\"\n"),
            "test.toml:12:10: key 'capture[0].stream': no [[stream]] is named 't'");
  EXPECT_EQ(error_of(base + "[[capture]]\nport = \"p0\"\nfile = \"c\"\nbefore = 3\n"),
            "test.toml:11:10: key 'capture[0].before': goes with a trigger (trigger = \"loss\", \"ooo\", \"dup\" or "
            "\"any\")");
  EXPECT_EQ(error_of(base + "[[capture]]\nport = \"p0\"\nfile = \"c\"\n[[capture]]\nport = \"p0\"\nfile = \"d\"\n"),
            "test.toml:12:8: key 'capture[1].port': port 'p0' has a [[capture]] already: one capture a port");
  EXPECT_EQ(load(base + "[[capture]]\nport = \"p0\"\nfile = \"c\"\ndirection = \"both\"\n").captures[0].direction, "both");
  EXPECT_EQ(error_of(base + "[[capture]]\nport = \"p0\"\nfile = \"c\"\ndirection = \"out\"\n"),
            "test.toml:11:13: key 'capture[0].direction': 'out' is not one of rx, tx, both");
  EXPECT_EQ(error_of(base + "[[capture]]\nport = \"p0\"\nfile = \"c\"\ndirection = \"tx\"\ntrigger = \"dup\"\n"
                            "stream = \"s\"\n"),
            "test.toml:12:11: key 'capture[0].trigger': watches what the port receives: direction = \"rx\" (the "
            "default)");
  EXPECT_EQ(error_of(base + "[[capture]]\nport = \"p0\"\nfile = \"c\"\nsnaplen = 10\n"),
            "test.toml:11:11: key 'capture[0].snaplen': 10 is out of range [64, 16384]");
}

}  // namespace
}  // namespace lr::profile
