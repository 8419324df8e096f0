// Profiles: what is read, and the exact error (file, line, column, key, reason) for
// what is refused.

#include "dataplane/profile/load_toml.hpp"
#include "dataplane/profile/quantity.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include <string>

namespace lr::profile {
namespace {

using api::FrameSizeKind;
using api::RangeOrder;
using api::RateKind;
using api::StreamSpec;
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

// Loads `text` and checks its benchmark sections; the ConfigError message, or "(accepted)".
std::string bench_refusal(const std::string& text) {
  try {
    validate_bench_sections(load(text));
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "(accepted)";
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
            "test.toml:4:12: key 'port[0].rx_queue': unknown key (see config/README.md for the schema)");
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
            "'02:00:00:00:00:01'");
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
  EXPECT_EQ(p.ports[0].fec, "rs");
  EXPECT_EQ(p.ports[0].pause, "off");
  EXPECT_EQ(p.ports[0].pfc_priorities, (std::vector<unsigned>{3, 4}));
  EXPECT_EQ(p.ports[0].flow_rules.size(), 1u);
  EXPECT_TRUE(p.ports[0].flow_isolate);
  EXPECT_FALSE(load(kMinimal).ports[0].pfc_priorities.has_value());  // unset: PFC left as it is
  EXPECT_EQ(load(std::string(kMinimal) + "pfc = []\n").ports[0].pfc_priorities, std::vector<unsigned>{});
  EXPECT_EQ(error_of(std::string(kMinimal) + "fec = \"rs528\"\n"),
            "test.toml:5:7: key 'port[0].fec': 'rs528' is not one of off, baser, rs, llrs, auto");
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
  const PortCfg& port = p.ports[0];
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
    const Profile profile = load_profile_file(path);
    EXPECT_NO_THROW(validate_bench_sections(profile)) << path;
    EXPECT_NO_THROW(validate_qualify_section(profile)) << path;
  }
  EXPECT_GE(examples, 10u);
}

