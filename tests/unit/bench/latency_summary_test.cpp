// Latency across trials: exact extremes and weighted mean, percentiles of the merged
// histogram (not the mean of the trials' percentiles).

#include "control/suites/bench/latency_summary.hpp"

#include <gtest/gtest.h>

namespace lr::bench {
namespace {

TEST(LatencySummary, PercentilesAcrossTrialsComeFromTheMergedHistogram) {
  // Trial 1: 990 frames near 1 us, 10 near 100 us. Trial 2: 1000 frames near 2 us.
  LatencyTrial one{{1000, 900, 1980, 100'500, 1000, 1000, 100'000, 50}, {{960, 1040, 990}, {99'000, 101'000, 10}}};
  LatencyTrial two{{1000, 1900, 2000, 2100, 2000, 2000, 2000, 10}, {{1960, 2040, 1000}}};
  const LatencyStats all = across_trials({one, two});
  EXPECT_EQ(all.samples, 2000u);
  EXPECT_DOUBLE_EQ(all.min_ns, 900);
  EXPECT_DOUBLE_EQ(all.max_ns, 100'500);
  EXPECT_DOUBLE_EQ(all.mean_ns, 1990);
  EXPECT_DOUBLE_EQ(all.jitter_ns, 30);
  EXPECT_DOUBLE_EQ(all.p50_ns, 2000);   // rank 1000 of 2000: past the 990 fast frames of trial 1
  EXPECT_DOUBLE_EQ(all.p99_ns, 2000);   // rank 1980: still the 2 us bucket
  EXPECT_DOUBLE_EQ(all.p999_ns, 100'000);  // rank 1999: among the 10 slow frames
}

TEST(LatencySummary, TrialsWithoutSamplesAreLeftOut) {
  LatencyTrial none{};
  LatencyTrial some{{10, 5000, 5000, 5000, 5000, 5000, 5000, 0}, {{4960, 5040, 10}}};
  const LatencyStats all = across_trials({none, some});
  EXPECT_EQ(all.samples, 10u);
  EXPECT_DOUBLE_EQ(all.min_ns, 5000);
  EXPECT_DOUBLE_EQ(all.p99_ns, 5000);
  EXPECT_EQ(across_trials({none}).samples, 0u);
}

}  // namespace
}  // namespace lr::bench
