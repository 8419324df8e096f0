#include "control/suites/bench/mlr_search.hpp"

#include <algorithm>
#include <cmath>

namespace lr::bench {

namespace {

// A search that does not settle (a device whose loss never repeats) still ends.
constexpr unsigned kMaxTrials = 10'000;

}  // namespace

LoadClassification classify_load(const std::vector<MlrTrial>& trials, const MlrGoal& goal) {
  double full_low = 0, full_high = 0, short_low = 0, short_high = 0;
  for (const MlrTrial& t : trials) {
    const bool high = t.loss_ratio > goal.loss_ratio;
    const bool full = t.duration_s >= goal.final_trial_duration_s;
    (full ? (high ? full_high : full_low) : (high ? short_high : short_low)) += t.duration_s;
  }
  // Short low-loss trials offset short high-loss ones in the proportion the exceed ratio
  // allows; they never make a load look better than its full-length trials.
  const double balancing = goal.exceed_ratio >= 1 ? short_high : short_low * goal.exceed_ratio / (1 - goal.exceed_ratio);
  const double effective_high = full_high + std::max(0.0, short_high - balancing);
  const double effective_full = effective_high + full_low;
  const double missing = std::max(0.0, goal.duration_sum_s - effective_full);
  const double whole = std::max(goal.duration_sum_s, effective_full);
  LoadClassification c;
  c.optimistic_exceed_ratio = whole > 0 ? effective_high / whole : 0;
  c.pessimistic_exceed_ratio = whole > 0 ? (effective_high + missing) / whole : 1;
  if (c.optimistic_exceed_ratio > goal.exceed_ratio) c.load_class = LoadClass::kUpperBound;
  else if (c.pessimistic_exceed_ratio <= goal.exceed_ratio) c.load_class = LoadClass::kLowerBound;
  return c;
}

double quantile_loss_ratio(const std::vector<MlrTrial>& trials, const MlrGoal& goal) {
  std::vector<MlrTrial> full;
  double full_sum = 0;
  for (const MlrTrial& t : trials)
    if (t.duration_s >= goal.final_trial_duration_s) full.push_back(t), full_sum += t.duration_s;
  std::sort(full.begin(), full.end(), [](const MlrTrial& a, const MlrTrial& b) { return a.loss_ratio > b.loss_ratio; });
  // The exceed ratio's share of the trial time (the missing time counted as lossless)
  // is allowed to be worse than the quantile: skip that much from the worst.
  double allowed = std::max(goal.duration_sum_s, full_sum) * goal.exceed_ratio;
  for (const MlrTrial& t : full) {
    if (t.duration_s > allowed) return t.loss_ratio;
    allowed -= t.duration_s;
  }
  return 0;
}

MlrSearch::MlrSearch(std::vector<MlrGoal> goals, double min_load, double max_load)
    : goals_(std::move(goals)), min_load_(min_load), max_load_(max_load) {
  if (!goals_.empty()) target_ = goals_[0].preceding_targets;
  choose_next();
}

// Preceding target k of a goal is 2^k times as wide, its trials shorter on a geometric
// scale from the initial to the final duration, and one trial decides a load there.
MlrGoal MlrSearch::target_goal() const {
  MlrGoal g = goals_[goal_];
  if (target_ == 0) return g;
  g.relative_width = std::min(0.5, g.relative_width * std::pow(2.0, target_));
  const double steps = g.preceding_targets;
  const double ratio = g.final_trial_duration_s / g.initial_trial_duration_s;
  g.final_trial_duration_s = g.initial_trial_duration_s * std::pow(ratio, (steps - target_) / steps);
  g.duration_sum_s = g.final_trial_duration_s;
  return g;
}

// The next load the target needs, or none when its bounds are close enough (or can come
// no closer: no lower bound above min_load, or max_load a lower bound).
MlrSearch::Bounds MlrSearch::bounds(const MlrGoal& goal) const {
  Bounds b;
  for (const auto& [load, measured] : trials_) {
    if (classify_load(measured, goal).load_class == LoadClass::kUpperBound) {
      b.upper = load;
      break;
    }
  }
  for (const auto& [load, measured] : trials_) {
    if (b.upper && load >= *b.upper) break;
    const LoadClass c = classify_load(measured, goal).load_class;
    if (c == LoadClass::kLowerBound) b.lower = load;
    else if (c == LoadClass::kUndecided) b.undecided.push_back(load);
  }
  return b;
}

std::optional<double> MlrSearch::load_for(const MlrGoal& target) const {
  const auto [lower, upper, undecided] = bounds(target);
  // An undecided load between the bounds needs more trials before the bounds can move.
  for (const double load : undecided)
    if (!lower || load > *lower) return load;
  if (!upper) return lower && *lower >= max_load_ ? std::nullopt : std::optional<double>(max_load_);
  // The upper bound's forwarded rate is where the device gave out (as the classic search's
  // second guess): no lower bound yet, it is the next load, no closer than the width below;
  // with one, the next load steps the width above the lower bound toward it, so a device
  // found at its forwarded rate takes a trial or two, not a bisection from max_load.
  const std::vector<MlrTrial>& at = trials_.at(*upper);
  double worst = 0;
  for (const MlrTrial& t : at) worst = std::max(worst, t.loss_ratio);
  const double forwarded = *upper * (1 - worst);
  if (!lower) {
    if (*upper <= min_load_) return std::nullopt;
    return std::max(min_load_, std::min(forwarded, *upper * (1 - target.relative_width)));
  }
  if ((*upper - *lower) / *upper <= target.relative_width) return std::nullopt;
  return std::min(*lower + (*upper - *lower) / 2, std::max(*lower / (1 - target.relative_width), forwarded));
}

void MlrSearch::choose_next() {
  next_.reset();
  if (trials_run_ >= kMaxTrials) return;
  while (goal_ < goals_.size()) {
    const MlrGoal target = target_goal();
    if (const auto load = load_for(target)) {
      next_ = Next{*load, target.final_trial_duration_s, goal_, target_};
      return;
    }
    if (target_ > 0) {
      --target_;
    } else if (++goal_ < goals_.size()) {
      target_ = goals_[goal_].preceding_targets;
    }
  }
}

void MlrSearch::record(const TrialResult& trial) {
  if (!next_) return;
  ++trials_run_;
  const double load = next_->load_percent;
  if (!trial.valid && !trial.lost_anyway) {
    // The tester could not offer this load: once more, then the search stays below it.
    if (++invalid_in_row_ < 2) return;
    invalid_in_row_ = 0;
    tester_limited_ = true;
    max_load_ = std::max(min_load_, std::min(load, trial.offered_percent) * 0.99);
    for (auto it = trials_.lower_bound(max_load_ + 1e-12); it != trials_.end();) it = trials_.erase(it);
    choose_next();
    return;
  }
  invalid_in_row_ = 0;
  trials_[load].push_back({next_->duration_s, trial.loss_ratio});
  choose_next();
}

MlrGoalResult MlrSearch::result(size_t index) const {
  const MlrGoal& goal = goals_.at(index);
  MlrGoalResult r;
  r.tester_limited = tester_limited_;
  const Bounds b = bounds(goal);
  r.relevant_lower_bound = b.lower;
  r.relevant_upper_bound = b.upper;
  if (r.relevant_lower_bound)
    r.conditional_throughput =
        *r.relevant_lower_bound * (1 - quantile_loss_ratio(trials_.at(*r.relevant_lower_bound), goal));
  return r;
}

}  // namespace lr::bench
