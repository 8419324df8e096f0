// The software switch's buffers on a virtual clock: a 1 GHz TSC (one cycle, one
// nanosecond) and 10 Gbit/s ports, where one quantum is 51.2 ns and 65535 quanta are
// 3 355 392 ns exactly.
#include "dataplane/switch/switch_model.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <utility>
#include <vector>

namespace lr::sw {
namespace {

constexpr uint64_t kTscHz = 1'000'000'000;
constexpr uint64_t k10G = 10'000'000'000;
constexpr uint64_t kFullPauseNs = 3'355'392;  // 65535 x 512 bits at 10G
constexpr uint8_t kLossless = 3;
constexpr uint8_t kLossy = 0;

ModelParams three_ports() {
  ModelParams p;
  p.tsc_hz = kTscHz;
  p.port_speed_bps = {k10G, k10G, k10G};
  p.lossless = 1u << kLossless;
  p.buffer_bytes = 100'000;
  p.queue_limit_bytes = 20'000;
  p.xoff_bytes = 10'000;
  p.xon_bytes = 5'000;
  p.headroom_bytes = 5'000;
  p.burst_tsc = 0;
  return p;
}

std::array<uint16_t, 8> only(unsigned prio, uint16_t quanta) {
  std::array<uint16_t, 8> q{};
  q[prio] = quanta;
  return q;
}

TEST(SwitchModel, QuantaAreTimeAtThePortsSpeed) {
  ModelParams p = three_ports();
  p.port_speed_bps = {k10G, 25'000'000'000, 40'000'000'000, 50'000'000'000, 100'000'000'000};
  const SwitchModel m(p);
  EXPECT_EQ(m.quanta_tsc(0, 65535), kFullPauseNs);
  EXPECT_EQ(m.quanta_tsc(1, 65535), 1'342'156u);  // 1 342 156.8 ns
  EXPECT_EQ(m.quanta_tsc(2, 65535), 838'848u);    // 838 848 ns
  EXPECT_EQ(m.quanta_tsc(3, 65535), 671'078u);    // 671 078.4 ns
  EXPECT_EQ(m.quanta_tsc(4, 65535), 335'539u);
  EXPECT_EQ(m.quanta_tsc(0, 1), 51u);
}

TEST(SwitchModel, XoffAtTheThresholdRefreshedThenXonBelowXon) {
  SwitchModel m(three_ports());
  uint64_t now = 1000;
  for (int i = 0; i < 9; ++i) ASSERT_EQ(m.enqueue(0, 2, kLossless, 1000, false, i, now), Admit::kQueued);
  EXPECT_EQ(m.pfc_due(0, now).class_enable, 0);  // 9000 bytes: below xoff
  ASSERT_EQ(m.enqueue(0, 2, kLossless, 1000, false, 9, now), Admit::kQueued);
  PfcOut out = m.pfc_due(0, now);
  EXPECT_EQ(out.class_enable, 1u << kLossless);
  EXPECT_EQ(out.quanta[kLossless], 65535);
  EXPECT_EQ(m.pfc_due(0, now + 1).class_enable, 0);        // sent: not again at once
  EXPECT_EQ(m.pfc_due(1, now).class_enable, 0);            // only out of the ingress port
  EXPECT_EQ(m.pfc_due(0, now + kFullPauseNs / 2 - 1).class_enable, 0);
  EXPECT_EQ(m.pfc_due(0, now + kFullPauseNs / 2).class_enable, 1u << kLossless);  // refresh at half the pause
  EXPECT_EQ(m.counters(0, kLossless).pfc_xoff_sent, 2u);

  // The headroom takes 5000 bytes more; the next frame is an ingress drop.
  for (int i = 0; i < 5; ++i) ASSERT_EQ(m.enqueue(0, 2, kLossless, 1000, false, 10 + i, now), Admit::kQueued);
  EXPECT_EQ(m.enqueue(0, 2, kLossless, 1000, false, 99, now), Admit::kDropHeadroom);
  EXPECT_EQ(m.counters(0, kLossless).drop_headroom, 1u);
  EXPECT_EQ(m.counters(0, kLossless).pg_watermark_bytes, 15'000u);
  EXPECT_EQ(m.counters(2, kLossless).watermark_bytes, 15'000u);

  // Sent out at 10G, just after the refresh: XON once the group falls to 5000 bytes
  // (after the 10th frame), before the next refresh falls due.
  now += kFullPauseNs / 2 + 1;
  std::vector<uintptr_t> sent;
  for (int i = 0; i < 10; ++i) {
    const Dequeued d = m.dequeue(2, now);
    ASSERT_TRUE(d.valid);
    sent.push_back(d.handle);
    now += 816;  // 1020 bytes at 10G
    if (i < 9) {
      EXPECT_EQ(m.pfc_due(0, now).class_enable, 0) << i;
    }
  }
  EXPECT_EQ(sent.front(), 0u);
  EXPECT_EQ(sent.back(), 9u);  // FIFO
  out = m.pfc_due(0, now);
  EXPECT_EQ(out.class_enable, 1u << kLossless);
  EXPECT_EQ(out.quanta[kLossless], 0);
  EXPECT_EQ(m.counters(0, kLossless).pfc_xon_sent, 1u);
  EXPECT_EQ(m.pfc_due(0, now + kFullPauseNs).class_enable, 0);  // no refresh after XON
}

TEST(SwitchModel, AFloodedFrameIsReceivedOnceAndQueuedOnEveryPort) {
  SwitchModel m(three_ports());
  EXPECT_EQ(m.enqueue(0, 1, kLossy, 1000, false, 7, 0, true), Admit::kQueued);
  EXPECT_EQ(m.enqueue(0, 2, kLossy, 1000, false, 7, 0, false), Admit::kQueued);
  EXPECT_EQ(m.counters(0, kLossy).rx_frames, 1u);
  EXPECT_EQ(m.counters(0, kLossy).rx_bytes, 1000u);
  EXPECT_EQ(m.queue_bytes(1, kLossy), 1000u);
  EXPECT_EQ(m.queue_bytes(2, kLossy), 1000u);
  m.replace_last(2, kLossy, 8);  // the marked copy goes out instead
  EXPECT_EQ(m.dequeue(1, 0).handle, 7u);
  EXPECT_EQ(m.dequeue(2, 0).handle, 8u);
}

TEST(SwitchModel, ShaperSendsAtItsRateAndNeverAboveTheLink) {
  ModelParams p = three_ports();
  p.shape_bps = {0, 0, 5'000'000'000};
  p.burst_tsc = 10'000;  // a poll a little late loses no time
  p.buffer_bytes = 3'000'000;
  p.queue_limit_bytes = 2'000'000;
  SwitchModel m(p);
  for (int i = 0; i < 1500; ++i) ASSERT_TRUE(admitted(m.enqueue(0, 2, kLossy, 1000, false, i, 0)));
  for (int i = 0; i < 1500; ++i) ASSERT_TRUE(admitted(m.enqueue(2, 1, kLossy, 1000, false, i, 0)));
  // Over 1 ms, polled every 100 ns: 1020 bytes are 1632 ns at 5G and 816 ns at 10G.
  uint64_t shaped = 0;
  uint64_t unshaped = 0;
  for (uint64_t now = 0; now < 1'000'000; now += 100) {
    while (m.dequeue(2, now).valid) ++shaped;
    while (m.dequeue(1, now).valid) ++unshaped;
  }
  EXPECT_EQ(shaped, 1'000'000 / 1632 + 1);  // 613: the first at 0
  EXPECT_EQ(unshaped, 1'000'000 / 816 + 1);  // 1226
  EXPECT_EQ(m.counters(2, kLossy).tx_frames, shaped);
  EXPECT_EQ(m.counters(2, kLossy).tx_bytes, shaped * 1000);
}

// An egress's busy time is its frames' time on the wire (1020 bytes: 816 ns at 10G), even
// when its lcore was held up and it caught up, and not the polls after it ran dry; a stall
// past the catch-up adds the time lost, counted as such.
TEST(SwitchModel, EgressBusyTimeIsTimeOnTheWireAfterAStall) {
  for (const uint64_t stall : {3'000u, 12'000u}) {
    ModelParams p = three_ports();
    p.burst_tsc = 5'000;
    SwitchModel m(p);
    EXPECT_FALSE(m.dequeue(2, 1'000).valid);  // idle: no credit saved before 1000
    for (int i = 0; i < 10; ++i) ASSERT_TRUE(admitted(m.enqueue(0, 2, kLossy, 1000, false, i, 1'000)));
    int sent = 0;
    for (uint64_t now = 1'000 + stall; now < 40'000; now += 100)
      while (m.dequeue(2, now).valid) ++sent;
    EXPECT_EQ(sent, 10);
    const uint64_t lost = stall > p.burst_tsc ? stall - p.burst_tsc : 0;
    EXPECT_EQ(m.egress_lost_tsc(2), lost) << stall;
    EXPECT_NEAR(static_cast<double>(m.egress_busy_tsc(2, 50'000)), 10 * 816 + lost, 1) << stall;  // Q16 rounding
  }
}

TEST(SwitchModel, LossyQueuesTailDropAtTheirLimitAndTheSharedBuffer) {
  ModelParams p = three_ports();
  p.queue_limit_bytes = 3'000;
  p.buffer_bytes = 5'000;
  SwitchModel m(p);
  EXPECT_EQ(m.enqueue(0, 2, kLossy, 1000, false, 1, 0), Admit::kQueued);
  EXPECT_EQ(m.enqueue(0, 2, kLossy, 1000, false, 2, 0), Admit::kQueued);
  EXPECT_EQ(m.enqueue(0, 2, kLossy, 1000, false, 3, 0), Admit::kQueued);
  EXPECT_EQ(m.enqueue(0, 2, kLossy, 1000, false, 4, 0), Admit::kDropTail);  // queue limit
  EXPECT_EQ(m.enqueue(0, 1, kLossy, 1000, false, 5, 0), Admit::kQueued);
  EXPECT_EQ(m.enqueue(0, 1, kLossy, 1000, false, 6, 0), Admit::kQueued);
  EXPECT_EQ(m.enqueue(0, 1, kLossy, 1000, false, 7, 0), Admit::kDropTail);  // shared buffer
  EXPECT_EQ(m.counters(2, kLossy).drop_tail, 1u);
  EXPECT_EQ(m.counters(1, kLossy).drop_tail, 1u);
  EXPECT_EQ(m.counters(0, kLossy).rx_frames, 7u);
  EXPECT_EQ(m.shared_bytes(), 5000u);
  // Lossless frames are bounded by their priority group, not the shared buffer.
  EXPECT_EQ(m.enqueue(0, 2, kLossless, 1000, false, 8, 0), Admit::kQueued);
  std::vector<uintptr_t> freed;
  m.flush([&](uintptr_t h) { freed.push_back(h); });
  EXPECT_EQ(freed.size(), 6u);
  EXPECT_EQ(m.shared_bytes(), 0u);
  EXPECT_EQ(m.group_bytes(0, kLossless), 0u);
}

TEST(SwitchModel, PfcReceivedPausesOnlyItsPriorityAndXonResumes) {
  SwitchModel m(three_ports());
  ASSERT_TRUE(admitted(m.enqueue(0, 2, kLossless, 1000, false, 1, 0)));
  ASSERT_TRUE(admitted(m.enqueue(0, 2, kLossy, 1000, false, 2, 0)));
  const auto q = only(kLossless, 100);  // 5120 ns
  m.pause_received(2, 1u << kLossless, q.data(), false, 1000);
  EXPECT_TRUE(m.paused(2, kLossless, 1000));
  EXPECT_FALSE(m.paused(2, kLossy, 1000));
  Dequeued d = m.dequeue(2, 1000);
  ASSERT_TRUE(d.valid);
  EXPECT_EQ(d.handle, 2u);                        // the lossy frame goes; the paused one waits
  EXPECT_FALSE(m.dequeue(2, 1000 + 5119).valid);  // held for the 100 quanta (and the shaper)
  d = m.dequeue(2, 1000 + 5120);
  ASSERT_TRUE(d.valid);
  EXPECT_EQ(d.handle, 1u);
  m.tick(20'000, [](uintptr_t) {});
  EXPECT_EQ(m.counters(2, kLossless).paused_tsc, 5120u);
  EXPECT_EQ(m.counters(2, kLossless).pfc_xoff_received, 1u);

  // XON ends a pause early; PAUSE holds every priority.
  m.pause_received(2, 1u << kLossless, only(kLossless, 65535).data(), false, 30'000);
  m.pause_received(2, 1u << kLossless, only(kLossless, 0).data(), false, 31'000);
  EXPECT_FALSE(m.paused(2, kLossless, 31'000));
  EXPECT_EQ(m.counters(2, kLossless).pfc_xon_received, 1u);
  m.pause_received(1, 0, only(0, 200).data(), true, 40'000);
  for (uint8_t prio = 0; prio < kPriorities; ++prio) EXPECT_TRUE(m.paused(1, prio, 40'000)) << int(prio);
  EXPECT_FALSE(m.paused(1, 0, 40'000 + 10'240));
  m.tick(31'000, [](uintptr_t) {});
  EXPECT_EQ(m.counters(2, kLossless).paused_tsc, 5120u + 1000u);
}

// What it obeys is configured: PFC only for the priorities named (the others are heard and
// counted), 802.3x PAUSE or not, and each pause only `pause_reaction_tsc` after it arrived.
TEST(SwitchModel, ObeysOnlyTheConfiguredPausesAfterItsReactionDelay) {
  ModelParams p = three_ports();
  p.pfc_obeyed = 1u << kLossless;
  p.pause_obeyed = false;
  p.pause_reaction_tsc = 2'000;
  SwitchModel m(p);
  const auto both = [] {
    std::array<uint16_t, 8> q{};
    q[kLossless] = q[kLossy] = 65535;
    return q;
  }();
  m.pause_received(2, (1u << kLossless) | (1u << kLossy), both.data(), false, 10'000);
  m.tick(11'999, [](uintptr_t) {});
  EXPECT_FALSE(m.paused(2, kLossless, 11'999));  // not yet: the reaction delay
  m.tick(12'000, [](uintptr_t) {});
  EXPECT_TRUE(m.paused(2, kLossless, 12'000));
  EXPECT_FALSE(m.paused(2, kLossless, 12'000 + kFullPauseNs));  // timed from when it took effect
  EXPECT_FALSE(m.paused(2, kLossy, 12'000));                    // heard, not obeyed
  EXPECT_EQ(m.counters(2, kLossy).pfc_xoff_received, 1u);
  m.pause_received(1, 0, only(0, 65535).data(), true, 20'000);
  m.tick(30'000, [](uintptr_t) {});
  for (uint8_t prio = 0; prio < kPriorities; ++prio) EXPECT_FALSE(m.paused(1, prio, 30'000)) << int(prio);
  EXPECT_EQ(m.counters(1, 0).pfc_xoff_received, 1u);
}

// Holds queue 2/prio 0 at `depth` bytes and offers `n` ECN-capable frames; the marked count.
uint64_t marks_at_depth(uint64_t depth, int n) {
  ModelParams p = three_ports();
  p.buffer_bytes = 1'000'000;
  p.queue_limit_bytes = 1'000'000;
  p.ecn = true;
  p.ecn_kmin_bytes = 10'000;
  p.ecn_kmax_bytes = 30'000;
  p.ecn_pmax = 0.2;
  p.seed = 42;
  SwitchModel m(p);
  uint64_t now = 0;
  for (uint64_t b = 0; b < depth; b += 1000) EXPECT_TRUE(admitted(m.enqueue(0, 2, kLossy, 1000, false, 0, now)));
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(admitted(m.enqueue(0, 2, kLossy, 1000, true, 0, now)));
    now += 10'000;
    EXPECT_TRUE(m.dequeue(2, now).valid);
  }
  return m.counters(2, kLossy).ecn_marked;
}

TEST(SwitchModel, EcnMarksFollowTheConfiguredCurve) {
  constexpr int kN = 40'000;
  EXPECT_EQ(marks_at_depth(0, kN), 0u);
  EXPECT_EQ(marks_at_depth(10'000, kN), 0u);  // at Kmin: never
  EXPECT_EQ(marks_at_depth(30'000, kN), uint64_t{kN});  // at Kmax: always
  // Between: Pmax x (depth - Kmin) / (Kmax - Kmin), within 4 standard deviations.
  for (const auto& [depth, expected] : {std::pair{15'000, 0.05}, std::pair{20'000, 0.10}, std::pair{25'000, 0.15}}) {
    const double fraction = static_cast<double>(marks_at_depth(depth, kN)) / kN;
    const double sigma = std::sqrt(expected * (1 - expected) / kN);
    EXPECT_NEAR(fraction, expected, 4 * sigma) << depth;
  }
  // Frames that are not ECN-capable are never marked (and not dropped by the curve).
  ModelParams p = three_ports();
  p.ecn = true;
  p.ecn_kmin_bytes = 0;
  p.ecn_kmax_bytes = 1;
  SwitchModel m(p);
  ASSERT_TRUE(admitted(m.enqueue(0, 2, kLossy, 1000, false, 0, 0)));
  EXPECT_EQ(m.enqueue(0, 2, kLossy, 1000, false, 0, 0), Admit::kQueued);
  EXPECT_EQ(m.enqueue(0, 2, kLossy, 1000, true, 0, 0), Admit::kQueuedMarked);
}

TEST(SwitchModel, WatchdogDetectsAStormDropsAndRestores) {
  ModelParams p = three_ports();
  p.watchdog = true;
  p.watchdog_detect_tsc = 100'000;
  p.watchdog_restore_tsc = 200'000;
  SwitchModel m(p);
  std::vector<uintptr_t> dropped;
  const auto release = [&](uintptr_t h) { dropped.push_back(h); };
  const auto storm = only(kLossless, 65535);
  m.pause_received(2, 1u << kLossless, storm.data(), false, 0);
  m.tick(0, release);  // paused, but nothing waits: no storm
  ASSERT_TRUE(admitted(m.enqueue(0, 2, kLossless, 1000, false, 7, 10'000)));
  m.tick(10'000, release);        // waiting paused since 10 us
  m.tick(109'999, release);
  EXPECT_FALSE(m.in_storm(2, kLossless));
  m.tick(110'000, release);       // detect time reached
  EXPECT_TRUE(m.in_storm(2, kLossless));
  EXPECT_EQ(m.counters(2, kLossless).storms, 1u);
  EXPECT_EQ(m.counters(2, kLossless).storm_detected_tsc, 110'000u);
  EXPECT_EQ(dropped, std::vector<uintptr_t>{7});
  EXPECT_EQ(m.counters(2, kLossless).drop_watchdog, 1u);
  EXPECT_EQ(m.group_bytes(0, kLossless), 0u);
  EXPECT_EQ(m.enqueue(1, 2, kLossless, 1000, false, 8, 120'000), Admit::kDropWatchdog);
  // The storm goes on (refreshed); it ends 200 us after the last pause ran out, timed
  // from the pause's end even when no loop ran near it (the host held the switch up).
  m.pause_received(2, 1u << kLossless, storm.data(), false, 2'000'000);  // until 5 355 392
  m.tick(3'000'000, release);
  m.tick(5'355'392 + 199'999, release);
  EXPECT_TRUE(m.in_storm(2, kLossless));
  m.tick(5'355'392 + 200'000, release);
  EXPECT_FALSE(m.in_storm(2, kLossless));
  EXPECT_EQ(m.counters(2, kLossless).restorations, 1u);
  EXPECT_EQ(m.enqueue(1, 2, kLossless, 1000, false, 9, 5'600'000), Admit::kQueued);
}

TEST(SwitchModel, WatchdogForwardIgnoresThePauseDuringAStorm) {
  ModelParams p = three_ports();
  p.watchdog = true;
  p.watchdog_detect_tsc = 100'000;
  p.watchdog_restore_tsc = 200'000;
  p.watchdog_action = WatchdogAction::kForward;
  SwitchModel m(p);
  const auto storm = only(kLossless, 65535);
  m.pause_received(2, 1u << kLossless, storm.data(), false, 0);
  ASSERT_TRUE(admitted(m.enqueue(0, 2, kLossless, 1000, false, 7, 0)));
  m.tick(0, [](uintptr_t) {});
  m.tick(99'999, [](uintptr_t) {});
  EXPECT_FALSE(m.dequeue(2, 99'999).valid);
  m.tick(100'000, [](uintptr_t) { FAIL() << "forward drops nothing"; });
  const Dequeued d = m.dequeue(2, 100'000);
  ASSERT_TRUE(d.valid);
  EXPECT_EQ(d.handle, 7u);
}

TEST(SwitchModel, WatchdogOffLetsAPauseHoldForever) {
  SwitchModel m(three_ports());
  const auto storm = only(kLossless, 65535);
  ASSERT_TRUE(admitted(m.enqueue(0, 2, kLossless, 1000, false, 7, 0)));
  for (uint64_t now = 0; now < 50'000'000; now += 1'000'000) {
    m.pause_received(2, 1u << kLossless, storm.data(), false, now);
    m.tick(now, [](uintptr_t) { FAIL(); });
    EXPECT_FALSE(m.dequeue(2, now).valid);
  }
  EXPECT_EQ(m.counters(2, kLossless).storms, 0u);
}

}  // namespace
}  // namespace lr::sw

namespace lr::sw {
namespace {

ModelParams input_queued_four_ports() {
  ModelParams p;
  p.tsc_hz = kTscHz;
  p.port_speed_bps = {k10G, k10G, k10G, k10G};
  p.buffer_bytes = 1'000'000;
  p.queue_limit_bytes = 10'000;
  p.burst_tsc = 0;
  p.input_queued = true;
  return p;
}

// One FIFO per ingress port: a frame for a busy egress holds back the frame behind it
// for an idle one (head-of-line blocking); with egress queues the same frames do not wait.
TEST(SwitchModel, InputQueueingBlocksTheHeadOfTheLine) {
  for (const bool input : {true, false}) {
    ModelParams p = input_queued_four_ports();
    p.input_queued = input;
    SwitchModel m(p);
    const uint64_t now = 1000;
    // Port 2 is sending a 1000-byte frame (from port 1): busy for 816 ns.
    ASSERT_TRUE(admitted(m.enqueue(1, 2, 0, 1000, false, 1, now)));
    ASSERT_TRUE(m.dequeue(2, now).valid);
    // From port 0: one for the busy port 2, then one for the idle port 3.
    ASSERT_TRUE(admitted(m.enqueue(0, 2, 0, 1000, false, 10, now)));
    ASSERT_TRUE(admitted(m.enqueue(0, 3, 0, 1000, false, 11, now)));
    EXPECT_FALSE(m.dequeue(2, now).valid);  // busy
    const Dequeued idle = m.dequeue(3, now);
    EXPECT_EQ(idle.valid, !input) << input;  // input queueing: behind the head
    if (!input) continue;
    EXPECT_EQ(m.ingress_bytes(0), 2000u);
    // Once port 2 takes the head, the frame for port 3 leaves.
    const Dequeued head = m.dequeue(2, now + 816);
    ASSERT_TRUE(head.valid);
    EXPECT_EQ(head.handle, 10u);
    const Dequeued next = m.dequeue(3, now + 816);
    ASSERT_TRUE(next.valid);
    EXPECT_EQ(next.handle, 11u);
    EXPECT_EQ(m.counters(3, 0).tx_frames, 1u);
    EXPECT_EQ(m.counters(0, 0).watermark_bytes, 2000u);  // the ingress FIFO's
  }
}

TEST(SwitchModel, InputQueueingTailDropsAtTheIngressLimit) {
  SwitchModel m(input_queued_four_ports());
  for (int i = 0; i < 10; ++i) ASSERT_EQ(m.enqueue(0, 1, 0, 1000, false, i, 0), Admit::kQueued);
  EXPECT_EQ(m.enqueue(0, 2, 0, 1000, false, 99, 0), Admit::kDropTail);
  EXPECT_EQ(m.counters(0, 0).drop_tail, 1u);
  std::vector<uintptr_t> freed;
  m.flush([&](uintptr_t h) { freed.push_back(h); });
  EXPECT_EQ(freed.size(), 10u);
  EXPECT_EQ(m.shared_bytes(), 0u);
}

}  // namespace
}  // namespace lr::sw
