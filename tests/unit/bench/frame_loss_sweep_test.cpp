// The frame loss rate sweep: down from 100 % in steps until two loss-free trials in a row.

#include "control/suites/bench/frame_loss_sweep.hpp"

#include <gtest/gtest.h>

namespace lr::bench {
namespace {

TEST(FrameLossSweep, StopsAfterTwoLossFreeTrialsInARow) {
  FrameLossSweep sweep(100, 10);
  // A device forwarding 75 % of line rate.
  while (sweep.next()) sweep.record(std::max(0.0, (*sweep.next() - 75) / *sweep.next()));
  ASSERT_EQ(sweep.points().size(), 5u);  // 100, 90, 80 lose; 70 and 60 do not
  EXPECT_DOUBLE_EQ(sweep.points()[0].offered_percent, 100);
  EXPECT_DOUBLE_EQ(sweep.points()[0].loss_ratio, 0.25);
  EXPECT_DOUBLE_EQ(sweep.points()[4].offered_percent, 60);
  EXPECT_DOUBLE_EQ(sweep.points()[4].loss_ratio, 0);
}

TEST(FrameLossSweep, ALossFreeTrialBetweenLossyOnesDoesNotEndIt) {
  FrameLossSweep sweep(100, 25);
  const double losses[] = {0.1, 0, 0.01, 0};  // 100, 75, 50, 25: never two in a row
  for (double loss : losses) sweep.record(loss);
  EXPECT_TRUE(sweep.done());  // no load is left below 25 %
  EXPECT_EQ(sweep.points().size(), 4u);
}

TEST(FrameLossSweep, AnInvalidTrialIsRepeatedOnceThenKeptAsInvalid) {
  FrameLossSweep sweep(100, 10);
  sweep.record(0, false);
  EXPECT_EQ(sweep.next(), 100.0);
  EXPECT_TRUE(sweep.points().empty());
  sweep.record(0, false);
  ASSERT_EQ(sweep.points().size(), 1u);
  EXPECT_FALSE(sweep.points()[0].valid);
  EXPECT_EQ(sweep.next(), 90.0);
}

}  // namespace
}  // namespace lr::bench
