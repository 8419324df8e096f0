// The back-to-back search against a simulated device with a buffer of B frames: it
// forwards a burst at line rate without loss when the burst fits its buffer plus what
// it drains meanwhile; the search finds that length within its resolution.

#include "control/suites/bench/back_to_back_search.hpp"

#include <gtest/gtest.h>

namespace lr::bench {
namespace {

BackToBackSearch run(BurstSettings settings, uint64_t longest_passing) {
  BackToBackSearch search(settings);
  for (int n = 0; search.next() && n < 200; ++n) search.record(*search.next() <= longest_passing);
  EXPECT_TRUE(search.done());
  return search;
}

TEST(BackToBackSearch, ABufferOfBFramesIsFoundExactlyAtOneFrameResolution) {
  for (const uint64_t buffer : {1ull, 2ull, 137ull, 4095ull, 1'000'000ull}) {
    const BackToBackSearch search = run({10'000'000, 0}, buffer);
    EXPECT_EQ(search.result(), buffer) << buffer;
    EXPECT_LE(search.trials(), 26u) << buffer;  // log2(10^7) + the first burst
  }
}

TEST(BackToBackSearch, AResolutionStopsWithinItsShareOfTheBurst) {
  const BackToBackSearch search = run({10'000'000, 1.0}, 123'456);
  EXPECT_LE(search.result(), 123'456u);
  EXPECT_GE(search.result(), 123'456u - 1'235u);
  EXPECT_LE(search.trials(), 15u);  // ~7 halvings down from 10^7, ~7 more to within 1 %
}

TEST(BackToBackSearch, ADeviceThatForwardsTheWholeBurstEndsAfterOneTrial) {
  const BackToBackSearch search = run({5000, 0}, 1'000'000);
  EXPECT_EQ(search.result(), 5000u);
  EXPECT_EQ(search.trials(), 1u);
}

TEST(BackToBackSearch, ADeviceThatLosesEvenOneFrameGivesZero) {
  EXPECT_EQ(run({5000, 0}, 0).result(), 0u);
}

TEST(BackToBackSearch, ABurstTheTesterCannotSendTwiceEndsTheSearchAsTheTestersLimit) {
  BackToBackSearch search({5000, 0});
  search.record(false, false);
  ASSERT_EQ(search.next(), 5000u);  // repeated once
  search.record(false, false);
  EXPECT_TRUE(search.done());
  EXPECT_TRUE(search.tester_limited());
  EXPECT_EQ(search.result(), 0u);
}

}  // namespace
}  // namespace lr::bench
