#pragma once
// The frame loss rate procedure of RFC 2544 §26.3: trials from the highest load down in
// fixed steps, until two consecutive trials lose no frame (or the load reaches zero).

#include <optional>
#include <vector>

namespace lr::bench {

class FrameLossSweep {
 public:
  /// `start_percent` of line rate first, then `step_percent` less each trial.
  FrameLossSweep(double start_percent, double step_percent);

  std::optional<double> next() const noexcept { return next_; }
  /// The loss (a ratio) the trial at next() measured; an invalid trial is repeated once.
  void record(double loss_ratio, bool valid = true);
  bool done() const noexcept { return !next_.has_value(); }

  struct Point {
    double offered_percent;
    double loss_ratio;
    bool valid;  ///< false: the tester could not offer the load, twice
  };
  const std::vector<Point>& points() const noexcept { return points_; }

 private:
  double step_percent_;
  std::optional<double> next_;
  unsigned loss_free_in_a_row_ = 0;
  bool retried_ = false;
  std::vector<Point> points_;
};

}  // namespace lr::bench
