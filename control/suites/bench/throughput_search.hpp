#pragma once
// The throughput search of RFC 2544 §26.1, as a state machine over trial results: the
// highest offered load (in % of line rate) whose frame loss stays within a tolerance,
// to a resolution. Pure: the trial runner asks it for the next rate and tells it what a
// trial measured, so the search is tested against simulated devices. The first trial is
// at the upper bound; when it loses frames, the rate the device forwarded in it is the
// next guess (a device that forwards 60 % takes one trial to find, not ten). When that
// guess loses a little too, the capacity is usually just below it: the search steps down
// from it by the resolution, doubling the step each time (so a guess a hair too high costs
// a few trials, not a halving to the lower bound), then a binary search between the
// highest pass and the lowest failure. An optional confirmation repeats the found rate to
// catch drift.

#include <optional>
#include <vector>

namespace lr::bench {

/// What one trial measured, in % of the ports' line rate.
struct TrialResult {
  double offered_percent = 0;    ///< what TX measurably sent, not what was asked
  double forwarded_percent = 0;  ///< distinct frames received over the trial
  double loss_ratio = 0;         ///< lost / sent
  bool valid = true;             ///< false: the tester was the limit, or a link went down
  double latency_p99_ns = 0;     ///< 0: not measured
  /// Invalid only because the tester sent less than asked, yet the device lost frames:
  /// sending less only eases a device's task, so the loss is its own, and a trial that
  /// lost beyond the tolerance fails the rate asked.
  bool lost_anyway = false;
};

struct SearchSettings {
  double lower_percent = 1.0;
  double upper_percent = 100.0;
  double resolution_percent = 0.1;
  double loss_tolerance = 0.0;  ///< a ratio: 0.001 is 0.1 %
  unsigned confirmations = 0;   ///< times the found rate is repeated at the end
  double max_latency_p99_ns = 0;  ///< a trial also passes only under this p99 (0: no bound)
};

class ThroughputSearch {
 public:
  explicit ThroughputSearch(SearchSettings settings);

  /// The rate of the next trial, or nullopt when the search is over.
  std::optional<double> next() const noexcept { return next_; }
  /// What the trial at next() measured.
  void record(const TrialResult& trial);
  /// A valid trial another search ran at `rate` (NDR learning from the PDR search):
  /// it narrows this search's bounds without counting as one of its steps.
  void learn(double rate, const TrialResult& trial);
  /// Whether a trial meets this search's loss tolerance and latency bound.
  bool passes(const TrialResult& trial) const noexcept;
  /// Whether record() takes `trial` as measured: valid, or invalid only because the tester
  /// sent less than asked while the device lost beyond the tolerance (its loss: the rate fails).
  bool counts(const TrialResult& trial) const noexcept;

  /// The highest rate whose loss was within the tolerance in its trial and in every
  /// confirmation; nullopt when none was (the lower bound lost frames too).
  std::optional<double> result() const noexcept { return done() ? best_ : std::nullopt; }
  bool done() const noexcept { return !next_.has_value(); }
  /// Rates whose trials were invalid twice in a row: the tester, not the device, was the limit.
  const std::vector<double>& tester_limited() const noexcept { return tester_limited_; }
  /// What kept the answer from being higher: "line rate" (it is the upper bound), "device"
  /// (a valid trial above it lost too much), or "tester" (only trials the tester could not
  /// drive were above it). Meaningful once result() has a value.
  const char* limited_by() const noexcept;
  struct Step {
    double rate_percent;
    TrialResult trial;
    bool passed;
    bool confirmation;
  };
  const std::vector<Step>& steps() const noexcept { return steps_; }

 private:
  void choose_next();

  SearchSettings settings_;
  std::optional<double> next_;
  std::optional<double> best_;    ///< highest rate that passed
  double failed_ = 0;             ///< lowest rate that failed (above best_), 0: none yet
  unsigned confirmations_left_ = 0;
  bool confirming_ = false;
  bool retried_ = false;          ///< the current rate was already repeated once for an invalid trial
  bool guessing_ = false;         ///< the next trial is at the first trial's forwarded rate
  double step_down_ = 0;          ///< stepping down from a failed guess by this much, 0: not
  std::vector<double> tried_;     ///< every rate tried, learnt ones included
  std::vector<double> device_failed_;  ///< rates of valid trials that did not pass, learnt ones included
  std::vector<double> tester_limited_;
  std::vector<Step> steps_;
};

}  // namespace lr::bench
