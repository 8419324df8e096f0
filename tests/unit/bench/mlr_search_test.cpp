// MLRsearch (RFC 9971): loads classified by the goal's rules over all their trials (short
// ones balanced), the conditional throughput's quantile, and the whole search against
// simulated devices: a steady one found within each goal's width, a flaky one whose
// occasional loss the exceed ratio tolerates (and a zero exceed ratio does not), the
// tester's limit, and a device that loses at every load.

#include "control/suites/bench/mlr_search.hpp"

#include <gtest/gtest.h>

#include <functional>

namespace lr::bench {
namespace {

MlrGoal goal(double loss_ratio, double exceed_ratio, double final_s, double sum_s) {
  MlrGoal g;
  g.loss_ratio = loss_ratio;
  g.exceed_ratio = exceed_ratio;
  g.final_trial_duration_s = final_s;
  g.duration_sum_s = sum_s;
  return g;
}

std::vector<MlrTrial> repeated(unsigned n, double duration_s, double loss_ratio) {
  return std::vector<MlrTrial>(n, MlrTrial{duration_s, loss_ratio});
}

std::vector<MlrTrial> operator+(std::vector<MlrTrial> a, const std::vector<MlrTrial>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(MlrClassification, ALoadIsDecidedOnlyWhenNoCompletionOfItsMissingTimeCouldChangeIt) {
  const MlrGoal csit = goal(0, 0.5, 1, 21);  // CSIT's NDR goal
  EXPECT_EQ(classify_load({}, csit).load_class, LoadClass::kUndecided);
  // 10 s low-loss of 21: the missing 11 s could all be high-loss.
  EXPECT_EQ(classify_load(repeated(10, 1, 0), csit).load_class, LoadClass::kUndecided);
  EXPECT_EQ(classify_load(repeated(11, 1, 0), csit).load_class, LoadClass::kLowerBound);
  EXPECT_EQ(classify_load(repeated(10, 1, 0.01), csit).load_class, LoadClass::kUndecided);
  EXPECT_EQ(classify_load(repeated(11, 1, 0.01), csit).load_class, LoadClass::kUpperBound);
  // 10 high and 11 low: 10/21 of the time exceeded, within the half allowed.
  const LoadClassification mixed = classify_load(repeated(10, 1, 0.01) + repeated(11, 1, 0), csit);
  EXPECT_EQ(mixed.load_class, LoadClass::kLowerBound);
  EXPECT_DOUBLE_EQ(mixed.optimistic_exceed_ratio, 10.0 / 21);
  EXPECT_DOUBLE_EQ(mixed.pessimistic_exceed_ratio, 10.0 / 21);
  // RFC 2544's own goal: one full-length trial decides, and any loss is an upper bound.
  const MlrGoal rfc2544 = goal(0, 0, 60, 60);
  EXPECT_EQ(classify_load(repeated(1, 60, 0), rfc2544).load_class, LoadClass::kLowerBound);
  EXPECT_EQ(classify_load(repeated(1, 60, 1e-9), rfc2544).load_class, LoadClass::kUpperBound);
  EXPECT_EQ(classify_load(repeated(1, 59, 0), rfc2544).load_class, LoadClass::kUndecided);  // short: decides nothing
  // A loss at the goal's own ratio is not high-loss.
  EXPECT_EQ(classify_load(repeated(1, 60, 0.005), goal(0.005, 0, 60, 60)).load_class, LoadClass::kLowerBound);
}

TEST(MlrClassification, ShortHighLossTrialsCountBeyondWhatShortLowLossTrialsBalance) {
  const MlrGoal g = goal(0, 0.5, 10, 10);
  // A short high-loss trial alone: 1 s of 10 exceeded, undecided (the other 9 s unknown).
  EXPECT_EQ(classify_load(repeated(1, 1, 0.1), g).load_class, LoadClass::kUndecided);
  // Six short high-loss seconds, none balanced: more than half of 10 s, an upper bound.
  EXPECT_EQ(classify_load(repeated(6, 1, 0.1), g).load_class, LoadClass::kUpperBound);
  // With exceed ratio 0.5 each short low-loss second balances one short high-loss second.
  EXPECT_EQ(classify_load(repeated(6, 1, 0.1) + repeated(6, 1, 0), g).load_class, LoadClass::kUndecided);
  // Short low-loss trials never make a lower bound: only full-length ones do.
  EXPECT_EQ(classify_load(repeated(30, 1, 0), g).load_class, LoadClass::kUndecided);
  EXPECT_EQ(classify_load(repeated(30, 1, 0) + repeated(1, 10, 0), g).load_class, LoadClass::kLowerBound);
}

TEST(MlrConditionalThroughput, TheQuantileLossRatioSkipsTheWorstShareTheExceedRatioAllows) {
  const MlrGoal csit = goal(0.005, 0.5, 1, 21);
  // 21 trials of 1 s with losses 0.000, 0.001, ... 0.020: the worst 10.5 s are skipped, the
  // 11th worst (0.010) is the quantile.
  std::vector<MlrTrial> trials;
  for (int i = 0; i <= 20; ++i) trials.push_back({1, i * 0.001});
  EXPECT_DOUBLE_EQ(quantile_loss_ratio(trials, csit), 0.010);
  // Exceed ratio 0: the worst trial.
  EXPECT_DOUBLE_EQ(quantile_loss_ratio(trials, goal(0.005, 0, 1, 21)), 0.020);
  // Fewer trials than the sum: the missing time counts as lossless (11 s of 21 here).
  EXPECT_DOUBLE_EQ(quantile_loss_ratio(repeated(11, 1, 0.002), csit), 0.002);
  EXPECT_DOUBLE_EQ(quantile_loss_ratio(repeated(10, 1, 0.002), csit), 0.0);
  EXPECT_DOUBLE_EQ(quantile_loss_ratio(repeated(3, 0.5, 0.9), csit), 0.0);  // short trials are not in it
}

// A device forwarding up to `capacity` % of line rate; `flaky` trials (by their count at
// the load) lose 1 % below it too.
struct Device {
  double capacity = 63.7;
  std::function<bool(unsigned)> flaky = [](unsigned) { return false; };
  std::map<double, unsigned> seen;
  TrialResult operator()(double load) {
    const unsigned n = seen[load]++;
    const double forwarded = std::min(load, capacity) * (load <= capacity && flaky(n) ? 0.99 : 1);
    return {load, forwarded, (load - forwarded) / load, true};
  }
};

MlrSearch run(std::vector<MlrGoal> goals, Device& device, unsigned* trials = nullptr) {
  MlrSearch search(std::move(goals), 1, 100);
  unsigned n = 0;
  for (; search.next() && n < 2000; ++n) search.record(device(search.next()->load_percent));
  EXPECT_TRUE(search.done());
  if (trials != nullptr) *trials = n;
  return search;
}

std::vector<MlrGoal> ndr_pdr(double exceed_ratio) {
  MlrGoal ndr = goal(0, exceed_ratio, 1, 21);
  MlrGoal pdr = goal(0.005, exceed_ratio, 1, 21);
  pdr.name = "pdr";
  ndr.initial_trial_duration_s = pdr.initial_trial_duration_s = 0.1;
  return {ndr, pdr};
}

TEST(MlrSearch, ASteadyDeviceIsFoundWithinEachGoalsWidth) {
  for (const double capacity : {63.7, 99.9, 7.25}) {
    Device device;
    device.capacity = capacity;
    unsigned trials = 0;
    const MlrSearch search = run(ndr_pdr(0.5), device, &trials);
    const MlrGoalResult ndr = search.result(0);
    const MlrGoalResult pdr = search.result(1);
    ASSERT_TRUE(ndr.relevant_lower_bound && ndr.relevant_upper_bound) << capacity;
    EXPECT_LE(*ndr.relevant_lower_bound, capacity);
    EXPECT_GT(*ndr.relevant_upper_bound, capacity);
    EXPECT_LE((*ndr.relevant_upper_bound - *ndr.relevant_lower_bound) / *ndr.relevant_upper_bound, 0.005);
    EXPECT_DOUBLE_EQ(*ndr.conditional_throughput, *ndr.relevant_lower_bound);  // no loss there
    // PDR: loss up to 0.5 %, so up to capacity / 0.995; above line rate at 99.9 %.
    ASSERT_TRUE(pdr.relevant_lower_bound) << capacity;
    EXPECT_LE(*pdr.relevant_lower_bound, std::min(100.0, capacity / 0.995));
    if (capacity / 0.995 < 100) {
      ASSERT_TRUE(pdr.relevant_upper_bound) << capacity;
      EXPECT_GT(*pdr.relevant_upper_bound, capacity / 0.995);
    } else {
      EXPECT_EQ((std::pair{pdr.relevant_lower_bound, pdr.relevant_upper_bound}),
                (std::pair{std::optional<double>(100.0), std::optional<double>()}));
    }
    EXPECT_NEAR(*pdr.conditional_throughput, std::min(*pdr.relevant_lower_bound, capacity), 1e-9);
    // Each bound of the goal's own target needs 11 trials of the final duration.
    EXPECT_LT(trials, 120u) << capacity;
  }
}

TEST(MlrSearch, AFlakyDeviceIsJudgedByTheExceedRatioNotByOneTrial) {
  // Below its capacity, every third trial at a load loses 1 %: a third of the time.
  Device flaky;
  flaky.flaky = [](unsigned n) { return n % 3 == 2; };
  const MlrGoalResult tolerant = run(ndr_pdr(0.5), flaky).result(0);
  ASSERT_TRUE(tolerant.relevant_lower_bound);
  EXPECT_GE(*tolerant.relevant_lower_bound, 63.7 * 0.99);
  // The conditional throughput is the lower bound's median forwarding: its loss-free trials.
  EXPECT_DOUBLE_EQ(*tolerant.conditional_throughput, *tolerant.relevant_lower_bound);
  // Exceed ratio 0 (RFC 2544's rule, one lossy trial fails a load) finds no lower bound
  // above the minimum that survives 21 trials: the flaky loss is everywhere.
  Device again;
  again.flaky = flaky.flaky;
  const MlrGoalResult strict = run(ndr_pdr(0.0), again).result(0);
  EXPECT_FALSE(strict.relevant_lower_bound);
  ASSERT_TRUE(strict.relevant_upper_bound);
  EXPECT_DOUBLE_EQ(*strict.relevant_upper_bound, 1.0);
}

TEST(MlrSearch, ALineRateDeviceEndsAtMaxLoadWithNoUpperBound) {
  Device device;
  device.capacity = 100;
  const MlrSearch search = run(ndr_pdr(0.5), device);
  const MlrGoalResult ndr = search.result(0);
  EXPECT_EQ(ndr.relevant_lower_bound, 100.0);
  EXPECT_FALSE(ndr.relevant_upper_bound);
}

TEST(MlrSearch, TheTestersLimitTakesTheLoadsAboveItOut) {
  // The tester offers at most 80 %: trials above are invalid; the device forwards all.
  MlrSearch search(ndr_pdr(0.5), 1, 100);
  for (unsigned n = 0; search.next() && n < 2000; ++n) {
    const double load = search.next()->load_percent;
    TrialResult r{std::min(load, 80.0), std::min(load, 80.0), 0, load <= 80.0};
    search.record(r);
  }
  const MlrGoalResult ndr = search.result(0);
  EXPECT_TRUE(ndr.tester_limited);
  ASSERT_TRUE(ndr.relevant_lower_bound);
  EXPECT_NEAR(*ndr.relevant_lower_bound, 79.2, 1e-9);  // 99 % of what it could offer, the highest load left
  EXPECT_FALSE(ndr.relevant_upper_bound);
}

TEST(MlrSearch, PrecedingTargetsUseShorterTrialsFirst) {
  Device device;
  MlrSearch search(ndr_pdr(0.5), 1, 100);
  std::vector<double> durations;
  for (unsigned n = 0; search.next() && n < 2000; ++n) {
    durations.push_back(search.next()->duration_s);
    search.record(device(search.next()->load_percent));
  }
  ASSERT_GE(durations.size(), 3u);
  EXPECT_NEAR(durations.front(), 0.1, 1e-12);  // the initial trial duration
  EXPECT_NEAR(durations.back(), 1.0, 1e-12);   // the final one
  EXPECT_TRUE(std::is_sorted(durations.begin(), durations.begin() + 3));
}

}  // namespace
}  // namespace lr::bench
