// A stream short of its target, said with its cause: the port (a full TX queue), the host
// (a tester lcore's stalls that explain it, with the longest), or the lcore's own speed.

#include "lib/api/missed_target.hpp"

#include <gtest/gtest.h>

namespace lr::api {
namespace {

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
  LcoreStalls held{.lcore = 1, .stalls = 3, .longest_stall_us = 19'300, .stalled_us = 19'800,
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
}  // namespace lr::api
