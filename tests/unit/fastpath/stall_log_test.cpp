// The stall log every worker and switch lcore keeps: which loop iterations count, what is
// kept when more stalls come than it holds, and the report's form of it.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "lib/api/stall_report.hpp"
#include "dataplane/fastpath/stall_log.hpp"
#include "dataplane/fastpath/stall_report.hpp"

namespace lr::test {
namespace {

using fast::StallLog;

TEST(StallLog, CountsOnlyIterationsLongerThanTheThreshold) {
  StallLog log;
  log.threshold_tsc = 100;
  EXPECT_FALSE(fast::note_iteration(log, log.threshold_tsc, 1000, 1100));  // exactly the threshold: not a stall
  EXPECT_TRUE(fast::note_iteration(log, log.threshold_tsc, 1100, 1201));
  EXPECT_TRUE(fast::note_iteration(log, log.threshold_tsc, 5000, 5700));
  EXPECT_EQ(log.stalls, 2u);
  EXPECT_EQ(log.longest_tsc, 700u);
  EXPECT_EQ(log.stalled_tsc, 801u);
}

TEST(StallLog, KeepsTheLongestWhenMoreComeThanItHolds) {
  StallLog log;
  log.threshold_tsc = 10;
  // Stalls of 11..(11 + n - 1) cycles, each from its own moment, shortest first then longest.
  const size_t n = StallLog::kKept + 100;
  for (size_t i = 0; i < n; ++i) fast::note_iteration(log, log.threshold_tsc, i * 1000, i * 1000 + 11 + i);
  const api::LcoreStalls r = fast::read_stalls(log, 3, 0, 1'000'000);  // 1 MHz: a cycle is 1 us
  EXPECT_EQ(r.lcore, 3u);
  EXPECT_EQ(r.stalls, n);
  ASSERT_EQ(r.longest_stalls.size(), StallLog::kKept);
  EXPECT_DOUBLE_EQ(r.longest_stall_us, static_cast<double>(11 + n - 1));
  // Longest first, and exactly the kKept longest: the shortest kept is the 100th shortest's successor.
  EXPECT_DOUBLE_EQ(r.longest_stalls.front().us, static_cast<double>(11 + n - 1));
  EXPECT_DOUBLE_EQ(r.longest_stalls.front().from_s, static_cast<double>((n - 1) * 1000) / 1e6);
  EXPECT_DOUBLE_EQ(r.longest_stalls.back().us, static_cast<double>(11 + 100));
}

TEST(StallLog, TimesAreSinceTheRunsStart) {
  StallLog log;
  log.threshold_tsc = 10;
  fast::note_iteration(log, log.threshold_tsc, 500, 2500);  // began before the start: counted from it
  fast::note_iteration(log, log.threshold_tsc, 3000, 3050);
  const api::LcoreStalls r = fast::read_stalls(log, 1, 1000, 1'000'000);
  ASSERT_EQ(r.longest_stalls.size(), 2u);
  EXPECT_DOUBLE_EQ(r.longest_stalls[0].from_s, 0.0);
  EXPECT_DOUBLE_EQ(r.longest_stalls[0].us, 2000.0);
  EXPECT_DOUBLE_EQ(r.longest_stalls[1].from_s, 0.002);
  EXPECT_DOUBLE_EQ(r.stalled_us, 2050.0);
}

TEST(StallReport, AStallOverlapsATimeSpanWhenLongEnough) {
  const api::Stall first{0.100, 500}, second{0.300, 5000};
  EXPECT_TRUE(api::stall_overlaps(first, 0.1004, 0.2, 100));     // overlaps its end
  EXPECT_FALSE(api::stall_overlaps(first, 0.1006, 0.2, 100));    // after it
  EXPECT_TRUE(api::stall_overlaps(first, 0.0, 0.1, 500));        // begins at the span's end, exactly long enough
  EXPECT_FALSE(api::stall_overlaps(first, 0.0, 0.2, 1000));      // too short to matter
  EXPECT_FALSE(api::stall_overlaps(second, 0.0, 0.2, 1000));     // after the span
  EXPECT_TRUE(api::stall_overlaps(second, 0.302, 0.303, 1000));  // around the span
  EXPECT_FALSE(api::stall_overlaps(second, 0.306, 1.0, 1));
}

TEST(StallReport, JsonRoundTrip) {
  const api::LcoreStalls s{2, 7, 4100.5, 9000.25, {{0.25, 4100.5}, {0.5, 30}}};
  const nlohmann::json j = api::to_json(s);
  EXPECT_EQ(j.dump(), R"({"lcore":2,"longest_stall_us":4100.5,"longest_stalls":[{"from_s":0.25,"us":4100.5},{"from_s":0.5,"us":30.0}],"stalled_us":9000.25,"stalls":7})");
  const api::LcoreStalls back = api::lcore_stalls_from_json(j);
  EXPECT_EQ(back.lcore, 2u);
  EXPECT_EQ(back.stalls, 7u);
  EXPECT_DOUBLE_EQ(back.stalled_us, 9000.25);
  ASSERT_EQ(back.longest_stalls.size(), 2u);
  EXPECT_DOUBLE_EQ(back.longest_stalls[1].from_s, 0.5);
}

}  // namespace
}  // namespace lr::test
