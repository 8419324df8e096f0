// Rate conversion against DESIGN.md's line-rate table.

#include "dataplane/plan/rate.hpp"

#include <gtest/gtest.h>

#include "dataplane/common/line_rate.hpp"

namespace lr::plan {
namespace {

profile::StreamCfg stream(uint16_t frame, profile::Rate rate) {
  profile::StreamCfg s;
  s.name = "s";
  s.frame.sizes = {frame};
  s.rate = rate;
  return s;
}

TEST(LineRate, DesignTable) {
  EXPECT_NEAR(line_rate_pps(10'000'000'000, 64), 14'880'952.4, 0.1);
  EXPECT_NEAR(line_rate_pps(40'000'000'000, 64), 59'523'809.5, 0.1);
  EXPECT_NEAR(line_rate_pps(50'000'000'000, 64), 74'404'761.9, 0.1);
  EXPECT_NEAR(line_rate_pps(100'000'000'000, 64), 148'809'523.8, 0.1);
  EXPECT_NEAR(line_rate_pps(40'000'000'000, 512), 9'398'496.2, 0.1);
  EXPECT_NEAR(line_rate_pps(50'000'000'000, 1518), 4'063'719.1, 0.1);
}

TEST(StreamPps, PercentOfLine) {
  auto pps = stream_pps(stream(64, {profile::RateKind::kPercentOfLine, 10}), 40'000'000'000, "p0");
  ASSERT_TRUE(pps);
  EXPECT_NEAR(*pps, 5'952'380.95, 0.01);
}

TEST(StreamPps, L1AndL2BitRates) {
  EXPECT_NEAR(*stream_pps(stream(64, {profile::RateKind::kL1Bps, 5e9}), 0, "p0"), 5e9 / (84 * 8), 1e-6);
  EXPECT_NEAR(*stream_pps(stream(64, {profile::RateKind::kL2Bps, 5e9}), 0, "p0"), 5e9 / (64 * 8), 1e-6);
}

TEST(StreamPps, MaxIsUnpaced) { EXPECT_EQ(*stream_pps(stream(64, {profile::RateKind::kMax, 0}), 0, "p0"), 0.0); }

TEST(StreamPps, AboveLineRateIsRefused) {
  auto pps = stream_pps(stream(64, {profile::RateKind::kPps, 60e6}), 40'000'000'000, "p0");
  ASSERT_FALSE(pps);
  EXPECT_EQ(pps.error().code, Errc::kInvalid);
  EXPECT_EQ(pps.error().context,
            "stream 's' asks 60.000 Mpps but port 'p0' at 40 Gbit/s carries at most 59.524 Mpps of 64-byte frames");
}

TEST(StreamPps, PercentWithoutLinkSpeedIsRefused) {
  auto pps = stream_pps(stream(64, {profile::RateKind::kPercentOfLine, 50}), 0, "p0");
  ASSERT_FALSE(pps);
  EXPECT_EQ(pps.error().context,
            "stream 's' asks 50% of line rate but port 'p0' reports no link speed; set speed = \"40G\" (for example) "
            "on the port");
}

TEST(PortLoads, PacedStreamsAboveTheLineRateAreRefusedWithTheirShares) {
  const double sixty = line_rate_pps(10'000'000'000, 64) * 0.6;
  const auto over = check_port_loads({{"a", "p0", 10'000'000'000, sixty, 64}, {"b", "p0", 10'000'000'000, sixty, 64},
                                      {"c", "p1", 10'000'000'000, sixty, 64}});
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().context,
            "port 'p0' is oversubscribed: its paced streams ('a' 60.000 %, 'b' 60.000 %) add up to 120.000 % of its 10 "
            "Gbit/s line rate, 20.000 % more than it carries; lower their rates");
  const auto full = check_port_loads({{"a", "p0", 10'000'000'000, sixty, 64},
                                      {"b", "p0", 10'000'000'000, line_rate_pps(10'000'000'000, 1518) * 0.4, 1518}});
  ASSERT_TRUE(full) << full.error().context;  // exactly the line rate, mixed sizes: carried
  EXPECT_TRUE(full->empty());
}

TEST(PortLoads, AMaxStreamBesidePacedOnesIsAWarning) {
  const auto loads = check_port_loads({{"paced", "p0", 10'000'000'000, 1e6, 512}, {"blast", "p0", 10'000'000'000, 0, 64},
                                       {"alone", "p1", 10'000'000'000, 0, 64}});
  ASSERT_TRUE(loads);
  EXPECT_EQ(*loads, std::vector<std::string>{"port 'p0': stream 'blast' sends as fast as the port takes (rate = \"max\") "
                                             "beside paced streams; those get what is left, not their rates"});
}

TEST(MeanTarget, EachRateCountsFromItsChangeToTheNext) {
  // 200 kpps for 2 s, then 500 pps for the 3 s left of 5 s sending.
  EXPECT_DOUBLE_EQ(mean_target_pps({{0, 200e3}, {2, 500}}, 5), (200e3 * 2 + 500 * 3) / 5);
  EXPECT_DOUBLE_EQ(mean_target_pps({{0, 1e6}}, 3), 1e6);
  EXPECT_DOUBLE_EQ(mean_target_pps({{0, 1e6}, {4, 2e6}}, 3), 1e6);  // changed after it stopped sending
  EXPECT_EQ(mean_target_pps({{0, 1e6}, {1, 0}}, 3), 0);             // a "max" stretch: nothing to hold it to
}

TEST(MissedTarget, AStreamHalfAPercentShortIsNamedWithTheCause) {
  EXPECT_EQ(missed_target("imix", 1.02e6, 1.02e6 * 0.996, 0, 0), "");
  EXPECT_EQ(missed_target("blast", 0, 5e6, 0, 0), "");  // unpaced: no target to miss
  EXPECT_EQ(missed_target("imix", 1.02e6, 543, 26'000'000, 0),
            "stream 'imix' sent 0.000543 Mpps, 99.95 % below its target of 1.020000 Mpps (26000000 frames found the TX "
            "queue full: the port took frames more slowly than asked)");
  EXPECT_EQ(missed_target("slow", 2e6, 1e6, 0, 0),
            "stream 'slow' sent 1.000000 Mpps, 50.00 % below its target of 2.000000 Mpps (0 frames found the TX queue "
            "full: the sending lcore could not keep up)");
}

// Short with room in the TX queue: the host is named when a tester lcore's stalls explain
// it, with the stall; the lcore's speed when they do not.
TEST(MissedTarget, TheHostIsNamedWhenItsStallsExplainTheShortfall) {
  // 1 s at 40 kpps that sent 3.6 % short: 36 ms of silence would cost as many frames.
  api::LcoreStalls held{.lcore = 1, .stalls = 3, .longest_stall_us = 19'300, .stalled_us = 19'800,
                        .longest_stalls = {{.from_s = 0.4120, .us = 19'300}, {.from_s = 0.1, .us = 300}}};
  EXPECT_EQ(missed_target("a-to-b", 40'000, 38'560, 0, 0, {held}, 1.0),
            "stream 'a-to-b' sent 0.038560 Mpps, 3.60 % below its target of 0.040000 Mpps (0 frames found the TX queue "
            "full: the host held tester lcore 1 up 19800 us in all, the longest 19300 us at 0.4120 s: the host, not the "
            "lcore's speed)");
  // 2 ms of stalls cannot explain 36 ms worth of frames.
  held.stalled_us = 2'000;
  EXPECT_EQ(missed_target("a-to-b", 40'000, 38'560, 0, 0, {held}, 1.0),
            "stream 'a-to-b' sent 0.038560 Mpps, 3.60 % below its target of 0.040000 Mpps (0 frames found the TX queue "
            "full: the sending lcore could not keep up (the host held no tester lcore up for more than 2000 us in all))");
}

// Held by PFC (pfc_honour) 10 % of its time: 0.9 of the target is what it could send.
TEST(MissedTarget, TimeHeldByPfcIsNotTheTestersShortfall) {
  EXPECT_EQ(missed_target("roce", 1e6, 0.9e6, 0, 0.10), "");
  EXPECT_EQ(missed_target("roce", 1e6, 0.8e6, 0, 0.10),
            "stream 'roce' sent 0.800000 Mpps, 20.00 % below its target of 1.000000 Mpps (0 frames found the TX queue "
            "full: the sending lcore could not keep up; held 10.00 % of the time by PFC / PAUSE, the rest still short)");
  EXPECT_NE(missed_target("roce", 1e6, 0.9e6, 0, 0), "") << "without the hold the same rate is short";
}

}  // namespace
}  // namespace lr::plan
