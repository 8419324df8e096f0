#include "dataplane/fastpath/latency_hist.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace lr::fast {
namespace {

uint64_t reference_percentile(std::vector<uint32_t> sorted, double q) {
  std::sort(sorted.begin(), sorted.end());
  return sorted[static_cast<size_t>(q * static_cast<double>(sorted.size() - 1))];
}

TEST(LatencyHist, BucketsCoverEveryValueInOrder) {
  uint32_t previous = 0;
  for (uint64_t v = 0; v < (uint64_t{1} << 32); v = v < 4096 ? v + 1 : v + v / 97) {
    const uint32_t b = LatencyHist::bucket_of(static_cast<uint32_t>(v));
    ASSERT_LT(b, LatencyHist::kBuckets);
    ASSERT_GE(b, previous);
    ASSERT_LE(LatencyHist::bucket_low(b), v);
    ASSERT_GE(LatencyHist::bucket_high(b), v);
    previous = b;
  }
  EXPECT_EQ(LatencyHist::bucket_of(UINT32_MAX), LatencyHist::kBuckets - 1);
}

TEST(LatencyHist, PercentilesMatchSortedReferenceWithinResolution) {
  std::mt19937 rng(7);
  std::lognormal_distribution<double> dist(std::log(2000.0), 0.8);  // ~2 us with a long tail
  std::vector<uint32_t> samples;
  LatencyHist hist;
  for (int i = 0; i < 200000; ++i) {
    const auto v = static_cast<uint32_t>(dist(rng));
    samples.push_back(v);
    hist.record(v);
  }
  for (double q : {0.5, 0.9, 0.99, 0.999, 0.9999}) {
    const double expected = static_cast<double>(reference_percentile(samples, q));
    EXPECT_NEAR(static_cast<double>(hist.percentile(q)), expected, expected / 64.0 + 1) << "q=" << q;
  }
  EXPECT_EQ(hist.min(), *std::min_element(samples.begin(), samples.end()));
  EXPECT_EQ(hist.max(), *std::max_element(samples.begin(), samples.end()));
  double sum = 0;
  for (uint32_t v : samples) sum += v;
  EXPECT_DOUBLE_EQ(hist.mean(), sum / static_cast<double>(samples.size()));
}

TEST(LatencyHist, SmallValuesAreExact) {
  LatencyHist hist;
  for (uint32_t v = 1; v <= 50; ++v) hist.record(v);
  EXPECT_EQ(hist.percentile(0.5), 25u);
  EXPECT_EQ(hist.percentile(0.0), 1u);
  EXPECT_EQ(hist.percentile(1.0), 50u);
}

TEST(LatencyHist, JitterIsMeanAbsoluteDifferenceOfConsecutiveLatencies) {
  LatencyHist hist;
  for (uint32_t v : {100u, 110u, 90u, 90u, 130u}) hist.record(v);  // |10|+|20|+0+|40| over 4
  EXPECT_DOUBLE_EQ(hist.jitter(), 17.5);
}

TEST(LatencyHist, MergeSumsCountsAndKeepsPairsPerLcore) {
  LatencyHist a;
  LatencyHist b;
  for (uint32_t v : {100u, 200u}) a.record(v);  // one pair, 100
  for (uint32_t v : {1000u, 1010u, 1030u}) b.record(v);  // two pairs, 10 and 20
  a.merge(b);
  EXPECT_EQ(a.count(), 5u);
  EXPECT_EQ(a.min(), 100u);
  EXPECT_EQ(a.max(), 1030u);
  EXPECT_DOUBLE_EQ(a.jitter(), 130.0 / 3.0);
}

// As the engine sums its lcores: a fresh histogram merges each (an empty one among them),
// and the pairs are those within each lcore, never across.
TEST(LatencyHist, MergedIntoAFreshOneKeepsPairsPerLcore) {
  LatencyHist a;
  LatencyHist b;
  LatencyHist empty;
  for (uint32_t v : {100u, 200u, 100u}) a.record(v);  // two pairs, 100 each
  b.record(5000);                                     // no pair
  LatencyHist total;
  total.merge(a);
  total.merge(empty);
  total.merge(b);
  EXPECT_EQ(total.count(), 4u);
  EXPECT_DOUBLE_EQ(total.jitter(), 100.0);  // 200 over 2 pairs: b's 5000 paired with nothing
  LatencyHist twice;
  twice.merge(total);
  twice.merge(total);
  EXPECT_DOUBLE_EQ(twice.jitter(), 100.0);
  EXPECT_EQ(twice.count(), 8u);
}

TEST(LatencyHist, EmptyReportsZeros) {
  const LatencyHist hist;
  EXPECT_EQ(hist.count(), 0u);
  EXPECT_EQ(hist.min(), 0u);
  EXPECT_EQ(hist.percentile(0.99), 0u);
  EXPECT_EQ(hist.jitter(), 0.0);
}

}  // namespace
}  // namespace lr::fast
