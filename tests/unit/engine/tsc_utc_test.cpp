// The TSC read as UTC: an instant mapped to a TSC and back is the same instant to the
// nanosecond (the next cycle below a GHz), ahead and behind the pair of readings, over a minute at any rate; the pair
// taken here is close (its error under 10 us).
#include "dataplane/engine/tsc_utc.hpp"

#include <gtest/gtest.h>

namespace lr::dp {
namespace {

TEST(TscUtc, AnInstantComesBackToTheNanosecond) {
  for (const uint64_t hz : {2'600'000'000ull, 3'000'000'000ull, 1'999'999'997ull, 100'000'000ull}) {
    const TscUtcMap map{123'456'789'012ull, 1'796'589'963'100'457'368, 20, hz};
    for (const int64_t delta : {int64_t{1}, int64_t{7}, int64_t{999'999'999}, int64_t{300'000'000},
                                int64_t{60'000'000'000}, int64_t{-5'000'000}, int64_t{-1}}) {
      const int64_t at = map.utc_ns + delta;
      const uint64_t tsc = map.tsc_at(at);
      // At a GHz or more a cycle is under a nanosecond: the instant itself; slower, the next cycle's.
      const int64_t cycle_ns = static_cast<int64_t>((1'000'000'000 + hz - 1) / hz);
      EXPECT_GE(map.utc_ns_at(tsc), at) << hz << " Hz, " << delta << " ns";
      EXPECT_LT(map.utc_ns_at(tsc) - at, cycle_ns) << hz << " Hz, " << delta << " ns";
      if (hz >= 1'000'000'000) {
        EXPECT_EQ(map.utc_ns_at(tsc), at) << hz << " Hz, " << delta << " ns";
      }
      EXPECT_LT(map.utc_ns_at(tsc - 1), at) << "the first TSC at or after the instant";
    }
    EXPECT_EQ(map.utc_ns_at(map.tsc + hz), map.utc_ns + 1'000'000'000);  // one second of cycles
  }
}

TEST(TscUtc, APairTakenHereIsClose) {
  const TscUtcMap map = measure_tsc_utc(2'600'000'000ull);
  EXPECT_GT(map.utc_ns, 1'700'000'000'000'000'000);  // after 2023
  EXPECT_LT(map.error_ns, 10'000u);
}

}  // namespace
}  // namespace lr::dp
