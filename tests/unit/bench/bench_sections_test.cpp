// The benchmark sections ([rfc2544], [ndr], [lossless]): defaults, what each key parses
// to, and a procedure that cannot work refused at its key, with the file's line.
#include "control/suites/bench/bench_sections.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>

#include "lib/profile/load_toml.hpp"

namespace lr::bench {
namespace {

using profile::ConfigError;

constexpr const char* kMinimal = R"(
[[port]]
name = "p0"
device = "net_ring0"
)";

BenchProfile load_bench(const std::string& text) {
  return read_bench_sections(profile::load_profile_text(text, "test.toml"), text);
}

// The ConfigError message for `text`, or "(accepted)".
std::string bench_refusal(const std::string& text) {
  try {
    load_bench(text);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "(accepted)";
}

// The benchmark sections: defaults, IMIX, and a procedure that cannot work refused at its key.
TEST(BenchSections, DefaultsImixAndRefusals) {
  const std::string base = std::string(kMinimal) + "speed = \"40G\"\n[[stream]]\nname = \"s\"\ntx_port = \"p0\"\nrx_port = \"p0\"\n";
  const BenchProfile defaults = load_bench(base + "[rfc2544]\n[ndr]\n");
  ASSERT_TRUE(defaults.rfc2544 && defaults.ndr);
  EXPECT_EQ(defaults.rfc2544->tests, std::vector<std::string>{"throughput"});
  ASSERT_EQ(defaults.rfc2544->frame_sizes.size(), 7u);
  EXPECT_EQ(defaults.rfc2544->frame_sizes.back().name, "1518");
  EXPECT_EQ(defaults.rfc2544->trial_duration_ns, 60'000'000'000u);
  EXPECT_EQ(defaults.rfc2544->latency_trials, 20u);
  EXPECT_EQ(defaults.rfc2544->back_to_back_trials, 50u);
  EXPECT_EQ(defaults.ndr->trial_duration_ns, 30'000'000'000u);
  EXPECT_DOUBLE_EQ(defaults.ndr->pdr_loss_tolerance_percent, 0.1);

  const BenchProfile imix = load_bench(base + "[rfc2544]\nframe_sizes = [\"imix\", 128]\n");
  ASSERT_EQ(imix.rfc2544->frame_sizes.size(), 2u);
  EXPECT_TRUE(imix.rfc2544->frame_sizes[0].is_mix());
  EXPECT_NEAR(imix.rfc2544->frame_sizes[0].mean(), (7 * 64 + 4 * 594 + 1518) / 12.0, 1e-9);

  // Percentages written as rates are ("0.1%") or as numbers (0.1) mean the same.
  const BenchProfile percents = load_bench(base + "[ndr]\nresolution = \"0.5%\"\nloss_tolerance = \"0.01 %\"\n"
                                                  "pdr_loss_tolerance = 2\n");
  EXPECT_DOUBLE_EQ(percents.ndr->resolution_percent, 0.5);
  EXPECT_DOUBLE_EQ(percents.ndr->loss_tolerance_percent, 0.01);
  EXPECT_DOUBLE_EQ(percents.ndr->pdr_loss_tolerance_percent, 2);
  EXPECT_EQ(bench_refusal(base + "[ndr]\nresolution = \"0.1 percent\"\n"),
            "test.toml:11:14: key 'ndr.resolution': '0.1 percent' is not a percentage: write e.g. 0.1 or '0.1%'");
  EXPECT_EQ(bench_refusal(base + "[ndr]\nloss_tolerance = \"101%\"\n"),
            "test.toml:11:18: key 'ndr.loss_tolerance': 101 % is out of range [0, 100] %");

  const auto refused = [&](const std::string& section, const std::string& speed = "40G") {
    std::string text = base + section;
    text.replace(text.find("40G"), 3, speed);
    return bench_refusal(text);
  };
  EXPECT_EQ(bench_refusal(base + "[rfc2544]\ntests = [\"latency\"]\n"),
            "test.toml:11:9: key 'rfc2544.tests': latency is measured at each size's throughput (RFC 2544 §26.2): add "
            "\"throughput\"");
  EXPECT_EQ(bench_refusal(base + "[ndr]\nloss_tolerance = 1\npdr_loss_tolerance = 0.5\n"),
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

// [ndr] method = "mlrsearch": default goals from the two tolerances, [[ndr.goals]] read
// with the RFC's attribute names, and goals that could decide nothing refused.
TEST(BenchSections, NdrMlrsearchGoals) {
  const std::string base = std::string(kMinimal) + "speed = \"40G\"\n[[stream]]\nname = \"s\"\ntx_port = \"p0\"\n"
                                                   "rx_port = \"p0\"\n[ndr]\n";
  const BenchProfile defaults = load_bench(base + "method = \"mlrsearch\"\npdr_loss_tolerance = 0.5\n");
  ASSERT_EQ(defaults.ndr->goals.size(), 2u);
  EXPECT_EQ(defaults.ndr->method, "mlrsearch");
  EXPECT_EQ((std::tuple{defaults.ndr->goals[1].name, defaults.ndr->goals[1].loss_ratio, defaults.ndr->goals[1].exceed_ratio,
                        defaults.ndr->goals[1].duration_sum_s}),
            (std::tuple{std::string("pdr"), 0.005, 0.5, 21.0}));
  const BenchProfile own = load_bench(base + "method = \"mlrsearch\"\n[[ndr.goals]]\nname = \"rfc2544\"\nexceed_ratio = 0\n"
                                             "final_trial_duration = \"60s\"\ninitial_trial_duration = \"2s\"\n"
                                             "preceding_targets = 3\nrelative_width = 0.001\n");
  ASSERT_EQ(own.ndr->goals.size(), 1u);
  const MlrGoal& g = own.ndr->goals[0];
  EXPECT_EQ((std::tuple{g.name, g.exceed_ratio, g.final_trial_duration_s, g.initial_trial_duration_s, g.duration_sum_s,
                        g.preceding_targets, g.relative_width}),
            (std::tuple{std::string("rfc2544"), 0.0, 60.0, 2.0, 60.0, 3u, 0.001}));
  EXPECT_EQ(bench_refusal(base + "method = \"mlr\"\n"),
            "test.toml:11:10: key 'ndr.method': 'mlr' is not bisection or mlrsearch");
  EXPECT_EQ(bench_refusal(base + "[[ndr.goals]]\nname = \"a\"\n"),
            "test.toml:11:1: key 'ndr.goals': goals are MLRsearch's: set method = \"mlrsearch\"");
  EXPECT_EQ(bench_refusal(base + "method = \"mlrsearch\"\n[[ndr.goals]]\nfinal_trial_duration = \"2s\"\n"
                                 "duration_sum = \"1s\"\n"),
            "test.toml:14:16: key 'ndr.goals[0].duration_sum': is less than final_trial_duration: no load could be "
            "decided");
  EXPECT_EQ(bench_refusal(base + "method = \"mlrsearch\"\n[[ndr.goals]]\nexceed_ratio = 1\n"),
            "test.toml:13:16: key 'ndr.goals[0].exceed_ratio': 1 is out of range [0, 0.99]");
}

// The tester's ports for [lossless]: a sender that obeys PFC, a receiver, and the stream
// whose headers the cases send. The [lossless] table starts on line 16.
constexpr const char* kLosslessPorts = R"(
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

// [lossless]: what the keys parse to, and a plan that cannot work refused at its key.
TEST(BenchSections, Lossless) {
  const std::string ports = kLosslessPorts;
  const std::string timeline = "[run]\ntimeline = \"10us\"\n";  // last: the keys' lines stay put
  const BenchProfile p = load_bench(ports + R"([lossless]
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

// [lossless]: the refusals of each part of the section (ports, priorities, cases, traffic,
// pause, ecn, headroom) at their keys, and ECN fill depths as written.
TEST(BenchSections, LosslessRefusalsOfEachPart) {
  const std::string ports = kLosslessPorts;
  const std::string timeline = "[run]\ntimeline = \"10us\"\n";
  const auto refused = [&](const std::string& text) { return bench_refusal(ports + text + timeline); };
  const std::string plan = "[lossless]\nsenders = [\"a\"]\nreceiver = \"r\"\nlossless = [3]\nlossy = [0]\n";
  EXPECT_EQ(refused("[lossless]\nsenders = []\nreceiver = \"r\"\nlossless = [3]\nlossy = [0]\n"),
            "test.toml:17:11: key 'lossless.senders': name the tester ports that send through the device");
  EXPECT_EQ(refused("[lossless]\nreceiver = \"r\"\nlossless = [3]\nlossy = [0]\n"),
            "test.toml:16:1: key 'lossless.senders': name the tester ports that send through the device");
  EXPECT_EQ(refused("[lossless]\nsenders = [\"a\"]\nreceiver = \"r\"\nlossy = [0]\n"),
            "test.toml:16:1: key 'lossless.lossless': name the device's lossless priorities, e.g. [3]");
  EXPECT_EQ(refused(plan + "cases = []\n"), "test.toml:21:9: key 'lossless.cases': name at least one case");
  EXPECT_EQ(refused(plan + "duration = \"10ms\"\n"),
            "test.toml:21:12: key 'lossless.duration': a case's traffic lasts at least 20ms");
  EXPECT_EQ(refused(plan + "response_time = \"soon\"\n"),
            "test.toml:21:17: key 'lossless.response_time': 'soon' is not 'auto' or a duration: write e.g. '500ns', "
            "'20us', '100ms', '5s' or '2m'");
  EXPECT_EQ(refused(plan + "quanta = []\n"),
            "test.toml:21:10: key 'lossless.quanta': expected a non-empty array of quanta 0-65535");
  const std::string ecn = "ecn = { kmin = \"50KB\", kmax = \"250KB\", pmax = 0.5, fill = ";
  EXPECT_EQ(refused(plan + ecn + "\"100KB\" }\n"),
            "test.toml:21:59: key 'lossless.ecn.fill': expected an array of queue depths, e.g. [\"100KB\", \"300KB\"]");
  EXPECT_EQ(refused(plan + ecn + "[0] }\n"), "test.toml:21:60: key 'lossless.ecn.fill': expected a queue depth, e.g. '100KB'");
  EXPECT_EQ(refused(plan + "headroom_delays = []\n"),
            "test.toml:21:19: key 'lossless.headroom_delays': expected an array of delays, e.g. [\"1ms\", \"4ms\"]");
  const BenchProfile p = load_bench(ports + plan + ecn + "[\"100KB\", 300000] }\n" + timeline);
  ASSERT_TRUE(p.lossless);
  EXPECT_EQ(p.lossless->ecn_fill_bytes, (std::vector<uint64_t>{100'000, 300'000}));  // as written
}

// A benchmark's RoCEv2 frame sizes are held to the stream's own rules, at the procedure's key.
TEST(BenchSections, RoceFrameSizes) {
  const std::string stream = std::string(kMinimal) + "\n[[stream]]\nname = \"r\"\ntx_port = \"p0\"\n";
  const auto sizes_refusal = [&](const std::string& sizes) {
    return bench_refusal(stream + "rx_port = \"p0\"\nroce = {}\n[rfc2544]\nframe_sizes = " + sizes + "\n");
  };
  EXPECT_EQ(sizes_refusal("[128]"),
            "test.toml:12:15: key 'rfc2544.frame_sizes': stream 'r': a 128-byte RoCEv2 frame has a 66-byte payload; "
            "InfiniBand payloads are whole 4-byte words: 126 or 130 bytes fit");
  EXPECT_EQ(sizes_refusal("[\"imix\"]"),
            "test.toml:12:15: key 'rfc2544.frame_sizes': stream 'r' is RoCEv2, which sends one message size per trial, "
            "not a mix ('imix')");
  EXPECT_EQ(sizes_refusal("[126, 1086]"), "(accepted)");
}

// The data plane ignores the sections (a typo in one is the suite's to refuse, not its).
// [rfc2889]: the suite makes its own frames: ports, no [[stream]]; the address tests know
// the device's aging time and fit within it.
TEST(BenchSections, Rfc2889) {
  std::string ports;
  for (int i = 1; i <= 4; ++i) ports += "[[port]]\nname = \"t" + std::to_string(i) + "\"\ndevice = \"net_ring" + std::to_string(i) + "\"\n";
  const std::string base = ports + "[rfc2889]\nports = [\"t1\", \"t2\", \"t3\", \"t4\"]\n";
  const BenchProfile defaults = load_bench(base + "age_time = \"300s\"\n");
  ASSERT_TRUE(defaults.rfc2889);
  const Rfc2889Cfg& d = *defaults.rfc2889;
  EXPECT_EQ(d.tests.size(), 9u);
  EXPECT_EQ(d.frame_sizes, (std::vector<uint16_t>{64, 128, 256, 512, 1024, 1280, 1518}));
  EXPECT_EQ(d.loads_percent.size(), 10u);
  EXPECT_EQ(d.trial_duration_ns, 30'000'000'000u);
  EXPECT_EQ(d.age_time_ns, 300'000'000'000u);
  EXPECT_EQ(d.learning_frames, 0u);
  EXPECT_EQ(d.oversize_bytes, 1519);

  const BenchProfile set = load_bench(base + "tests = [\"fully_meshed\", \"address_caching\"]\nframe_sizes = [64]\n"
                                             "loads = [\"100%\", \"50%\", \"50%\"]\nage_time = \"1s\"\n"
                                             "address_rate = 20000\nmax_addresses = 10000\nresolution = \"0.5%\"\n");
  EXPECT_EQ(set.rfc2889->loads_percent, (std::vector<double>{50, 100}));  // sorted, once each
  EXPECT_EQ(set.rfc2889->max_addresses, 10000u);
  EXPECT_DOUBLE_EQ(set.rfc2889->resolution_percent, 0.5);

  EXPECT_EQ(
      bench_refusal(base + "tests = [\"fully_mashed\"]\n"),
      "test.toml:15:9: key 'rfc2889.tests': 'fully_mashed' is not a test of [rfc2889]: fully_meshed, partially_meshed, "
      "multiple_devices, unidirectional, congestion_control, forward_pressure, address_caching, address_learning, "
      "errored_frames, broadcast, neighbor_caching, neighbor_reresolution");
  // §5.3 runs where the devices are given, and only then.
  const BenchProfile two = load_bench(base + "age_time = \"300s\"\ndevices = [[\"t1\", \"t2\"], [\"t3\", \"t4\"]]\n");
  EXPECT_EQ(two.rfc2889->tests.size(), 10u);
  EXPECT_EQ(two.rfc2889->devices, (std::vector<std::vector<std::string>>{{"t1", "t2"}, {"t3", "t4"}}));
  EXPECT_EQ(bench_refusal(base + "tests = [\"multiple_devices\"]\n"),
            "test.toml:15:9: key 'rfc2889.tests': multiple_devices needs `devices`: the ports on each device, e.g. "
            "devices = [[\"t1\", \"t2\"], [\"t3\", \"t4\"]]");
  EXPECT_EQ(bench_refusal(base + "tests = [\"broadcast\"]\ndevices = [[\"t1\", \"t2\"], [\"t2\", \"t3\", \"t4\"]]\n"),
            "test.toml:16:11: key 'rfc2889.devices': port 't2' is on 2 devices: each of `ports` is on exactly one");
  EXPECT_EQ(bench_refusal(base), "test.toml:13:1: key 'rfc2889.age_time': is required for address_caching: the "
                                 "device's address aging time, waited out between trials so that each starts with an "
                                 "empty table (e.g. '300s')");
  EXPECT_EQ(bench_refusal(base + "age_time = \"500ms\"\n"),
            "test.toml:13:1: key 'rfc2889.max_addresses': 8192 addresses at 1000 frames/s wait up to 8.202 s between "
            "their learning and test frames, not within age_time (0.5 s): they would age first; raise address_rate or "
            "lower max_addresses");
  EXPECT_EQ(bench_refusal(ports + "[rfc2889]\nports = [\"t1\", \"t2\", \"t3\"]\ntests = [\"congestion_control\"]\n"),
            "test.toml:14:9: key 'rfc2889.ports': congestion_control needs 4 ports (two senders, a congested and an "
            "uncongested receiver); 3 named");
  EXPECT_EQ(bench_refusal(ports + "[rfc2889]\nports = [\"t1\", \"t9\"]\ntests = [\"broadcast\"]\n"),
            "test.toml:14:9: key 'rfc2889.ports': no [[port]] is named 't9'");
  EXPECT_EQ(bench_refusal(base + "tests = [\"broadcast\"]\nframe_sizes = [1519]\n"),
            "test.toml:16:15: key 'rfc2889.frame_sizes': 1519-byte frames carry 1501-byte packets, above port 't1''s "
            "MTU of 1500: set its [[port]] mtu");
}

// The neighbour tests' profile: a sender on port a, 80 hosts on port b in another subnet.
// [rfc2889] starts on line 25; sender_device is on line 27, hosts_device on 28.
constexpr const char* kNeighborProfile = R"(
[[port]]
name = "a"
device = "net_ring0"
[[port]]
name = "b"
device = "net_ring1"
[[port]]
name = "c"
device = "net_ring2"
[[port]]
name = "d"
device = "net_ring3"
[[device]]
name = "left"
port = "a"
mac = "02:00:00:00:0a:01"
ipv4 = { address = "198.18.0.1", prefix = 24, gateway = "198.18.0.254" }
[[device]]
name = "right"
port = "b"
mac = "02:00:00:00:0b:01"
count = 80
ipv4 = { address = "198.19.0.1", prefix = 24, gateway = "198.19.0.254" }
[rfc2889]
ports = ["a", "b", "c", "d"]
sender_device = "left"
hosts_device = "right"
)";

// `text` with its one `from` replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// [rfc2889]'s neighbour tests: their keys as read, and their defaults.
TEST(BenchSections, Rfc2889NeighborKeys) {
  const std::string both =
      std::string(kNeighborProfile) + "tests = [\"neighbor_caching\", \"neighbor_reresolution\"]\n";
  const BenchProfile defaults = load_bench(both);
  ASSERT_TRUE(defaults.rfc2889);
  const Rfc2889Cfg& d = *defaults.rfc2889;
  EXPECT_EQ(d.tests, (std::vector<std::string>{"neighbor_caching", "neighbor_reresolution"}));
  EXPECT_EQ(d.sender_device, "left");
  EXPECT_EQ(d.hosts_device, "right");
  EXPECT_EQ(d.min_hosts, 1u);
  EXPECT_EQ(d.max_hosts, 0u);  // hosts_device's count
  EXPECT_DOUBLE_EQ(d.host_rate_fps, 1000);
  EXPECT_EQ(d.reresolution_hosts, 8u);
  EXPECT_DOUBLE_EQ(d.reresolution_rate_fps, 10'000);
  EXPECT_EQ(d.link_down_ns, 500'000'000u);

  const BenchProfile set = load_bench(both +
                                      "min_hosts = 10\nmax_hosts = 80\nhost_rate = 2000\n"
                                      "reresolution_hosts = 64\nreresolution_rate = 8000\nlink_down = \"60s\"\n");
  const Rfc2889Cfg& s = *set.rfc2889;
  EXPECT_EQ((std::tuple{s.min_hosts, s.max_hosts, s.reresolution_hosts, s.link_down_ns}),
            (std::tuple{10u, 80u, 64u, uint64_t{60'000'000'000}}));
  EXPECT_DOUBLE_EQ(s.host_rate_fps, 2000);
  EXPECT_DOUBLE_EQ(s.reresolution_rate_fps, 8000);
  // The other ends of the ranges.
  const BenchProfile low = load_bench(both + "min_hosts = 80\nreresolution_hosts = 1\nlink_down = \"10ms\"\n");
  EXPECT_EQ((std::tuple{low.rfc2889->min_hosts, low.rfc2889->reresolution_hosts, low.rfc2889->link_down_ns}),
            (std::tuple{80u, 1u, uint64_t{10'000'000}}));
}

// The default list gains the neighbour tests where hosts_device is given, and only there.
TEST(BenchSections, Rfc2889NeighborTestsRunByDefaultWhereHostsDeviceIsGiven) {
  const std::string profile = std::string(kNeighborProfile) + "age_time = \"300s\"\n";
  const std::vector<std::string> nine = {"fully_meshed",       "partially_meshed", "unidirectional",
                                         "congestion_control", "forward_pressure", "address_caching",
                                         "address_learning",   "errored_frames",   "broadcast"};
  std::vector<std::string> eleven = nine;
  eleven.insert(eleven.end(), {"neighbor_caching", "neighbor_reresolution"});
  EXPECT_EQ(load_bench(profile).rfc2889->tests, eleven);
  const std::string without_hosts = replaced(profile, "hosts_device = \"right\"\n", "");
  EXPECT_EQ(load_bench(without_hosts).rfc2889->tests, nine);  // sender_device alone runs nothing more
  EXPECT_EQ(load_bench(replaced(without_hosts, "sender_device = \"left\"\n", "")).rfc2889->tests, nine);
  // hosts_device alone asks for the tests, which need the sender too.
  EXPECT_EQ(bench_refusal(replaced(profile, "sender_device = \"left\"\n", "")),
            "test.toml:25:1: key 'rfc2889.tests': the neighbour tests need `sender_device`: the [[device]] whose first "
            "host sends through the device (sender_device = \"left\", hosts_device = \"right\")");
}

// The neighbour tests' refusals, each at its key.
TEST(BenchSections, Rfc2889NeighborRefusals) {
  const std::string profile = kNeighborProfile;
  const std::string tests = "tests = [\"neighbor_caching\", \"neighbor_reresolution\"]\n";  // line 29
  const auto refused = [&](const std::string& text) { return bench_refusal(text + tests); };
  const auto with_keys = [&](const std::string& keys) { return bench_refusal(profile + tests + keys); };

  // Either test without a device it needs (tests now on line 28).
  EXPECT_EQ(refused(replaced(profile, "sender_device = \"left\"\n", "")),
            "test.toml:28:9: key 'rfc2889.tests': the neighbour tests need `sender_device`: the [[device]] whose first "
            "host sends through the device (sender_device = \"left\", hosts_device = \"right\")");
  EXPECT_EQ(
      bench_refusal(replaced(profile, "hosts_device = \"right\"\n", "") + "tests = [\"neighbor_reresolution\"]\n"),
      "test.toml:28:9: key 'rfc2889.tests': the neighbour tests need `hosts_device`: the [[device]] whose hosts "
      "the frames go to through the device (sender_device = \"left\", hosts_device = \"right\")");

  // The devices: named, with IPv4, the sender's with a gateway, on two ports, in two subnets.
  EXPECT_EQ(refused(replaced(profile, "sender_device = \"left\"", "sender_device = \"lefty\"")),
            "test.toml:27:17: key 'rfc2889.sender_device': no [[device]] is named 'lefty'");
  EXPECT_EQ(refused(replaced(profile, "hosts_device = \"right\"", "hosts_device = \"a\"")),
            "test.toml:28:16: key 'rfc2889.hosts_device': no [[device]] is named 'a'");  // a port's name
  const std::string hosts_ipv4 = "ipv4 = { address = \"198.19.0.1\", prefix = 24, gateway = \"198.19.0.254\" }";
  EXPECT_EQ(
      refused(replaced(profile, hosts_ipv4, "ipv6 = { address = \"2001:db8:b::1\", prefix = 64 }")),
      "test.toml:28:16: key 'rfc2889.hosts_device': [[device]] 'right' has no ipv4: the neighbour tests send IPv4");
  const std::string sender_ipv4 = "ipv4 = { address = \"198.18.0.1\", prefix = 24, gateway = \"198.18.0.254\" }";
  EXPECT_EQ(
      refused(replaced(profile, sender_ipv4, "ipv6 = { address = \"2001:db8:a::1\", prefix = 64 }")),
      "test.toml:27:17: key 'rfc2889.sender_device': [[device]] 'left' has no ipv4: the neighbour tests send IPv4");
  EXPECT_EQ(refused(replaced(profile, sender_ipv4, "ipv4 = { address = \"198.18.0.1\", prefix = 24 }")),
            "test.toml:27:17: key 'rfc2889.sender_device': [[device]] 'left' has no ipv4 gateway: its frames go to the "
            "router it resolves");
  EXPECT_EQ(refused(replaced(profile, "port = \"b\"", "port = \"a\"")),
            "test.toml:28:16: key 'rfc2889.hosts_device': 'right' is on port 'a', as sender_device is: the frames must "
            "cross the device from one port to another");
  const auto hosts_at = [&](const std::string& ipv4) { return refused(replaced(profile, hosts_ipv4, ipv4)); };
  EXPECT_EQ(hosts_at("ipv4 = { address = \"198.18.0.101\", prefix = 24, gateway = \"198.18.0.254\" }"),
            "test.toml:28:16: key 'rfc2889.hosts_device': 'right' is on sender_device's own subnet (/24): the frames "
            "would not be routed");
  // The sender's prefix draws the line: from 198.18.0.1/25, .129 is routed to, .127 is not.
  const std::string narrow = replaced(
      replaced(profile, sender_ipv4, "ipv4 = { address = \"198.18.0.1\", prefix = 25, gateway = \"198.18.0.126\" }"),
      hosts_ipv4, "ipv4 = { address = \"198.18.0.129\", prefix = 25, gateway = \"198.18.0.254\" }");
  EXPECT_EQ(refused(narrow), "(accepted)");
  EXPECT_EQ(
      refused(replaced(narrow, "address = \"198.18.0.129\", prefix = 25", "address = \"198.18.0.127\", prefix = 24")),
      "test.toml:28:16: key 'rfc2889.hosts_device': 'right' is on sender_device's own subnet (/25): the frames "
      "would not be routed");

  // A later host on the sender's subnet is refused too, named: from 198.18.0.60, host 68 is 198.18.0.128.
  EXPECT_EQ(
      refused(replaced(replaced(profile, sender_ipv4,
                                "ipv4 = { address = \"198.18.0.129\", prefix = 25, gateway = \"198.18.0.254\" }"),
                       hosts_ipv4, "ipv4 = { address = \"198.18.0.60\", prefix = 24, gateway = \"198.18.0.1\" }")),
      "test.toml:28:16: key 'rfc2889.hosts_device': 'right[68]' (198.18.0.128) is on sender_device's own subnet "
      "(/25): the frames would not be routed");

  // The search's ends: within hosts_device's count, the lower below the upper.
  EXPECT_EQ(with_keys("max_hosts = 81\n"),
            "test.toml:30:13: key 'rfc2889.max_hosts': 81 is more than [[device]] 'right' has (count = 80)");
  EXPECT_EQ(with_keys("min_hosts = 81\n"),
            "test.toml:30:13: key 'rfc2889.min_hosts': 81 is more than [[device]] 'right' has (count = 80)");
  EXPECT_EQ(with_keys("min_hosts = 41\nmax_hosts = 40\n"),
            "test.toml:30:13: key 'rfc2889.min_hosts': 41 is above max_hosts (40)");
  EXPECT_EQ(with_keys("min_hosts = 40\nmax_hosts = 40\n"), "(accepted)");

  // The flap and the hosts timed.
  for (const char* down : {"\"9ms\"", "\"61s\""})
    EXPECT_EQ(with_keys(std::string("link_down = ") + down + "\n"),
              "test.toml:30:13: key 'rfc2889.link_down': from 10ms to 60s: how long the hosts' port's link stays down");
  EXPECT_EQ(with_keys("reresolution_hosts = 0\n"),
            "test.toml:30:22: key 'rfc2889.reresolution_hosts': 0 is out of range [1, 64]");
  EXPECT_EQ(with_keys("reresolution_hosts = 65\n"),
            "test.toml:30:22: key 'rfc2889.reresolution_hosts': 65 is out of range [1, 64]");
}

TEST(BenchSections, TheDataPlaneIgnoresThemTheSuitesReadThem) {
  const std::string text = std::string(kMinimal) + "[[stream]]\nname = \"s\"\ntx_port = \"p0\"\nrx_port = \"p0\"\n"
                                                   "[rfc2544]\ntrial_duraton = \"1s\"\n";
  EXPECT_NO_THROW(profile::load_profile_text(text, "test.toml"));
  EXPECT_EQ(bench_refusal(text), "test.toml:10:1: key 'rfc2544.trial_duraton': unknown key: did you mean "
                                 "'trial_duration'? (see config/README.md for the schema)");
  EXPECT_EQ(bench_refusal(std::string(kMinimal) + "rfc2544 = 5\n"),
            "test.toml:5:1: key 'port[0].rfc2544': unknown key (see config/README.md for the schema)");
}

TEST(BenchSections, ShippedExamplesRead) {
  size_t with_sections = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(LR_SOURCE_ROOT) + "/config/examples")) {
    if (entry.path().extension() != ".toml") continue;
    const std::string path = entry.path().string();
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    BenchProfile read;
    EXPECT_NO_THROW(read = read_bench_sections(profile::load_profile_file(path), text.str())) << path;
    with_sections += read.rfc2544 || read.ndr || read.lossless || read.rfc2889 ? 1 : 0;
  }
  EXPECT_GE(with_sections, 2u);  // benchmark_switch.toml, lossless_plan.toml
}

}  // namespace
}  // namespace lr::bench
