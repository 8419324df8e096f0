// The lossless plan's judgement: a case passes only when every check holds, and says
// which did not; the arithmetic its bounds come from.

#include "control/suites/bench/lossless_verdicts.hpp"

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

TEST(LosslessVerdicts, ACheckTheNullResultPassesIsShownButNotJudged) {
  // A pause of 52 us held to +- 150 us: a device that ignores the PFC passes it too.
  Check weak = at_most("pause at 1024 quanta", 0, 150, "us");
  weak.not_judged = "a device that ignores the PFC would pass too";
  const CaseOutcome only_weak = judge("quanta_sweep", {weak}, "every pause lasted");
  EXPECT_EQ(only_weak.verdict, CaseVerdict::kSkipped);
  EXPECT_EQ(only_weak.explanation, "no check could tell a device that does nothing apart: pause at 1024 quanta: "
                                   "a device that ignores the PFC would pass too");
  EXPECT_EQ(to_json(only_weak)["checks"][0]["not_judged"], "a device that ignores the PFC would pass too");
  EXPECT_FALSE(to_json(at_most("x", 1, 2, "us")).contains("not_judged"));
  // Beside a judged check, it counts for neither verdict: not for a FAIL ...
  Check weak_failing = at_most("pause at 1024 quanta", 400, 150, "us");
  weak_failing.not_judged = "a device that ignores the PFC would pass too";
  EXPECT_EQ(judge("quanta_sweep", {weak_failing, at_most("pause at 4096 quanta", 10, 20, "us")}, "ok").verdict,
            CaseVerdict::kPass);
  // ... and the judged one still fails the case.
  EXPECT_EQ(judge("quanta_sweep", {weak, at_most("pause at 4096 quanta", 30, 20, "us")}, "ok").verdict,
            CaseVerdict::kFail);
  // A PASS that nothing judged could have denied a device doing nothing is SKIPPED, saying why;
  // a FAIL stays a FAIL.
  const CaseOutcome pass = judge("ecn", {exactly("marks below kmin", 0, 0, "frames")}, "followed the curve");
  EXPECT_EQ(unless_told_apart(pass, true, "why").verdict, CaseVerdict::kPass);
  const CaseOutcome unproven = unless_told_apart(pass, false, "no fill is deep enough");
  EXPECT_EQ(unproven.verdict, CaseVerdict::kSkipped);
  EXPECT_EQ(unproven.explanation, "no fill is deep enough");
  EXPECT_EQ(unproven.checks.size(), 1u);  // kept, for the report
  const CaseOutcome fail = judge("ecn", {exactly("marks below kmin", 3, 0, "frames")}, "followed the curve");
  EXPECT_EQ(unless_told_apart(fail, false, "why").verdict, CaseVerdict::kFail);
}

TEST(LosslessVerdicts, TheShallowestFillAndShortestPauseThatTellADeviceDoingNothingApart) {
  // The example curve (kmin 50 KB, kmax 250 KB, pmax 0.5, 1024 B frames): at 150 KB, 147
  // frames expect 12.2 marks +- 13.8, so 0 passes; from 158 frames (161,792 B) it does not.
  const ExpectedMarks at_150k = expected_ecn_marks(147, 1024, 50'000, 250'000, 0.5);
  EXPECT_NEAR(at_150k.mean, 12.2108, 1e-4);
  EXPECT_TRUE(zero_marks_allowed(at_150k));
  EXPECT_EQ(shallowest_telling_ecn_fill(1024, 50'000, 250'000, 0.5), 158u * 1024);
  EXPECT_TRUE(zero_marks_allowed(expected_ecn_marks(157, 1024, 50'000, 250'000, 0.5)));
  EXPECT_FALSE(zero_marks_allowed(expected_ecn_marks(158, 1024, 50'000, 250'000, 0.5)));
  // Marking from the first byte queued (kmin = kmax = 0): the first frame finds the queue
  // empty, every later one is marked; 2 marks leave 0 outside the 1 frame allowed.
  EXPECT_EQ(shallowest_telling_ecn_fill(1000, 0, 0, 0.5), 3000u);
  // 150 us of tolerance at 10 Gbit/s is 2929.7 quanta: 2930 is the first longer.
  EXPECT_EQ(shortest_telling_quanta(10'000'000'000, 10, 150e-6, 0), 2930u);
  EXPECT_GT(quanta_seconds(2930, 10'000'000'000), 150e-6);
  EXPECT_LE(quanta_seconds(2929, 10'000'000'000), 150e-6);
  // With 20 us of silence a run may have unreported: 170 us, 3320.3 quanta, so 3321.
  EXPECT_EQ(shortest_telling_quanta(10'000'000'000, 10, 150e-6, 20e-6), 3321u);
  EXPECT_LE(quanta_seconds(3320, 10'000'000'000), 170e-6);
  // 10 % of the pause is the larger tolerance from 1.5 ms on: p - p / 10 > 1.37 ms from 1.522 ms.
  EXPECT_EQ(shortest_telling_quanta(10'000'000'000, 10, 150e-6, 1.37e-3), 29731u);
  EXPECT_FALSE(shortest_telling_quanta(10'000'000'000, 100, 0, 0));  // a 100 % tolerance holds 0 for every pause
  EXPECT_FALSE(shortest_telling_quanta(100'000'000, 10, 1, 0));      // 1 s at 100M: beyond 65535 quanta
}

}  // namespace
}  // namespace lr::bench
