// The lossless plan's judgement: a case passes only when every check holds, and says
// which did not; the arithmetic its bounds come from.

#include "control/bench/lossless_verdicts.hpp"

#include <gtest/gtest.h>

namespace lr::bench {
namespace {

TEST(LosslessVerdicts, ACasePassesOnlyWhenEveryCheckHolds) {
  const CaseOutcome pass = judge("pfc_pause", {exactly("test: frames lost", 0, 0, "frames"),
                                               at_most("response", 120, 500, "us")},
                                 "held");
  EXPECT_EQ(pass.verdict, CaseVerdict::kPass);
  EXPECT_EQ(pass.explanation, "held");
  const CaseOutcome fail = judge("pfc_pause", {at_most("response", 120, 500, "us"),
                                               exactly("test: frames lost", 513, 0, "frames"),
                                               at_least("resumed", 0, 1, "frames")},
                                 "held");
  EXPECT_EQ(fail.verdict, CaseVerdict::kFail);
  EXPECT_EQ(fail.explanation, "test: frames lost: 513 frames, bound = 0 frames");  // the first that failed
  EXPECT_EQ(to_json(fail)["verdict"], "FAIL");
  EXPECT_EQ(to_json(fail)["checks"][1]["ok"], false);
  EXPECT_EQ(to_json(skipped("ecn", "no curve"))["verdict"], "SKIPPED");
  // The bounds are inclusive.
  EXPECT_TRUE(at_most("x", 500, 500, "us").ok);
  EXPECT_FALSE(at_most("x", 500.5, 500, "us").ok);
  EXPECT_TRUE(at_least("x", 1, 1, "frames").ok);
  EXPECT_FALSE(at_least("x", 0, 1, "frames").ok);
  EXPECT_EQ(at_least("x", 0, 1, "frames").bound, ">= 1 frames");
}

TEST(LosslessVerdicts, QuantaAre512BitTimesAtTheLinksSpeed) {
  EXPECT_DOUBLE_EQ(quanta_seconds(65535, 10'000'000'000), 65535 * 512 / 10e9);  // 3.355 ms
  EXPECT_DOUBLE_EQ(quanta_seconds(1, 100'000'000'000), 5.12e-9);
  EXPECT_EQ(quanta_seconds(100, 0), 0);
  EXPECT_EQ(standard_reaction_quanta(10'000'000'000), 67u);
  EXPECT_EQ(standard_reaction_quanta(40'000'000'000), 118u);
  EXPECT_FALSE(standard_reaction_quanta(25'000'000'000));  // none known: the user sets response_time
}

TEST(LosslessVerdicts, FramesWithinCountOnlyWholeBinsInTheWindow) {
  const std::vector<uint64_t> bins{1, 2, 3, 4, 5};  // 10 us bins
  EXPECT_EQ(frames_within(bins, 10e-6, 10e-6, 40e-6), 2u + 3u + 4u);
  EXPECT_EQ(frames_within(bins, 10e-6, 15e-6, 40e-6), 3u + 4u);  // bin 1 only partly inside
  EXPECT_EQ(frames_within(bins, 10e-6, 0, 1), 15u);              // past the end: what there is
  EXPECT_EQ(frames_within(bins, 10e-6, 40e-6, 10e-6), 0u);
}

TEST(LosslessVerdicts, EcnMarksFollowTheWredCurve) {
  EXPECT_EQ(ecn_mark_probability(50'000, 50'000, 250'000, 0.5), 0);
  EXPECT_DOUBLE_EQ(ecn_mark_probability(150'000, 50'000, 250'000, 0.5), 0.25);
  EXPECT_EQ(ecn_mark_probability(250'000, 50'000, 250'000, 0.5), 1);
  // Below kmin nothing is marked, so nothing may stray but the one frame allowed.
  const ExpectedMarks none = expected_ecn_marks(40, 1000, 50'000, 250'000, 0.5);
  EXPECT_EQ(none.mean, 0);
  EXPECT_EQ(none.allowed, 1);
  // Above kmax every frame is marked: the frames at depths 0..9 KB of 10, with kmax 5 KB.
  const ExpectedMarks all = expected_ecn_marks(10, 1000, 1000, 5000, 0.5);
  EXPECT_DOUBLE_EQ(all.mean, 0.125 + 0.25 + 0.375 + 5);  // 2, 3, 4 KB on the ramp; 5..9 KB marked
}

}  // namespace
}  // namespace lr::bench