// [qualify]: defaults, what each key parses to, and a section that cannot work refused at its key.
TEST(LoadToml, QualifySection) {
  const std::string base = std::string(kMinimal) + "[[stream]]\nname = \"s\"\ntx_port = \"p0\"\nrx_port = \"p0\"\n";
  const Profile defaults = load(base + "[qualify]\n");
  ASSERT_TRUE(defaults.qualify);
  EXPECT_EQ(defaults.qualify->duration_ns, 0u);  // auto
  EXPECT_DOUBLE_EQ(defaults.qualify->rate_percent, 100);
  EXPECT_DOUBLE_EQ(defaults.qualify->target_ber, 1e-12);
  EXPECT_EQ(defaults.qualify->interval_ns, 1'000'000'000u);
  const Profile set = load(base + "[qualify]\nports = [\"p0\"]\nspeed = \"50G\"\nfec = \"rs\"\nset_fec = true\n"
                                  "fec_code = \"rs544\"\nrate = \"90%\"\nduration = \"75s\"\nber_limit = 1e-5\n");
  EXPECT_EQ(set.qualify->speed_bps, 50'000'000'000u);
  EXPECT_EQ(set.qualify->fec, "rs");
  EXPECT_TRUE(set.qualify->set_fec);
  EXPECT_EQ(set.qualify->fec_code, "rs544");
  EXPECT_DOUBLE_EQ(set.qualify->rate_percent, 90);
  EXPECT_EQ(set.qualify->duration_ns, 75'000'000'000u);
  EXPECT_DOUBLE_EQ(set.qualify->ber_limit, 1e-5);
  EXPECT_NO_THROW(validate_qualify_section(set));
  EXPECT_EQ(error_of(base + "[qualify]\nrate = \"1Mpps\"\n"),
            "test.toml:10:8: key 'qualify.rate': expected a share of line rate, e.g. '100%'");
  EXPECT_EQ(error_of(base + "[qualify]\nfec_code = \"rs272\"\n"),
            "test.toml:10:12: key 'qualify.fec_code': 'rs272' is not rs528 (RS(528,514)) or rs544 (RS(544,514))");
  EXPECT_EQ(error_of(base + "[qualify]\ninterval = \"10ms\"\n"),
            "test.toml:10:12: key 'qualify.interval': sample at most every 100ms (the module's monitors update slower)");
  EXPECT_EQ(error_of(base + "[qualify]\nconfidence = 1.5\n"), "test.toml:10:14: key 'qualify.confidence': 1.5 is out of range [0.5, 0.9999]");
  const Profile no_rx = load(std::string(kMinimal) + "[[stream]]\nname = \"s\"\ntx_port = \"p0\"\n[qualify]\nports = [\"p0\"]\n");
  try {
    validate_qualify_section(no_rx);
    ADD_FAILURE() << "a port nothing is received on was taken";
  } catch (const ConfigError& error) {
    EXPECT_STREQ(error.what(), "test.toml:9:9: key 'qualify.ports': no stream is received on port 'p0': add a [[stream]] "
                               "with rx_port = \"p0\" (its own tx_port for a looped-back module)");
  }
}

// The benchmark sections: defaults, IMIX, and a procedure that cannot work refused at its key.
TEST(LoadToml, BenchSections) {
  const std::string base = std::string(kMinimal) + "speed = \"40G\"\n[[stream]]\nname = \"s\"\ntx_port = \"p0\"\nrx_port = \"p0\"\n";
  const Profile defaults = load(base + "[rfc2544]\n[ndr]\n");
  ASSERT_TRUE(defaults.rfc2544 && defaults.ndr);
  EXPECT_EQ(defaults.rfc2544->tests, std::vector<std::string>{"throughput"});
  ASSERT_EQ(defaults.rfc2544->frame_sizes.size(), 7u);
  EXPECT_EQ(defaults.rfc2544->frame_sizes.back().name, "1518");
  EXPECT_EQ(defaults.rfc2544->trial_duration_ns, 60'000'000'000u);
  EXPECT_EQ(defaults.rfc2544->latency_trials, 20u);
  EXPECT_EQ(defaults.rfc2544->back_to_back_trials, 50u);
  EXPECT_EQ(defaults.ndr->trial_duration_ns, 30'000'000'000u);
  EXPECT_DOUBLE_EQ(defaults.ndr->pdr_loss_tolerance_percent, 0.1);
  EXPECT_NO_THROW(validate_bench_sections(defaults));

  const Profile imix = load(base + "[rfc2544]\nframe_sizes = [\"imix\", 128]\n");
  ASSERT_EQ(imix.rfc2544->frame_sizes.size(), 2u);
  EXPECT_TRUE(imix.rfc2544->frame_sizes[0].is_mix());
  EXPECT_NEAR(imix.rfc2544->frame_sizes[0].mean(), (7 * 64 + 4 * 594 + 1518) / 12.0, 1e-9);

  const auto refused = [&](const std::string& section, const std::string& speed = "40G") {
    std::string text = base + section;
    text.replace(text.find("40G"), 3, speed);
    return bench_refusal(text);
  };
  EXPECT_EQ(error_of(base + "[rfc2544]\ntests = [\"latency\"]\n"),
            "test.toml:11:9: key 'rfc2544.tests': latency is measured at each size's throughput (RFC 2544 §26.2): add "
            "\"throughput\"");
  EXPECT_EQ(error_of(base + "[ndr]\nloss_tolerance = 1\npdr_loss_tolerance = 0.5\n"),
            "test.toml:12:22: key 'ndr.pdr_loss_tolerance': 0.5 % is below the NDR's loss_tolerance (1 %): the "
            "partial-drop rate allows more loss");
  EXPECT_EQ(refused("[rfc2544]\nframe_sizes = [9000]\n"),
            "test.toml:11:15: key 'rfc2544.frame_sizes': 9000-byte frames carry 8982-byte packets, above port 'p0''s "
            "MTU of 1500 (the default): set its [[port]] mtu");
  EXPECT_EQ(refused("[ndr]\ntrial_duration = \"10ms\"\nresolution = 0.001\n", "1G"),
            "test.toml:12:14: key 'ndr.resolution': 0.001 % of line rate is 0.149 frames in a 0.01 s trial of 64-byte "
            "frames on port 'p0': finer than one frame; lengthen trial_duration or coarsen the resolution");
  EXPECT_EQ(refused("[rfc2544]\nframe_sizes = [\"imix\"]\n").substr(0, 9), "(accepted");
}

// [lossless]: what the keys parse to, and a plan that cannot work refused at its key.
TEST(LoadToml, LosslessSection) {
  const std::string ports = R"(
[[port]]
name = "a"
device = "net_ring0"
speed = "10G"
pfc_honour = true
[[port]]
name = "r"
device = "net_ring1"
speed = "10G"
[[stream]]
name = "a-r"
tx_port = "a"
rx_port = "r"
vlan = { id = 100, pcp = 3 }
)";
  const std::string timeline = "[run]\ntimeline = \"10us\"\n";  // last: the keys' lines stay put
  const Profile p = load(ports + R"([lossless]
senders = ["a"]
receiver = "r"
lossless = [3]
lossy = [0]
rate = "30%"
quanta = [0, 4096]
response_time = "500us"
ecn = { kmin = "50KB", kmax = "250KB", pmax = 0.5 }
watchdog = { detect = "200ms", restore = "100ms", action = "forward", tolerance = "20ms" }
headroom = "3MB"
headroom_delays = ["8ms", "2ms"]
)" + timeline);
  ASSERT_TRUE(p.lossless);
  const LosslessCfg& c = *p.lossless;
  EXPECT_EQ(c.senders, std::vector<std::string>{"a"});
  EXPECT_EQ(c.lossless, std::vector<uint8_t>{3});
  EXPECT_EQ(c.cases.size(), 9u);  // all, by default
  EXPECT_DOUBLE_EQ(c.rate_percent, 30);
  EXPECT_EQ(c.quanta, (std::vector<uint32_t>{0, 4096}));
  EXPECT_EQ(c.response_time_ns, 500'000u);
  EXPECT_EQ(c.rest_ns, 100'000'000u);
  EXPECT_EQ(c.ecn_fill_bytes, (std::vector<uint64_t>{150'000, 350'000}));  // across the ramp, and above it
  EXPECT_TRUE(c.watchdog);
  EXPECT_EQ(c.watchdog_detect_ns, 200'000'000u);
  EXPECT_EQ(c.watchdog_restore_ns, 100'000'000u);
  EXPECT_TRUE(c.watchdog_forward);
  EXPECT_EQ(c.watchdog_tolerance_ns, 20'000'000u);
  EXPECT_EQ(c.headroom_bytes, 3'000'000u);
  EXPECT_EQ(c.headroom_delays_ns, (std::vector<uint64_t>{2'000'000, 8'000'000}));  // ascending
  EXPECT_NO_THROW(validate_bench_sections(p));

  const auto refused = [&](const std::string& text) { return bench_refusal(text + timeline); };
  const std::string plan = "[lossless]\nsenders = [\"a\"]\nreceiver = \"r\"\nlossless = [3]\nlossy = [0]\n";
  // Without a timeline the cases could not see a pause: refused before traffic, not failed.
  EXPECT_EQ(bench_refusal(ports + plan),
            "test.toml:16:1: key 'run.timeline': the lossless plan reads pauses, silences and reaction times from the "
            "receiver's rate timeline: add `timeline = \"10us\"` to [run]");
  EXPECT_EQ(refused(ports + plan + "cases = [\"pfc_storm\"]\n"),
            "test.toml:21:9: key 'lossless.cases': 'pfc_storm' is not a case: pfc_pause, lossy_not_paused, "
            "global_pause, response_time, quanta_sweep, headroom, incast, watchdog or ecn");
  EXPECT_EQ(refused(ports + plan + "headroom_delays = [\"2ms\", 4]\n"),
            "test.toml:21:27: key 'lossless.headroom_delays': a duration: write e.g. '500ns', '20us', '100ms', '5s' or '2m'");
  EXPECT_EQ(refused(ports + plan + "watchdog = { detect = \"200ms\" }\n"),
            "test.toml:21:12: key 'lossless.watchdog.restore': is required");
  EXPECT_EQ(refused(ports + plan + "watchdog = { detect = \"200ms\", restore = \"1s\", action = \"flood\" }\n"),
            "test.toml:21:57: key 'lossless.watchdog.action': 'flood' is not one of drop, forward");
  EXPECT_EQ(refused(ports + "[lossless]\nsenders = [\"a\"]\nreceiver = \"r\"\nlossless = [3]\nlossy = [3]\n"),
            "test.toml:20:9: key 'lossless.lossy': priority 3 is also lossless");
  EXPECT_EQ(refused(ports + "[lossless]\nsenders = [\"a\"]\nreceiver = \"r\"\nlossless = [3]\n"),
            "test.toml:16:1: key 'lossless.lossy': case lossy_not_paused needs a lossy priority");
  EXPECT_EQ(refused(ports + plan + "rate = \"10Mpps\"\n"),
            "test.toml:21:8: key 'lossless.rate': '10Mpps' is not a share of line rate: write e.g. '20%'");
  EXPECT_EQ(refused(ports + plan + "storm = \"150ms\"\n"),
            "test.toml:21:9: key 'lossless.storm': the storm runs in the middle of the traffic: at most half the "
            "duration");
  EXPECT_EQ(refused(ports + plan + "global_pause = \"maybe\"\n"),
            "test.toml:21:16: key 'lossless.global_pause': 'maybe' is not 'ignored' or 'honoured'");
  EXPECT_EQ(refused(ports + plan.substr(0, plan.find("receiver")) + "receiver = \"q\"\nlossless = [3]\nlossy = [0]\n"),
            "test.toml:18:12: key 'lossless.receiver': no [[port]] is named 'q'");
  std::string deaf = ports;
  deaf.replace(deaf.find("pfc_honour = true"), 17, "pfc_honour = false");
  EXPECT_EQ(refused(deaf + plan),
            "test.toml:17:11: key 'lossless.senders': port 'a' must obey the device's PFC (pfc_honour = true), or the "
            "device's headroom overflows and the lossless cases measure the tester");
  std::string untemplated = ports;
  untemplated.replace(untemplated.find("rx_port = \"r\""), 13, "rx_port = \"a\"");
  EXPECT_EQ(refused(untemplated + plan),
            "test.toml:17:11: key 'lossless.senders': add a [[stream]] from 'a' to 'r': its headers (addresses, VLAN) "
            "are the cases' frames");
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
  const SwitchCfg& sw = p.switches[0];
  EXPECT_EQ(sw.name, "dut");
  EXPECT_EQ(sw.lcore, 2u);
  ASSERT_EQ(sw.ports.size(), 2u);
  EXPECT_EQ(sw.ports[0].speed_bps, 10'000'000'000u);
  EXPECT_FALSE(sw.ports[0].shape);
  ASSERT_TRUE(sw.ports[1].shape);
  EXPECT_EQ(sw.ports[1].shape->kind, RateKind::kPercentOfLine);
  EXPECT_EQ(sw.ports[1].shape->value, 50);
  EXPECT_EQ(sw.forward, (std::map<std::string, std::string>{{"s1", "s2"}}));
  EXPECT_EQ(sw.classify, SwitchClassify::kDscp);
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
  const SwitchCfg& d = defaults.switches[0];
  EXPECT_EQ(d.classify, SwitchClassify::kPcp);
  EXPECT_EQ(d.lossless, 0);
  EXPECT_EQ(d.pfc_refresh_ns, 0u);
  EXPECT_FALSE(d.ecn);
  EXPECT_FALSE(d.watchdog);
  EXPECT_FALSE(d.pfc_honour);
  EXPECT_FALSE(d.pause_honour);
  EXPECT_EQ(d.pause_reaction_ns, 0u);
  const SwitchCfg obeying = load(cabled_with("pfc_honour = [0, 3]\npause_honour = true\npause_reaction = \"2ms\"\n")).switches[0];
  EXPECT_EQ(obeying.pfc_honour, uint8_t{0x09});
  EXPECT_EQ(obeying.pause_honour, true);
  EXPECT_EQ(obeying.pause_reaction_ns, 2'000'000u);
  EXPECT_EQ(load(cabled_with("pfc_honour = []\n")).switches[0].pfc_honour, uint8_t{0});
}

TEST(LoadToml, SwitchRefusals) {
  const std::string cabled = kCabled;
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
  EXPECT_EQ(load(std::string(kMinimal) + "mac_control_tx = \"netdev\"\n").ports[0].mac_control_tx, MacControlTx::kNetdev);
  EXPECT_EQ(load(std::string(kMinimal) + "mac_control_tx = \"pmd\"\n").ports[0].mac_control_tx, MacControlTx::kPmd);
  EXPECT_EQ(load(kMinimal).ports[0].mac_control_tx, MacControlTx::kAuto);
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
  // A benchmark's frame sizes are held to the same rules, at the procedure's key.
  const auto bench_refusal = [&](const std::string& sizes) {
    try {
      validate_bench_sections(load(stream + "rx_port = \"p0\"\nroce = {}\n[rfc2544]\nframe_sizes = " + sizes + "\n"));
    } catch (const ConfigError& error) {
      return std::string(error.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(bench_refusal("[128]"),
            "test.toml:12:15: key 'rfc2544.frame_sizes': stream 'r': a 128-byte RoCEv2 frame has a 66-byte payload; "
            "InfiniBand payloads are whole 4-byte words: 126 or 130 bytes fit");
  EXPECT_EQ(bench_refusal("[\"imix\"]"),
            "test.toml:12:15: key 'rfc2544.frame_sizes': stream 'r' is RoCEv2, which sends one message size per trial, "
            "not a mix ('imix')");
  EXPECT_EQ(bench_refusal("[126, 1086]"), "(accepted)");
  EXPECT_EQ(error_of(stream + "kind = \"pfc\"\npriorities = [3]\nroce = {}\n"),
            "test.toml:11:8: key 'stream[0].roce': a pfc stream sends MAC Control frames, which have no VLAN, IP or "
            "UDP header");
}

}  // namespace
}  // namespace lr::profile
