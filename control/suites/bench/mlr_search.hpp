#pragma once
// MLRsearch (RFC 9971, which draft-ietf-bmwg-mlrsearch became): the conditional throughput
// of each search goal, as FD.io CSIT publishes VPP's NDR and PDR. A goal says what loss
// ratio a trial may have (loss_ratio), what share of the trial time at a load may exceed
// it (exceed_ratio), how close the bounds must come (relative_width) and how long trials
// and their sum at a load must be (final_trial_duration, duration_sum). Each load is
// classified by the goal's rules over every trial measured at it (load_class): an upper
// bound when even the most favourable completion of its missing trial time exceeds the
// exceed ratio, a lower bound when even the least favourable does not. The search narrows
// the bounds through coarser preceding targets (wider, with shorter trials) first, reuses
// every trial for every goal, and ends each goal at its relevant lower and upper bound.
// Pure, as the classic search: the trial runner asks for the next load and duration.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "control/suites/bench/throughput_search.hpp"

namespace lr::bench {

/// A search goal, with the RFC's attribute names.
struct MlrGoal {
  std::string name = "ndr";
  double loss_ratio = 0;                 ///< Goal Loss Ratio: a trial above it is high-loss
  double exceed_ratio = 0.5;             ///< Goal Exceed Ratio: the share of trial time that may be high-loss
  double relative_width = 0.005;         ///< Goal Width: (upper - lower) / upper at the end
  double initial_trial_duration_s = 1;   ///< Goal Initial Trial Duration: the first preceding target's
  double final_trial_duration_s = 1;     ///< Goal Final Trial Duration: a shorter trial is short
  double duration_sum_s = 21;            ///< Goal Duration Sum: trial time a load needs to be decided
  unsigned preceding_targets = 2;        ///< coarser targets (twice as wide each) before the goal's own
};

/// One trial as classification sees it.
struct MlrTrial {
  double duration_s = 0;
  double loss_ratio = 0;
};

enum class LoadClass { kUndecided, kLowerBound, kUpperBound };

/// What the trials at one load say under a goal's loss ratio, exceed ratio, final trial
/// duration and duration sum (RFC 9971's load classification). Short trials count against
/// the load only beyond what its short low-loss trials balance.
struct LoadClassification {
  LoadClass load_class = LoadClass::kUndecided;
  double optimistic_exceed_ratio = 0;   ///< the missing trial time all low-loss
  double pessimistic_exceed_ratio = 0;  ///< the missing trial time all high-loss
};
LoadClassification classify_load(const std::vector<MlrTrial>& trials, const MlrGoal& goal);

/// The loss ratio at the goal's exceed-ratio quantile of a load's full-length trials (time
/// weighted, highest first): the conditional throughput is the load times one minus it.
double quantile_loss_ratio(const std::vector<MlrTrial>& trials, const MlrGoal& goal);

/// A goal's answer, in % of line rate.
struct MlrGoalResult {
  std::optional<double> relevant_lower_bound;   ///< none: even min_load is an upper bound
  std::optional<double> relevant_upper_bound;   ///< none: max_load is a lower bound
  std::optional<double> conditional_throughput; ///< the relevant lower bound x (1 - its quantile loss ratio)
  bool tester_limited = false;                  ///< the tester could not offer the loads above
};

class MlrSearch {
 public:
  struct Next {
    double load_percent = 0;
    double duration_s = 0;
    size_t goal = 0;
    unsigned target = 0;  ///< preceding targets still ahead of the goal's own (0: its own)
  };

  /// Loads in % of line rate between `min_load` and `max_load`.
  MlrSearch(std::vector<MlrGoal> goals, double min_load, double max_load);

  std::optional<Next> next() const noexcept { return next_; }
  /// What the trial at next() measured. An invalid trial (the tester the limit) is not a
  /// trial of the device: twice at a load, the loads above it are taken from the search.
  void record(const TrialResult& trial);

  bool done() const noexcept { return !next_.has_value(); }
  const std::vector<MlrGoal>& goals() const noexcept { return goals_; }
  MlrGoalResult result(size_t goal) const;
  /// Every load measured and its trials, lowest first.
  const std::map<double, std::vector<MlrTrial>>& trials() const noexcept { return trials_; }

 private:
  /// The smallest upper bound, the largest lower bound below it, and the undecided loads
  /// below it, under `goal`'s classification.
  struct Bounds {
    std::optional<double> lower, upper;
    std::vector<double> undecided;
  };
  Bounds bounds(const MlrGoal& goal) const;
  MlrGoal target_goal() const;  ///< the goal as its current target sees it
  void choose_next();
  std::optional<double> load_for(const MlrGoal& target) const;

  std::vector<MlrGoal> goals_;
  double min_load_;
  double max_load_;
  size_t goal_ = 0;
  unsigned target_ = 0;
  std::map<double, std::vector<MlrTrial>> trials_;
  std::optional<Next> next_;
  unsigned invalid_in_row_ = 0;
  bool tester_limited_ = false;
  unsigned trials_run_ = 0;
};

}  // namespace lr::bench
