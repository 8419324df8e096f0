// The pacer on a virtual TSC: no sleeps, no real clock.

#include "dataplane/fastpath/pacer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tests/support/virtual_tsc.hpp"

namespace lr::fast {
namespace {

using test::kTscHz;

// Polls the pacer from `start` for `seconds` with irregular gaps between polls (as a
// loop serving several lanes has) and returns the frames it released.
uint64_t run_virtual(Pacer& pacer, uint64_t start, double seconds, uint64_t max_gap_tsc, uint32_t burst = 32) {
  uint64_t forgone = 0;  // frames the pacer gave up
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<uint64_t> gap(1, max_gap_tsc);
  const auto end = start + static_cast<uint64_t>(seconds * kTscHz);
  uint64_t sent = 0;
  for (uint64_t now = start; now < end; now += gap(rng)) sent += pacer.due(now, burst, forgone);
  return sent;
}

class PacerRate : public ::testing::TestWithParam<double> {};

TEST_P(PacerRate, AverageWithinHalfPercentOfTarget) {
  const double pps = GetParam();
  Pacer pacer = Pacer::paced(pacer_interval_fp(pps, kTscHz), 1'000'000, 64);
  // Poll gaps up to 2000 cycles (0.8 us), a busy lcore with several lanes, but never
  // more on average than half a burst's worth: a lane polled less often than its
  // bursts drain cannot reach its rate, whatever the pacer does. Under 1000 pps a frame
  // is due every 2.5 million cycles or more, and gaps up to 200,000 (80 us) keep the 20
  // virtual seconds to half a million polls (50 million took 6 s under the sanitizers).
  const double seconds = pps < 1000 ? 20.0 : 0.5;
  const auto max_gap = std::min<uint64_t>(pps < 1000 ? 200'000 : 2000, static_cast<uint64_t>(32.0 * kTscHz / pps));
  const uint64_t sent = run_virtual(pacer, 1'000'000, seconds, max_gap);
  const double achieved = static_cast<double>(sent) / seconds;
  EXPECT_NEAR(achieved, pps, pps * 0.005) << "target " << pps << " pps";
}

// 1 pps .. 100G at 64 bytes (148.8 Mpps: 16.8 TSC cycles a frame, a fraction that an
// integer interval would round by 5 %).
INSTANTIATE_TEST_SUITE_P(Rates, PacerRate,
                         ::testing::Values(1.0, 100.0, 1000.0, 297619.0, 14'880'952.0, 59'523'809.5, 74'404'761.9,
                                           148'809'523.8));

TEST(Pacer, ReleasesNothingBeforeOrigin) {
  uint64_t forgone = 0;  // frames the pacer gave up
  Pacer pacer = Pacer::paced(pacer_interval_fp(1e6, kTscHz), 10'000, 64);
  EXPECT_EQ(pacer.due(9'999, 32, forgone), 0u);
  EXPECT_EQ(pacer.due(10'000, 32, forgone), 1u);  // the first frame is due at the origin
}

TEST(Pacer, CatchUpAfterStallIsBounded) {
  uint64_t forgone = 0;  // frames the pacer gave up
  Pacer pacer = Pacer::paced(pacer_interval_fp(1e6, kTscHz), 0, 100);
  // A 10 ms stall at 1 Mpps owes 10000 frames; only 100 (+1 due now) may be caught up.
  uint64_t released = 0;
  for (int i = 0; i < 1000; ++i) released += pacer.due(25'000'000, 32, forgone);
  EXPECT_EQ(released, 101u);
  EXPECT_EQ(pacer.due(25'000'000, 32, forgone), 0u);
  EXPECT_EQ(forgone, 10'001u - 101u);  // the rest of what was due, given up and counted
}

// Stalls of every length, some past the catch-up: each frame the rate asked for before the
// end was either sent or counted as forgone, exactly.
TEST(Pacer, EveryFrameDueIsSentOrForgone) {
  uint64_t forgone = 0;  // frames the pacer gave up
  const uint64_t interval = pacer_interval_fp(50'000, kTscHz);  // 50,000 cycles a frame
  Pacer pacer = Pacer::paced(interval, 0, pacer_max_lag(interval, lag_window_fp(kTscHz)));
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<uint64_t> gap(1, 20'000);
  std::uniform_int_distribution<uint64_t> stall(0, 12'500'000);  // up to 5 ms: 100 frames
  const uint64_t end = 5 * kTscHz / 2;                            // 2.5 s: 125,000 frames
  uint64_t sent = 0;
  for (uint64_t now = 0; now < end; now += gap(rng) + (rng() % 100 == 0 ? stall(rng) : 0))
    sent += pacer.due(now, 32, forgone);
  EXPECT_GT(forgone, 0u);
  pacer.forgo_before(end, UINT64_MAX, forgone);
  EXPECT_EQ(sent + forgone, 125'000u);
  pacer.forgo_before(end, UINT64_MAX, forgone);  // once only
  EXPECT_EQ(sent + forgone, 125'000u);
}

TEST(Pacer, AnEndCountsNoMoreThanTheFramesLeft) {
  uint64_t forgone = 0;  // frames the pacer gave up
  Pacer pacer = Pacer::paced(pacer_interval_fp(1e6, kTscHz), 0, 64);
  pacer.forgo_before(10 * 2500, 4, forgone);  // 10 frames were due, 4 were left to send
  EXPECT_EQ(forgone, 4u);
}

// catch_up = false (a lag window of 0): after a stall, the frame due and four more (what a
// stall of a few frame times owes), then the rate from then on; with catch-up, at least 64.
TEST(Pacer, WithoutCatchUpAStallOwesNothing) {
  uint64_t forgone = 0;  // frames the pacer gave up
  const uint64_t interval = pacer_interval_fp(1e4, kTscHz);
  EXPECT_EQ(pacer_max_lag(interval, 0), 4u);
  EXPECT_EQ(pacer_max_lag(interval, lag_window_fp(kTscHz)), 64u);
  Pacer pacer = Pacer::paced(interval, 0, pacer_max_lag(interval, 0));
  uint64_t released = 0;
  for (int i = 0; i < 100; ++i) released += pacer.due(25'000'000, 32, forgone);  // 10 ms late: 100 frames owed
  EXPECT_EQ(released, 5u);
  EXPECT_EQ(pacer.due(25'000'000 + 249'999, 32, forgone), 0u);  // the next one interval later (250,000 cycles)
  EXPECT_EQ(pacer.due(25'000'000 + 250'000, 32, forgone), 1u);
}

TEST(Pacer, RefundedCreditIsReleasedAgain) {
  uint64_t forgone = 0;  // frames the pacer gave up
  Pacer pacer = Pacer::paced(pacer_interval_fp(1e6, kTscHz), 0, 1000);
  const uint64_t now = 100 * 2500;  // 100 us: 101 frames due
  EXPECT_EQ(pacer.due(now, 32, forgone), 32u);
  pacer.refund(12);  // the queue took only 20
  uint64_t more = 0;
  for (int i = 0; i < 10; ++i) more += pacer.due(now, 32, forgone);
  EXPECT_EQ(more, 101u - 20u);
}

TEST(Pacer, UnpacedReleasesFullBursts) {
  uint64_t forgone = 0;  // frames the pacer gave up
  Pacer pacer = Pacer::unpaced();
  EXPECT_EQ(pacer.due(0, 32, forgone), 32u);
  EXPECT_EQ(pacer.due(0, 7, forgone), 7u);
}

TEST(Pacer, BurstModeSendsPacketsEveryInterval) {
  uint64_t forgone = 0;  // frames the pacer gave up
  Pacer pacer = Pacer::unpaced();
  pacer.restart(0);
  pacer.set_bursts(100, kTscHz / 1000);  // 100 frames every 1 ms
  // 10 ms polled every 1 us: exactly 10 bursts of 100.
  uint64_t sent = 0;
  uint64_t max_per_ms = 0;
  uint64_t this_ms = 0;
  for (uint64_t now = 0; now < kTscHz / 100; now += 2500) {
    if (now % (kTscHz / 1000) == 0) {
      max_per_ms = std::max(max_per_ms, this_ms);
      this_ms = 0;
    }
    const uint32_t n = pacer.due(now, 32, forgone);
    sent += n;
    this_ms += n;
  }
  EXPECT_EQ(sent, 1000u);
  EXPECT_EQ(std::max(max_per_ms, this_ms), 100u);
  EXPECT_EQ(forgone, 0u);
}

// A stall inside a paced burst spaces its frames later but gives none up: the burst sends all
// of them, so none counts as forgone.
TEST(Pacer, AStallInsideABurstForgoesNothing) {
  uint64_t forgone = 0;
  Pacer pacer = Pacer::paced(pacer_interval_fp(1e6, kTscHz), 0, 4);
  pacer.set_bursts(100, kTscHz / 1000);  // 100 frames at 1 Mpps every 1 ms
  uint64_t sent = pacer.due(0, 32, forgone);
  for (uint64_t now = 125'000; now < kTscHz / 1000; now += 2500) sent += pacer.due(now, 32, forgone);  // 50 us late
  EXPECT_EQ(sent, 100u);
  EXPECT_EQ(forgone, 0u);
}

TEST(Pacer, ABurstMissedIsForgone) {
  uint64_t forgone = 0;  // frames the pacer gave up
  Pacer pacer = Pacer::unpaced();
  pacer.restart(0);
  pacer.set_bursts(100, kTscHz / 1000);  // 100 frames every 1 ms
  uint64_t sent = 0;
  for (int i = 0; i < 10; ++i) sent += pacer.due(0, 32, forgone);
  EXPECT_EQ(sent, 100u);
  // Held up from 1 ms to 3.5 ms: the bursts of 1, 2 and 3 ms are one, sent late; two skipped.
  for (int i = 0; i < 10; ++i) sent += pacer.due(kTscHz / 1000 * 7 / 2, 32, forgone);
  EXPECT_EQ(sent, 200u);
  EXPECT_EQ(forgone, 200u);
}

TEST(Pacer, NextSendIsTheNextFrameOrTheNextBurst) {
  uint64_t forgone = 0;  // frames the pacer gave up
  // A lane scheduler's key: when `due` next gives a frame, to the cycle.
  Pacer paced = Pacer::paced(pacer_interval_fp(1e6, kTscHz), 0, 64);  // a frame every 2500 cycles
  paced.restart(1000);
  EXPECT_EQ(paced.next_send_tsc(), 1000u);
  EXPECT_EQ(paced.due(1000, 32, forgone), 1u);
  EXPECT_EQ(paced.next_send_tsc(), 3500u);
  EXPECT_EQ(paced.due(3499, 32, forgone), 0u);
  EXPECT_EQ(paced.due(3500, 32, forgone), 1u);
  // Bursts of 2 every 1 ms, paced at 1 Mpps inside: after the burst, the next one's start.
  Pacer bursts = Pacer::paced(pacer_interval_fp(1e6, kTscHz), 0, 64);
  bursts.restart(0);
  bursts.set_bursts(2, kTscHz / 1000);
  EXPECT_EQ(bursts.due(0, 32, forgone), 1u);
  EXPECT_EQ(bursts.next_send_tsc(), 2500u);  // inside the burst: its next frame
  EXPECT_EQ(bursts.due(2500, 32, forgone), 1u);
  EXPECT_EQ(bursts.next_send_tsc(), kTscHz / 1000);  // the burst is done: the next burst
  EXPECT_EQ(bursts.due(kTscHz / 1000 - 1, 32, forgone), 0u);
  EXPECT_EQ(bursts.due(kTscHz / 1000, 32, forgone), 1u);
}

TEST(Pacer, PacedBurstsKeepRateInsideBurst) {
  uint64_t forgone = 0;  // frames the pacer gave up
  Pacer pacer = Pacer::paced(pacer_interval_fp(1e6, kTscHz), 0, 64);  // 1 us per frame
  pacer.set_bursts(10, kTscHz / 1000);
  // 5 us into the first burst: frames at 0,1,..,5 us are due.
  uint64_t sent = 0;
  for (uint64_t now = 0; now <= 5 * 2500; now += 100) sent += pacer.due(now, 32, forgone);
  EXPECT_EQ(sent, 6u);
}

TEST(Pacer, RateChangeFromSlowToFastTakesEffectAtOnce) {
  uint64_t forgone = 0;  // frames the pacer gave up
  Pacer pacer = Pacer::paced(pacer_interval_fp(1.0, kTscHz), 0, 64);  // 1 pps
  EXPECT_EQ(pacer.due(0, 32, forgone), 1u);                                    // next due in 1 s
  const uint64_t now = kTscHz / 10;
  pacer.set_rate(pacer_interval_fp(1e6, kTscHz), 64, now);  // 1 Mpps from 100 ms on
  EXPECT_EQ(pacer.due(now + 2500, 32, forgone), 1u);                  // due 1 us later, not in 0.9 s
  const uint64_t sent = run_virtual(pacer, now + 2501, 0.1, 200);
  EXPECT_NEAR(static_cast<double>(sent), 100'000.0, 500.0);
}

TEST(Pacer, RateChangeFromFastToSlowCarriesNoCredit) {
  uint64_t forgone = 0;  // frames the pacer gave up
  Pacer pacer = Pacer::paced(pacer_interval_fp(1e6, kTscHz), 0, 10'000);
  const uint64_t now = kTscHz / 100;  // 10 ms of 1 Mpps owed, never asked for
  pacer.set_rate(pacer_interval_fp(1000.0, kTscHz), 64, now);
  uint64_t sent = 0;
  for (int i = 0; i < 100; ++i) sent += pacer.due(now, 32, forgone);
  EXPECT_EQ(sent, 1u);  // one frame now, not the 10000 the old rate had accrued
}

TEST(Pacer, RateChangeBetweenPacedAndUnpaced) {
  uint64_t forgone = 0;  // frames the pacer gave up
  Pacer pacer = Pacer::unpaced();
  pacer.restart(0);
  EXPECT_EQ(pacer.due(1000, 32, forgone), 32u);
  pacer.set_rate(pacer_interval_fp(1e6, kTscHz), 64, 5000);
  EXPECT_EQ(pacer.due(5000, 32, forgone), 1u);
  EXPECT_EQ(pacer.due(5001, 32, forgone), 0u);
  pacer.set_rate(0, 64, 6000);
  EXPECT_EQ(pacer.due(6000, 32, forgone), 32u);
}

TEST(Pacer, RebaseKeepsRateOverLongRuns) {
  // Start just before a rebase point; the rate must not jump across it.
  Pacer pacer = Pacer::paced(pacer_interval_fp(1e6, kTscHz), 0, 64);
  const uint64_t start = Pacer::kRebaseCycles - kTscHz / 10;
  pacer.restart(start);
  const uint64_t sent = run_virtual(pacer, start, 0.2, 2000);
  EXPECT_NEAR(static_cast<double>(sent), 200'000.0, 1000.0);
}

}  // namespace
}  // namespace lr::fast
