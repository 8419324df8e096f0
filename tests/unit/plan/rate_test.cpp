// Rate conversion against DESIGN.md's line-rate table.

#include "dataplane/plan/rate.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "lib/common/line_rate.hpp"

namespace lr::plan {
namespace {

api::StreamSpec stream(uint16_t frame, api::Rate rate) {
  api::StreamSpec s;
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
  auto pps = stream_pps(stream(64, {api::RateKind::kPercentOfLine, 10}), 40'000'000'000, "p0");
  ASSERT_TRUE(pps);
  EXPECT_NEAR(*pps, 5'952'380.95, 0.01);
}

TEST(StreamPps, L1AndL2BitRates) {
  EXPECT_NEAR(*stream_pps(stream(64, {api::RateKind::kL1Bps, 5e9}), 0, "p0"), 5e9 / (84 * 8), 1e-6);
  EXPECT_NEAR(*stream_pps(stream(64, {api::RateKind::kL2Bps, 5e9}), 0, "p0"), 5e9 / (64 * 8), 1e-6);
}

TEST(StreamPps, MaxIsUnpaced) { EXPECT_EQ(*stream_pps(stream(64, {api::RateKind::kMax, 0}), 0, "p0"), 0.0); }

TEST(StreamPps, AboveLineRateIsRefused) {
  auto pps = stream_pps(stream(64, {api::RateKind::kPps, 60e6}), 40'000'000'000, "p0");
  ASSERT_FALSE(pps);
  EXPECT_EQ(pps.error().code, Errc::kInvalid);
  EXPECT_EQ(pps.error().context,
            "stream 's' asks 60.000 Mpps but port 'p0' at 40 Gbit/s carries at most 59.524 Mpps of 64-byte frames");
}

TEST(StreamPps, PercentWithoutLinkSpeedIsRefused) {
  auto pps = stream_pps(stream(64, {api::RateKind::kPercentOfLine, 50}), 0, "p0");
  ASSERT_FALSE(pps);
  EXPECT_EQ(pps.error().context,
            "stream 's' asks 50% of line rate but port 'p0' reports no link speed; set speed = \"40G\" (for example) "
            "on the port");
}

// The one conversion of a rate into lane intervals: 10 % of 40G in 64-byte frames over
// 4 lanes on a 2.5 GHz TSC is 1,488,095.24 pps per lane, one frame every 1680 cycles
// (2.5e9 / 1,488,095.24), 110,100,480 in Q16 (1680 * 65536).
TEST(StreamPacing, RateToLaneIntervalOnce) {
  api::StreamSpec s = stream(64, {api::RateKind::kPercentOfLine, 10});
  s.lanes = 4;
  const auto pacing = stream_pacing(s, 40'000'000'000, "p0", 2'500'000'000);
  ASSERT_TRUE(pacing) << pacing.error().context;
  EXPECT_NEAR(pacing->pps, 5'952'380.95, 0.01);  // the stream's, all lanes together
  EXPECT_EQ(pacing->lane_interval_fp, 1680u * 65536u);
  s.lanes = 1;
  EXPECT_EQ(stream_pacing(s, 40'000'000'000, "p0", 2'500'000'000)->lane_interval_fp, 420u * 65536u);
}

TEST(StreamPacing, EveryUnitToTheSameInterval) {
  // 1 Mpps of 64-byte frames, said four ways, on a 1 GHz TSC: 1000 cycles a frame.
  const uint64_t tsc_hz = 1'000'000'000;
  const uint64_t want = 1000u * 65536u;
  for (const api::Rate rate : {api::Rate{api::RateKind::kPps, 1e6}, api::Rate{api::RateKind::kL1Bps, 1e6 * 84 * 8},
                               api::Rate{api::RateKind::kL2Bps, 1e6 * 64 * 8},
                               api::Rate{api::RateKind::kPercentOfLine, 100.0 * 1e6 * 84 * 8 / 10e9}}) {
    const auto pacing = stream_pacing(stream(64, rate), 10'000'000'000, "p0", tsc_hz);
    ASSERT_TRUE(pacing) << pacing.error().context;
    EXPECT_EQ(pacing->lane_interval_fp, want) << static_cast<int>(rate.kind);
  }
}

TEST(StreamPacing, MaxIsUnpacedAndErrorsAreStreamPps) {
  const auto max = stream_pacing(stream(64, {api::RateKind::kMax, 0}), 0, "p0", 1'000'000'000);
  ASSERT_TRUE(max);
  EXPECT_EQ(max->pps, 0.0);
  EXPECT_EQ(max->lane_interval_fp, 0u);
  const auto over = stream_pacing(stream(64, {api::RateKind::kPps, 60e6}), 40'000'000'000, "p0", 1'000'000'000);
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().context, stream_pps(stream(64, {api::RateKind::kPps, 60e6}), 40'000'000'000, "p0").error().context);
}

TEST(NsToTsc, RoundsDown) {
  EXPECT_EQ(ns_to_tsc(1'000'000'000, 2'500'000'000), 2'500'000'000u);
  EXPECT_EQ(ns_to_tsc(3, 1'000'000'000), 3u);
  EXPECT_EQ(ns_to_tsc(1, 2'400'000'000), 2u);  // 2.4 cycles
  EXPECT_EQ(ns_to_tsc(0, 2'400'000'000), 0u);
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

TEST(PortLoads, ARefusalOfThousandsOfStreamsNamesTheFirstEightAndCountsTheRest) {
  std::vector<PortLoad> loads;
  for (int i = 0; i < 10'000; ++i) loads.push_back({fmt::format("s{}", i), "p0", 10'000'000'000, 2000, 64});
  const auto over = check_port_loads(loads);
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().context,
            "port 'p0' is oversubscribed: its paced streams ('s0' 0.013 %, 's1' 0.013 %, 's2' 0.013 %, 's3' 0.013 %, "
            "'s4' 0.013 %, 's5' 0.013 %, 's6' 0.013 %, 's7' 0.013 % and 9992 more) add up to 134.400 % of its 10 "
            "Gbit/s line rate, 34.400 % more than it carries; lower their rates");
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

}  // namespace
}  // namespace lr::plan
