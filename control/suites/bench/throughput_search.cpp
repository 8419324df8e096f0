#include "control/suites/bench/throughput_search.hpp"

#include <algorithm>
#include <limits>

namespace lr::bench {

ThroughputSearch::ThroughputSearch(SearchSettings settings) : settings_(settings), next_(settings.upper_percent) {}

bool ThroughputSearch::passes(const TrialResult& trial) const noexcept {
  return trial.loss_ratio <= settings_.loss_tolerance &&
         (settings_.max_latency_p99_ns <= 0 || trial.latency_p99_ns <= settings_.max_latency_p99_ns);
}

void ThroughputSearch::learn(double rate, const TrialResult& trial) {
  if (!trial.valid || confirming_) return;
  tried_.push_back(rate);
  if (passes(trial)) {
    best_ = std::max(best_.value_or(0), rate);
  } else {
    failed_ = failed_ == 0 ? rate : std::min(failed_, rate);
    device_failed_.push_back(rate);
  }
  if (best_ && failed_ != 0 && *best_ >= failed_) best_.reset();  // drift between trials: trust the failure
  choose_next();
}

bool ThroughputSearch::counts(const TrialResult& trial) const noexcept {
  return trial.valid || (trial.lost_anyway && trial.loss_ratio > settings_.loss_tolerance);
}

void ThroughputSearch::record(const TrialResult& measured) {
  if (!next_) return;
  TrialResult trial = measured;
  trial.valid = counts(measured);
  const double rate = *next_;
  tried_.push_back(rate);
  if (!trial.valid) {
    steps_.push_back({rate, trial, false, confirming_});
    if (!retried_) {  // once more at the same rate
      retried_ = true;
      return;
    }
    tester_limited_.push_back(rate);  // twice: treated as a failure at this rate, and said
  }
  retried_ = false;
  const bool passed = trial.valid && passes(trial);
  if (trial.valid) steps_.push_back({rate, trial, passed, confirming_});
  if (trial.valid && !passed) device_failed_.push_back(rate);

  if (confirming_) {
    if (passed) {
      if (--confirmations_left_ == 0) next_.reset();
      return;
    }
    // Drift: the rate no longer holds. Search below it again, from what passed before.
    confirming_ = false;
    step_down_ = 0;
    failed_ = rate;
    best_.reset();
    for (const Step& s : steps_)
      if (s.passed && !s.confirmation && s.rate_percent < rate) best_ = std::max(best_.value_or(0), s.rate_percent);
    choose_next();
    return;
  }
  if (passed) {
    best_ = std::max(best_.value_or(0), rate);
  } else {
    failed_ = failed_ == 0 ? rate : std::min(failed_, rate);
  }
  // The first valid trial lost frames: what the device forwarded in it is the next guess
  // (a trial the tester could not drive, and its retry, do not change that).
  const auto valid_steps = std::count_if(steps_.begin(), steps_.end(), [](const Step& s) { return s.trial.valid; });
  if (!passed && valid_steps == 1 && trial.valid && trial.forwarded_percent > settings_.lower_percent &&
      trial.forwarded_percent < rate - settings_.resolution_percent) {
    next_ = trial.forwarded_percent;
    guessing_ = true;
    return;
  }
  // The guess (or a step down from it) failed: step down further, doubling the step.
  if (!passed && (guessing_ || step_down_ > 0)) {
    step_down_ = step_down_ == 0 ? settings_.resolution_percent : 2 * step_down_;
    guessing_ = false;
    const double low = best_.value_or(settings_.lower_percent);
    if (rate - step_down_ > low + settings_.resolution_percent) {
      next_ = rate - step_down_;
      return;
    }
  }
  guessing_ = false;
  step_down_ = 0;
  choose_next();
}

const char* ThroughputSearch::limited_by() const noexcept {
  const double found = best_.value_or(0);
  if (found >= settings_.upper_percent) return "line rate";
  // The lowest rate above the answer that did not pass says why: the device lost frames
  // there, or the tester could not offer it (the device's loss further up tells nothing
  // of the rates between).
  const auto lowest_above = [found](const std::vector<double>& rates) {
    double lowest = std::numeric_limits<double>::infinity();
    for (const double rate : rates)
      if (rate > found) lowest = std::min(lowest, rate);
    return lowest;
  };
  const double tester = lowest_above(tester_limited_);
  return tester < lowest_above(device_failed_) ? "tester" : "device";
}

void ThroughputSearch::choose_next() {
  const double low = best_.value_or(settings_.lower_percent);
  const double high = failed_ == 0 ? settings_.upper_percent : failed_;
  if (high - low > settings_.resolution_percent) {
    next_ = (low + high) / 2;
    return;
  }
  if (!best_) {
    // Nothing passed yet: the lower bound itself decides.
    const bool lower_tried = std::find(tried_.begin(), tried_.end(), settings_.lower_percent) != tried_.end();
    if (!lower_tried) next_ = settings_.lower_percent;
    else next_.reset();
    return;
  }
  if (settings_.confirmations > 0) {
    confirming_ = true;
    confirmations_left_ = settings_.confirmations;
    next_ = *best_;
    return;
  }
  next_.reset();
}

}  // namespace lr::bench
