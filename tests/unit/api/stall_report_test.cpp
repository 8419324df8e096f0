// The tester's stalls read where a measurement was taken: the longest of any lcore that
// overlaps the window, none when none does.

#include "lib/api/stall_report.hpp"

#include <gtest/gtest.h>

namespace lr::api {
namespace {

TEST(StallReport, TheLongestStallWithinAWindowAcrossLcores) {
  const std::vector<LcoreStalls> lcores{
      {.lcore = 1, .stalls = 2, .longest_stall_us = 9000, .stalled_us = 9500,
       .longest_stalls = {{.from_s = 2.0, .us = 9000}, {.from_s = 0.3, .us = 500}}},
      {.lcore = 2, .stalls = 1, .longest_stall_us = 4000, .stalled_us = 4000,
       .longest_stalls = {{.from_s = 0.5, .us = 4000}}}};
  const std::optional<LcoreStall> within = longest_stall_within(lcores, 0, 1.0);  // lcore 1's 9 ms is after it
  ASSERT_TRUE(within);
  EXPECT_EQ(within->lcore, 2u);
  EXPECT_EQ(within->stall.us, 4000);
  EXPECT_EQ(within->stall.from_s, 0.5);
  const std::optional<LcoreStall> all = longest_stall_within(lcores, 0, 3.0);
  ASSERT_TRUE(all);
  EXPECT_EQ(all->lcore, 1u);
  EXPECT_EQ(all->stall.us, 9000);
  // A stall that began before the window and lasts into it overlaps it.
  EXPECT_EQ(longest_stall_within(lcores, 0.3004, 0.31)->stall.us, 500);
  EXPECT_FALSE(longest_stall_within(lcores, 1.0, 1.5));
  EXPECT_FALSE(longest_stall_within({}, 0, 10));
}

}  // namespace
}  // namespace lr::api
