// Time bins from TSC readings: each reading in the bin that holds it, to the cycle, at
// TSC rates whose bins are not a whole number of cycles, over a long run; before the
// start in the first bin, after the span in the extra last one.

#include "dataplane/fastpath/timeline.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace lr::fast {
namespace {

TEST(Timeline, EachReadingLandsInItsBinToTheCycle) {
  constexpr uint64_t kStart = 123'456'789;
  const TimelineClock clock{kStart, timeline_bins_per_tsc_q64(2'500'000'000, 1'000'000)};  // 2.5e6 cycles a bin
  constexpr uint32_t kBins = 600'000;
  for (const uint64_t bin : {0ull, 1ull, 7ull, 59'999ull, 599'999ull}) {
    EXPECT_EQ(timeline_bin(clock, kBins, kStart + bin * 2'500'000), bin) << "first cycle of bin " << bin;
    if (bin > 0) {
      EXPECT_EQ(timeline_bin(clock, kBins, kStart + bin * 2'500'000 - 1), bin - 1) << "last of " << bin - 1;
    }
  }
  EXPECT_EQ(timeline_bin(clock, kBins, kStart - 5), 0u) << "before the start";
  EXPECT_EQ(timeline_bin(clock, kBins, kStart + uint64_t{kBins} * 2'500'000), kBins) << "after the span";
  EXPECT_EQ(timeline_bin(clock, kBins, kStart + 10'000 * uint64_t{kBins} * 2'500'000), kBins);
}

TEST(Timeline, BinsOfAFractionalNumberOfCycles) {
  // A 333.333333 MHz TSC and 1 us bins: 333.333333 cycles a bin, so bin k begins at the
  // cycle ceil(k × 333.333333), over three million bins.
  const TimelineClock clock{0, timeline_bins_per_tsc_q64(333'333'333, 1'000)};
  for (uint64_t k = 1; k < 3'000'000; k += 999) {
    const uint64_t first = (k * 333'333'333 + 999'999) / 1'000'000;
    EXPECT_EQ(timeline_bin(clock, UINT32_MAX - 1, first), k) << k;
    EXPECT_EQ(timeline_bin(clock, UINT32_MAX - 1, first - 1), k - 1) << k;
  }
}

TEST(Timeline, AddCountsIntoTheRightCounter) {
  std::vector<uint64_t> bins(4 + 1);
  const TimelineBins t{bins.data(), 4};
  const TimelineClock clock{1000, timeline_bins_per_tsc_q64(1'000'000'000, 1'000)};  // 1000 cycles a bin
  timeline_add(t, clock, 1000, 3);
  timeline_add(t, clock, 2999, 2);
  timeline_add(t, clock, 3000, 1);
  timeline_add(t, clock, 99'000, 7);
  EXPECT_EQ(bins, (std::vector<uint64_t>{3, 2, 1, 0, 7}));
}

}  // namespace
}  // namespace lr::fast
