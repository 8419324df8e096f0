// The engine on net_ring (TX comes back on RX of the same port) and net_null: exact
// counts, every mbuf back in its pool. Each test uses its own vdev: a finished engine
// closes its ports, and a closed vdev is gone for the rest of the process.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rte_cycles.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <thread>

#include "dataplane/engine/engine.hpp"
#include "dataplane/engine/oneshot.hpp"
#include "lib/profile/load_toml.hpp"
#include "tests/support/eal_env.hpp"

namespace lr::test {

std::vector<std::string> eal_test_args() {
  // Three lcores on the CI machine's two CPUs: workers 1 and 2 share CPU 1.
  return {"vdev_loopback_ring", "--lcores=0@0,1@1,2@1", "--no-huge", "-m", "512", "--no-pci", "--no-shconf",
          "--log-level", "lib.eal:warning",
          "--vdev=net_ring0", "--vdev=net_ring1", "--vdev=net_ring2", "--vdev=net_ring3", "--vdev=net_ring4", "--vdev=net_ring5", "--vdev=net_ring6", "--vdev=net_ring7", "--vdev=net_ring8",
          "--vdev=net_ring10", "--vdev=net_ring11", "--vdev=net_ring12", "--vdev=net_ring13", "--vdev=net_ring14", "--vdev=net_ring15", "--vdev=net_ring16",
          "--vdev=net_ring17", "--vdev=net_ring18", "--vdev=net_ring19", "--vdev=net_ring20", "--vdev=net_ring21", "--vdev=net_ring22",
          "--vdev=net_ring23", "--vdev=net_ring24", "--vdev=net_null0"};
}

namespace {

dp::RunReport run(const std::string& toml) {
  const profile::Profile profile = profile::load_profile_text(toml, "vdev-test.toml");
  auto engine = dp::Engine::create(profile);
  EXPECT_TRUE(engine) << (engine ? "" : to_string(engine.error()));
  if (!engine) return {};
  std::atomic<bool> interrupt{false};
  auto report = dp::run_oneshot(**engine, interrupt, nullptr);
  EXPECT_TRUE(report);
  return report ? *report : dp::RunReport{};
}

// Why the host spoiled a run for a check that a stall of `limit_us` or more in `window`
// (seconds since the run started) could move: a tester lcore held up that long there (the
// evidence the report carries), or "".
struct Window {
  double from_s = 0;
  double to_s = std::numeric_limits<double>::infinity();
};
std::string held_up(const dp::RunReport& r, double limit_us, Window window) {
  for (const api::LcoreStalls& l : r.lcores)
    for (const api::Stall& stall : l.longest_stalls)
      if (api::stall_overlaps(stall, window.from_s, window.to_s, limit_us))
        return fmt::format("the host held lcore {} up for {:.0f} us at {:.4f} s (the checks allow {:.0f} us)", l.lcore,
                           stall.us, stall.from_s, limit_us);
  return "";
}

// Runs `profile_on(device)` on each device in turn (an engine closes its ports: each run
// needs its own) until a run the host did not spoil (held_up) where its checks look:
// that run, or none when every one was spoiled, with `not_judged` saying why.
// Each spoiled run is said.
std::optional<dp::RunReport> run_unspoiled(const std::function<std::string(const std::string&)>& profile_on,
                                           std::initializer_list<const char*> devices, double limit_us,
                                           std::string& not_judged, Window window = {}) {
  for (const char* device : devices) {
    dp::RunReport r = run(profile_on(device));
    not_judged = held_up(r, limit_us, window);
    if (not_judged.empty()) return r;
    std::printf("not judged, run again: %s\n", not_judged.c_str());
  }
  not_judged = fmt::format("not judged: {} runs were all spoiled by the host; the last: {}", devices.size(), not_judged);
  return std::nullopt;
}

TEST(LoopbackRing, TwoStreamsCountExactlyAndMbufsReturn) {
  const dp::RunReport r = run(R"(
[run]
drain = "100ms"
[[port]]
name = "p0"
device = "net_ring0"
speed = "10G"
[[stream]]
name = "vlan64"
tx_port = "p0"
rx_port = "p0"
frame_size = 64
rate = "500kpps"
count = 100000
vlan = { id = 100, pcp = 3 }
[[stream]]
name = "imix6"
tx_port = "p0"
rx_port = "p0"
frame_size = [90, 594, 1518]
frame_weights = [7, 4, 1]
rate = "max"
count = 60000
ipv6 = { src = "2001:200::1", dst = "2001:200::2" }
vary = [ { field = "udp.src", count = 64 } ]
)");
  ASSERT_EQ(r.streams.size(), 2u);
  const dp::StreamReport& a = r.streams[0];
  EXPECT_EQ(a.tx_packets, 100000u);
  EXPECT_EQ(a.rx_packets, 100000u);
  EXPECT_EQ(a.tx_bytes, 100000u * 64);
  EXPECT_EQ(a.rx_bytes, 100000u * 64);
  EXPECT_EQ(a.lost, 0);
  EXPECT_EQ(a.duplicate, 0u);
  EXPECT_EQ(a.out_of_order, 0u);
  EXPECT_EQ(a.latency.samples, 100000u);
  EXPECT_LE(a.latency.min_ns, a.latency.p50_ns);
  EXPECT_LE(a.latency.p50_ns, a.latency.max_ns);
  const dp::StreamReport& b = r.streams[1];
  EXPECT_EQ(b.tx_packets, 60000u);
  EXPECT_EQ(b.rx_packets, 60000u);
  // 60000 frames = 5000 cycles of the 12-slot 7:4:1 schedule.
  EXPECT_EQ(b.tx_bytes, 5000u * (7 * 90 + 4 * 594 + 1518));
  EXPECT_EQ(b.lost, 0);
  ASSERT_EQ(r.ports.size(), 1u);
  EXPECT_EQ(r.ports[0].counters.opackets, 160000u);
  EXPECT_EQ(r.ports[0].counters.ipackets, 160000u);
  EXPECT_EQ(r.ports[0].rx_no_signature, 0u);
  EXPECT_EQ(r.mbufs_not_returned, 0u);
  EXPECT_FALSE(r.interrupted);
}

// One stream over two TX queues on two lcores, received on two RX queues by two
// lcores: per-lcore trackers merge to exact totals.
TEST(LoopbackRing, StreamSpreadOverQueuesAndLcoresMergesExactly) {
  const dp::RunReport r = run(R"(
[run]
drain = "100ms"
[[port]]
name = "p1"
device = "net_ring1"
speed = "10G"
rx_queues = 2
tx_queues = 2
[[stream]]
name = "two-lanes"
tx_port = "p1"
rx_port = "p1"
frame_size = 128
rate = "200kpps"
count = 40001
lanes = 2
)");
  ASSERT_EQ(r.streams.size(), 1u);
  EXPECT_EQ(r.streams[0].tx_packets, 40001u);
  EXPECT_EQ(r.streams[0].rx_packets, 40001u);
  EXPECT_EQ(r.streams[0].lost, 0);
  EXPECT_EQ(r.streams[0].out_of_order, 0u);
  EXPECT_EQ(r.streams[0].latency.samples, 40001u);
  EXPECT_EQ(r.mbufs_not_returned, 0u);
}

TEST(LoopbackRing, BurstsDeliverExactCount) {
  const dp::RunReport r = run(R"(
[run]
drain = "50ms"
[[port]]
name = "p4"
device = "net_ring4"
speed = "10G"
[[stream]]
name = "bursty"
tx_port = "p4"
rx_port = "p4"
frame_size = 256
rate = "max"
count = 1000
burst = { packets = 100, interval = "2ms" }
)");
  ASSERT_EQ(r.streams.size(), 1u);
  EXPECT_EQ(r.streams[0].tx_packets, 1000u);
  EXPECT_EQ(r.streams[0].rx_packets, 1000u);
  EXPECT_EQ(r.streams[0].lost, 0);
  // Ten bursts 2 ms apart: the last starts 18 ms after the first.
  EXPECT_GE(r.duration_s, 0.018);
  EXPECT_EQ(r.mbufs_not_returned, 0u);
}

// A paced stream never sends more than its deadlines allow: 0.2 s at 100 kpps has
// 20000 frames due in [0, 0.2 s). (CI never asserts a lower bound on rates.)
TEST(LoopbackRing, DurationModeNeverExceedsTheRate) {
  const dp::RunReport r = run(R"(
[run]
drain = "50ms"
[[port]]
name = "p5"
device = "net_ring5"
speed = "10G"
[[stream]]
name = "timed"
tx_port = "p5"
rx_port = "p5"
frame_size = 64
rate = "100kpps"
duration = "200ms"
)");
  ASSERT_EQ(r.streams.size(), 1u);
  EXPECT_LE(r.streams[0].tx_packets, 20000u);
  EXPECT_GT(r.streams[0].tx_packets, 0u);
  EXPECT_EQ(r.streams[0].rx_packets, r.streams[0].tx_packets);
  EXPECT_EQ(r.streams[0].lost, 0);
}

// The control surface while traffic runs: live per-stream stats, a rate change, one
// stream stopped while the other goes on; the final numbers stay exact.
TEST(LoopbackRing, LiveStatsRateChangeAndStopWhileRunning) {
  const profile::Profile profile = profile::load_profile_text(R"(
[run]
drain = "100ms"
[[port]]
name = "p6"
device = "net_ring6"
speed = "10G"
[[stream]]
name = "changing"
tx_port = "p6"
rx_port = "p6"
frame_size = 64
rate = "200kpps"
[[stream]]
name = "steady"
tx_port = "p6"
rx_port = "p6"
frame_size = 128
rate = "50kpps"
)", "vdev-test.toml");
  auto engine = dp::Engine::create(profile);
  ASSERT_TRUE(engine) << to_string(engine.error());
  dp::Engine& e = **engine;
  ASSERT_TRUE(e.start());
  std::this_thread::sleep_for(std::chrono::milliseconds(300));

  const std::vector<dp::StreamReport> live = e.live_stream_stats();
  ASSERT_EQ(live.size(), 2u);
  EXPECT_GT(live[0].tx_packets, 0u);
  EXPECT_LE(live[0].rx_packets, live[0].tx_packets);
  EXPECT_EQ(live[0].duplicate, 0u);
  EXPECT_EQ(live[0].latency.samples, live[0].rx_packets);

  // Down to 1 kpps: from here on at most 1 frame a millisecond (+ the frame due at the
  // change). An upper bound only: CI never asserts that a rate was reached.
  auto pps = e.set_stream_rate("changing", api::Rate{api::RateKind::kPps, 1000});
  ASSERT_TRUE(pps);
  EXPECT_EQ(*pps, 1000.0);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // every lane has taken it
  // The clock starts before the first reading, so that frames sent while this thread waits
  // to be scheduled between the two fall inside the measured time (a loaded CI machine).
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t tx_before = e.live_stream_stats()[0].tx_packets;
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const uint64_t tx_after = e.live_stream_stats()[0].tx_packets;
  const double elapsed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LE(static_cast<double>(tx_after - tx_before), elapsed_ms + 2);

  EXPECT_FALSE(e.set_stream_rate("changing", api::Rate{api::RateKind::kPps, 30e6}));  // above 10G
  EXPECT_FALSE(e.set_stream_rate("nonexistent", api::Rate{api::RateKind::kPps, 1}));

  ASSERT_TRUE(e.stop_stream("changing"));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const uint64_t stopped_at = e.live_stream_stats()[0].tx_packets;
  const uint64_t steady_at = e.live_stream_stats()[1].tx_packets;
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(e.live_stream_stats()[0].tx_packets, stopped_at);
  EXPECT_GT(e.live_stream_stats()[1].tx_packets, steady_at);
  EXPECT_FALSE(e.tx_finished());

  const dp::RunReport r = e.finish(false);
  for (const dp::StreamReport& s : r.streams) {
    EXPECT_EQ(s.rx_packets, s.tx_packets) << s.name;
    EXPECT_EQ(s.lost, 0) << s.name;
    EXPECT_EQ(s.out_of_order, 0u) << s.name;
  }
  EXPECT_EQ(r.streams[0].tx_packets, stopped_at);
  EXPECT_EQ(r.streams[0].target_pps, 1000.0);
  EXPECT_EQ(r.mbufs_not_returned, 0u);
}

// A service keeps its ports between runs: each run counts from zero, the port
// counters in each report are that run's, and the set of streams can change between.
TEST(LoopbackRing, RunsAgainOnTheSamePortsWithNewStreams) {
  const profile::Profile profile = profile::load_profile_text(R"(
[run]
drain = "50ms"
[[port]]
name = "p7"
device = "net_ring7"
speed = "10G"
[[stream]]
name = "first"
tx_port = "p7"
rx_port = "p7"
rate = "max"
count = 5000
)", "vdev-test.toml");
  auto engine = dp::Engine::create(profile);
  ASSERT_TRUE(engine) << to_string(engine.error());
  dp::Engine& e = **engine;
  for (int run = 0; run < 2; ++run) {
    ASSERT_TRUE(e.start());
    while (!e.tx_finished()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const dp::RunReport r = e.finish(false, dp::AfterRun::kKeepPorts);
    ASSERT_EQ(r.streams.size(), 1u);
    EXPECT_EQ(r.streams[0].tx_packets, 5000u) << "run " << run;
    EXPECT_EQ(r.streams[0].rx_packets, 5000u) << "run " << run;
    EXPECT_EQ(r.ports[0].counters.opackets, 5000u) << "run " << run;
    EXPECT_EQ(r.mbufs_not_returned, 0u);
  }
  std::vector<api::StreamSpec> streams = e.profile().streams;
  streams[0].name = "second";
  streams[0].count = 700;
  streams.push_back(streams[0]);
  streams[1].name = "third";
  streams[1].frame.sizes = {1000};
  ASSERT_TRUE(e.set_streams(streams));
  ASSERT_TRUE(e.start());
  EXPECT_EQ(e.set_streams(streams).error().code, Errc::kBusy);  // not while running
  while (!e.tx_finished()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const dp::RunReport r = e.finish(false);
  ASSERT_EQ(r.streams.size(), 2u);
  EXPECT_EQ(r.streams[0].rx_packets, 700u);
  EXPECT_EQ(r.streams[1].rx_bytes, 700u * 1000);
  EXPECT_EQ(r.ports[0].counters.opackets, 1400u);
  EXPECT_EQ(r.mbufs_not_returned, 0u);

  streams[1].tx_port = "nowhere";
  auto refused = e.set_streams(streams);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().context, "stream 'third': no [[port]] is named 'nowhere'");
}

// MAC Control frames on a port that hands them to software: each carries the signature
// in its padding, so a looped-back PFC or PAUSE stream is counted frame for frame like
// any other (the basis of counting the PFC a device under test sends back).
TEST(LoopbackRing, PfcAndPauseFramesAreSentAndCountedExactly) {
  const dp::RunReport r = run(R"(
[run]
drain = "100ms"
[[port]]
name = "p0"
device = "net_ring8"
speed = "40G"
[[stream]]
name = "pfc3"
tx_port = "p0"
rx_port = "p0"
kind = "pfc"
priorities = [3]
rate = "200kpps"
count = 20000
[[stream]]
name = "pause"
tx_port = "p0"
rx_port = "p0"
kind = "pause"
quanta = 0
rate = "max"
count = 5000
)");
  ASSERT_EQ(r.streams.size(), 2u);
  for (const auto& [index, frames] : {std::pair{0, 20000u}, std::pair{1, 5000u}}) {
    const dp::StreamReport& s = r.streams[index];
    EXPECT_EQ(s.tx_packets, frames) << s.name;
    EXPECT_EQ(s.rx_packets, frames) << s.name;
    EXPECT_EQ(s.tx_bytes, uint64_t{frames} * 64) << s.name;
    EXPECT_EQ(s.lost, 0) << s.name;
    EXPECT_EQ(s.out_of_order, 0u) << s.name;
  }
  EXPECT_EQ(r.ports[0].rx_no_signature, 0u);
  // The port's MAC Control counts: the same frames, by priority and opcode.
  ASSERT_TRUE(r.ports[0].mac_control.has_value());
  const api::MacControlReport& mc = *r.ports[0].mac_control;
  EXPECT_EQ(mc.pfc_frames, 20000u);
  EXPECT_EQ(mc.pause_frames, 5000u);
  EXPECT_EQ(mc.other_frames, 0u);
  ASSERT_EQ(mc.pfc.size(), 1u);
  EXPECT_EQ(mc.pfc[0].priority, 3);
  EXPECT_EQ(mc.pfc[0].xoff, 20000u);
  EXPECT_EQ(mc.pfc[0].xon, 0u);
  EXPECT_EQ(mc.pfc[0].quanta, 20000u * 65535u);
  EXPECT_DOUBLE_EQ(mc.pfc[0].pause_ns, 20000.0 * 65535 * 512 / 40e9 * 1e9);
  ASSERT_TRUE(mc.pause.has_value());
  EXPECT_EQ(mc.pause->xoff, 0u);
  EXPECT_EQ(mc.pause->xon, 5000u);
  EXPECT_EQ(mc.pause->quanta, 0u);
  EXPECT_GT(mc.first_s, 0.0);
  EXPECT_GE(mc.last_s, mc.first_s);
  EXPECT_LT(mc.last_s, r.duration_s + 1.0);
  EXPECT_EQ(r.mbufs_not_returned, 0u);
}

// A looped 10G port whose RX and TX queues share lcore 1, with `keys` added to it.
std::string looped_port(const std::string& device, const std::string& keys) {
  return "[run]\ndrain = \"100ms\"\n[[port]]\nname = \"p0\"\ndevice = \"" + device +
         "\"\nspeed = \"10G\"\nrx_lcores = [1]\ntx_lcores = [1]\n" + keys + "\n";
}

// 100 kpps of priority 3 (its VLAN tag's PCP) looped on p0; its limit follows.
constexpr const char* kPriority3Stream = R"([[stream]]
name = "prio3"
tx_port = "p0"
rx_port = "p0"
vlan = { id = 10, pcp = 3 }
rate = "100kpps"
)";

// pfc_honour on a looped port: it hears its own PFC frames, ten XOFF for priority 3 at
// the refresh rate of a 10G port (596.05 frames/s: a pause of 65535 quanta, 3.355 ms,
// restarted every 1.678 ms), so priority 3 is held from the first frame until the last
// one's pause runs out: 9 / 596.05 s + 3.355 ms = 18.455 ms. Priority 5 is never held.
// Priority 3 and priority 5 at 100 kpps for `duration`, and ten XOFF for priority 3.
std::string held_and_free_streams(const std::string& duration) {
  const std::string lasting = "duration = \"" + duration + "\"\n";
  return kPriority3Stream + lasting + R"([[stream]]
name = "prio5"
tx_port = "p0"
rx_port = "p0"
vlan = { id = 10, pcp = 5 }
rate = "100kpps"
)" + lasting + R"([[stream]]
name = "xoff3"
tx_port = "p0"
kind = "pfc"
priorities = [3]
refresh = "auto"
count = 10
)";
}

TEST(LoopbackRing, PfcHonouredHoldsOnlyThePausedPriorityAndLosesNothing) {
  const std::string streams = held_and_free_streams("200ms");
  // The checks hold while the lcore is never held up past its pacers' 64-frame catch-up
  // (640 us at 100 kpps); a run where the host held it up longer is run again.
  std::string not_judged;
  const auto honoured_run = run_unspoiled(
      [&](const std::string& device) { return looped_port(device, "pfc_honour = true") + streams; },
      {"net_ring10", "net_ring17", "net_ring18"}, 600, not_judged);
  if (!honoured_run) GTEST_SKIP() << not_judged;
  const dp::RunReport& honoured = *honoured_run;
  ASSERT_EQ(honoured.streams.size(), 3u);
  const dp::StreamReport& held = honoured.streams[0];
  const dp::StreamReport& free = honoured.streams[1];
  ASSERT_TRUE(held.paused_ns.has_value());
  const double paused_ms = static_cast<double>(*held.paused_ns) / 1e6;
  // From the first frame's arrival to the last one's plus its pause: 18.455 ms when the
  // frames leave on time; timed from the arrivals measured, as a busy VM delays some.
  ASSERT_TRUE(honoured.ports[0].mac_control.has_value());
  const api::MacControlReport& heard = *honoured.ports[0].mac_control;
  const double span_ms = (heard.last_s - heard.first_s) * 1e3;
  EXPECT_NEAR(span_ms, 9 / 596.046 * 1e3, 1.5);
  // The time held is read by the lcore, to 0.2 ms: a stall of it that long from the first
  // frame to the last one's pause running out moves it (seen under ASan: 0.236 ms short),
  // so that check alone is not judged then.
  const double pause_ms = 65535 * 512 / 10e9 * 1e3;
  if (const std::string held_up_there = held_up(honoured, 200, {heard.first_s, heard.last_s + pause_ms / 1e3});
      !held_up_there.empty())
    std::printf("not judged, the time held: %s\n", held_up_there.c_str());
  else
    EXPECT_NEAR(paused_ms, span_ms + pause_ms, 0.2);
  // Held frames are sent later, not dropped or renumbered: what was not sent is the
  // paused time's worth, less the catch-up of at most 64 frames after the pause. Against
  // the free stream of the same lcore.
  const double expected_tx = static_cast<double>(free.tx_packets) - paused_ms * 100;
  EXPECT_GE(static_cast<double>(held.tx_packets), expected_tx - 3);
  EXPECT_LE(static_cast<double>(held.tx_packets), expected_tx + 64 + 3);
  EXPECT_EQ(held.rx_packets, held.tx_packets);
  EXPECT_EQ(held.lost, 0);
  EXPECT_EQ(held.out_of_order, 0u);
  ASSERT_TRUE(free.paused_ns.has_value());
  EXPECT_EQ(*free.paused_ns, 0u);
  EXPECT_NEAR(static_cast<double>(free.tx_packets), 20000, 300);
  EXPECT_EQ(free.lost, 0);
  EXPECT_EQ(heard.pfc_frames, 10u);

  // The same run without pfc_honour: nothing held, nothing said about holding.
  const dp::RunReport ignored = run(looped_port("net_ring12", "") + streams);
  ASSERT_EQ(ignored.streams.size(), 3u);
  EXPECT_FALSE(ignored.streams[0].paused_ns.has_value());
  EXPECT_NEAR(static_cast<double>(ignored.streams[0].tx_packets), static_cast<double>(ignored.streams[1].tx_packets), 2);
  EXPECT_EQ(ignored.ports[0].mac_control->pfc_frames, 10u);
}

// [run] timeline on the run above: the paused priority's bins are empty while the pause
// holds, the other priority's keep their 100 frames a millisecond, and the PFC frames
// received are in the port's bins where they arrived. Every bin sum is the exact count.
TEST(LoopbackRing, TimelineShowsThePausedPriorityAtZeroAndTheOtherGoingOn) {
  const auto profile_on = [](const std::string& device) {
    return "[run]\ntimeline = \"1ms\"\n" + looped_port(device, "pfc_honour = true").substr(std::string("[run]\n").size()) +
           held_and_free_streams("100ms");
  };
  // A stall past the pacers' catch-up moves frames between bins, and one past the
  // refresh's margin lets the pause lapse: such a run is run again.
  std::string not_judged;
  const auto timeline_run = run_unspoiled(profile_on, {"net_ring16", "net_ring21", "net_ring22"}, 600, not_judged);
  if (!timeline_run) GTEST_SKIP() << not_judged;
  const dp::RunReport& r = *timeline_run;
  ASSERT_EQ(r.streams.size(), 3u);
  const auto sum = [](const std::vector<uint64_t>& bins) { return std::accumulate(bins.begin(), bins.end(), uint64_t{0}); };
  for (const dp::StreamReport& s : r.streams) {
    ASSERT_TRUE(s.timeline.has_value()) << s.name;
    EXPECT_DOUBLE_EQ(s.timeline->bin_s, 0.001);
    EXPECT_EQ(sum(s.timeline->tx) + s.timeline->tx_after, s.tx_packets) << s.name;
    EXPECT_EQ(s.timeline->tx_after, 0u) << "the span covers the run: " << s.name;
  }
  const api::TimelineReport& held = *r.streams[0].timeline;
  const api::TimelineReport& free = *r.streams[1].timeline;
  EXPECT_EQ(sum(held.rx), r.streams[0].rx_packets);
  EXPECT_EQ(sum(free.rx), r.streams[1].rx_packets);
  EXPECT_TRUE(r.streams[2].timeline->rx.empty()) << "transmit only";
  // The pause: from the first PFC frame's arrival to the last one's plus 3.355 ms.
  ASSERT_TRUE(r.ports[0].mac_control.has_value());
  const double from_ms = r.ports[0].mac_control->first_s * 1e3;
  const double to_ms = r.ports[0].mac_control->last_s * 1e3 + 65535 * 512 / 10e9 * 1e3;
  const auto first = static_cast<size_t>(from_ms) + 1;  // the first bin wholly inside
  const auto last = static_cast<size_t>(to_ms);          // the first bin not wholly inside
  ASSERT_GT(last, first + 10);
  ASSERT_LE(last, held.tx.size());
  uint64_t free_in_pause = 0;
  for (size_t bin = first; bin < last; ++bin) {
    EXPECT_EQ(held.tx[bin], 0u) << "bin " << bin;
    EXPECT_EQ(held.rx[bin], 0u) << "bin " << bin;
    free_in_pause += free.rx[bin];
  }
  EXPECT_NEAR(static_cast<double>(free_in_pause), 100.0 * static_cast<double>(last - first),
              10.0 * static_cast<double>(last - first));
  ASSERT_TRUE(r.ports[0].mac_control_timeline.has_value());
  const api::TimelineReport& pfc = *r.ports[0].mac_control_timeline;
  EXPECT_EQ(sum(pfc.rx), 10u);
  EXPECT_TRUE(pfc.tx.empty());
  EXPECT_EQ(pfc.rx[static_cast<size_t>(from_ms)], 1u) << "the first PFC frame, in the bin it arrived in";
}

// A reaction delay: one XOFF of 65535 quanta (3.355 ms at 10G) holds priority 3 from
// its arrival without a delay, and only 2 ms after it with pfc_reaction_delay = "2ms":
// the frames keep flowing meanwhile. Timed from the frame's measured arrival (the port's
// first_s), not from the start: on a busy VM the first PFC frame leaves up to a few
// tenths of a millisecond late (its pool's first touch).
TEST(LoopbackRing, PfcReactionDelayLetsFramesFlowUntilItPasses) {
  const std::string streams = kPriority3Stream + std::string(R"(duration = "5ms"
[[stream]]
name = "xoff3"
tx_port = "p0"
kind = "pfc"
priorities = [3]
rate = "1kpps"
count = 1
)");
  const auto with = [&](const std::string& device, const std::string& delay) {
    return looped_port(device, "pfc_honour = true\n" + delay) + streams;
  };
  constexpr double kEndMs = 5.0;
  constexpr double kPauseMs = 65535 * 512 / 10e9 * 1e3;  // 3.355
  constexpr double kTrafficS = (kEndMs + 0.5) / 1e3;        // the traffic's end, not the drain after it
  // The time held below allows 100 us (a lane held up at the stream's end sees its end late,
  // and counts the pause that much longer): a run where the host held the lcore up that
  // long is run again. (Seen in CI: 3.287 ms held instead of 2.965, a 1000 us allowance.)
  std::string not_judged;
  const auto delayed_run = run_unspoiled([&](const std::string& device) { return with(device, "pfc_reaction_delay = \"2ms\""); },
                                         {"net_ring11", "net_ring19", "net_ring20"}, 100, not_judged,
                                         {.from_s = 1.5e-3, .to_s = kTrafficS});  // the pause begins 2 ms after the frame
  if (!delayed_run) GTEST_SKIP() << not_judged;
  const dp::RunReport& delayed = *delayed_run;
  ASSERT_EQ(delayed.streams.size(), 2u);
  ASSERT_TRUE(delayed.ports[0].mac_control.has_value());
  const double arrival_ms = delayed.ports[0].mac_control->first_s * 1e3;
  ASSERT_LT(arrival_ms, 2.5) << "the PFC frame left too late to show the delay";
  const dp::StreamReport& s = delayed.streams[0];
  // Held from arrival + 2 ms to the stream's end (the pause outlasts it), sending until then.
  ASSERT_TRUE(s.paused_ns.has_value());
  EXPECT_NEAR(static_cast<double>(*s.paused_ns) / 1e6, kEndMs - (arrival_ms + 2.0), 0.1);
  // 100 frames per ms until the pause: never more, and fewer by at most half a millisecond's
  // worth when the host holds the sender back (sanitizer builds on a 2-core VM), which
  // still shows 1.5 ms of frames after the PFC frame arrived.
  const double due = (arrival_ms + 2.0) * 100;
  EXPECT_LE(static_cast<double>(s.tx_packets), due + 12);
  EXPECT_GE(static_cast<double>(s.tx_packets), due - 50);
  EXPECT_EQ(s.lost, 0);

  const auto at_once_run =
      run_unspoiled([&](const std::string& device) { return with(device, ""); }, {"net_ring13", "net_ring23", "net_ring24"},
                    100, not_judged, {.from_s = 0, .to_s = kTrafficS});
  if (!at_once_run) GTEST_SKIP() << not_judged;
  const dp::RunReport& at_once = *at_once_run;
  ASSERT_EQ(at_once.streams.size(), 2u);
  const double at_once_arrival_ms = at_once.ports[0].mac_control->first_s * 1e3;
  // Held from the arrival itself, for the whole pause (or to the stream's end).
  EXPECT_NEAR(static_cast<double>(*at_once.streams[0].paused_ns) / 1e6,
              std::min(kEndMs, at_once_arrival_ms + kPauseMs) - at_once_arrival_ms, 0.1);
}

// ECN counted on receive for the streams that send ECN-capable frames: a net_ring loop
// changes nothing, so each stream's frames arrive with the codepoint they left with.
TEST(LoopbackRing, EcnCodepointsAreCountedPerStream) {
  const dp::RunReport r = run(R"(
[run]
drain = "100ms"
[[port]]
name = "p0"
device = "net_ring14"
speed = "10G"
[[stream]]
name = "marked"
tx_port = "p0"
rx_port = "p0"
ipv4 = { dscp = 26, ecn = 3 }
rate = "100kpps"
count = 3000
[[stream]]
name = "capable-v6"
tx_port = "p0"
rx_port = "p0"
vlan = { id = 7, pcp = 3 }
ipv6 = { ecn = 2 }
frame_size = 128
rate = "100kpps"
count = 2000
[[stream]]
name = "not-capable"
tx_port = "p0"
rx_port = "p0"
rate = "100kpps"
count = 1000
)");
  ASSERT_EQ(r.streams.size(), 3u);
  ASSERT_TRUE(r.streams[0].ecn.has_value());
  EXPECT_EQ(r.streams[0].ecn->ce, 3000u);
  EXPECT_EQ(r.streams[0].ecn->ect0 + r.streams[0].ecn->ect1 + r.streams[0].ecn->not_ect, 0u);
  ASSERT_TRUE(r.streams[1].ecn.has_value());
  EXPECT_EQ(r.streams[1].ecn->ect0, 2000u);
  EXPECT_EQ(r.streams[1].ecn->ce, 0u);
  EXPECT_FALSE(r.streams[2].ecn.has_value()) << "not ECN-capable: a device never marks it";
  for (const dp::StreamReport& s : r.streams) EXPECT_EQ(s.lost, 0) << s.name;
}

// RoCEv2 frames keep their signature before the ICRC: the receiver finds it there, so
// every frame is counted in its stream, none as a frame without a signature.
TEST(LoopbackRing, RoceFramesAreCountedByTheSignatureBeforeTheIcrc) {
  const dp::RunReport r = run(R"(
[run]
drain = "100ms"
[[port]]
name = "p0"
device = "net_ring15"
speed = "10G"
[[stream]]
name = "write"
tx_port = "p0"
rx_port = "p0"
ipv4 = { dscp = 26, ecn = 2 }
roce = { opcode = "rc-write-only", dest_qp = 9 }
frame_size = 1086
rate = "100kpps"
count = 3000
[[stream]]
name = "ud-v6"
tx_port = "p0"
rx_port = "p0"
ipv6 = { ecn = 1 }
roce = { opcode = "ud-send-only" }
rate = "100kpps"
count = 2000
)");
  ASSERT_EQ(r.streams.size(), 2u);
  EXPECT_EQ(r.streams[0].rx_packets, 3000u);
  EXPECT_EQ(r.streams[1].rx_packets, 2000u);
  for (const dp::StreamReport& s : r.streams) {
    EXPECT_EQ(s.lost, 0) << s.name;
    EXPECT_EQ(s.duplicate, 0u) << s.name;
  }
  ASSERT_TRUE(r.streams[0].ecn.has_value());
  EXPECT_EQ(r.streams[0].ecn->ect0, 3000u);
  EXPECT_EQ(r.streams[1].ecn->ect1, 2000u);
  EXPECT_EQ(r.ports[0].rx_no_signature, 0u);
}

TEST(LoopbackRing, TransmitOnlyStreamHasNoReceiveSide) {
  const dp::RunReport r = run(R"(
[[port]]
name = "n0"
device = "net_null0"
[[stream]]
name = "blast"
tx_port = "n0"
frame_size = 64
rate = "max"
count = 1000000
)");
  ASSERT_EQ(r.streams.size(), 1u);
  EXPECT_EQ(r.streams[0].tx_packets, 1000000u);
  EXPECT_FALSE(r.streams[0].rx_port.has_value());
  EXPECT_EQ(r.ports[0].counters.opackets, 1000000u);
  EXPECT_GT(r.streams[0].tx_pps_achieved, 0.0);
  EXPECT_EQ(r.mbufs_not_returned, 0u);
}

TEST(LoopbackRing, RateAboveLineIsRefusedBeforeTraffic) {
  const profile::Profile profile = profile::load_profile_text(R"(
[[port]]
name = "p2"
device = "net_ring2"
speed = "10G"
[[stream]]
name = "too-fast"
tx_port = "p2"
rate = "20Mpps"
)", "vdev-test.toml");
  auto engine = dp::Engine::create(profile);
  ASSERT_FALSE(engine);
  EXPECT_EQ(engine.error().context,
            "vdev-test.toml:9:8: key 'stream[0].rate': stream 'too-fast' asks 20.000 Mpps but port 'p2' at 10 Gbit/s "
            "carries at most 14.881 Mpps of 64-byte frames");
}

TEST(LoopbackRing, FrameAboveMtuIsRefused) {
  const profile::Profile profile = profile::load_profile_text(R"(
[[port]]
name = "p3"
device = "net_ring3"
speed = "10G"
[[stream]]
name = "jumbo"
tx_port = "p3"
frame_size = 9000
vlan = { id = 5 }
)", "vdev-test.toml");
  auto engine = dp::Engine::create(profile);
  ASSERT_FALSE(engine);
  EXPECT_EQ(engine.error().context,
            "vdev-test.toml:9:14: key 'stream[0].frame_size': stream 'jumbo' sends 9000-byte frames but port 'p3' has "
            "MTU 1500, which carries at most 1522-byte frames with a VLAN tag; set mtu = 8978 on the port");
}

TEST(LoopbackRing, UnknownDeviceIsRefused) {
  const profile::Profile profile = profile::load_profile_text(R"(
[[port]]
name = "ghost"
device = "net_ring9"
)", "vdev-test.toml");
  auto engine = dp::Engine::create(profile);
  ASSERT_FALSE(engine);
  EXPECT_EQ(engine.error().code, Errc::kNoDevice);
  EXPECT_NE(engine.error().context.find("port 'ghost': no ethdev port for device 'net_ring9'"), std::string::npos);
}

}  // namespace
}  // namespace lr::test
