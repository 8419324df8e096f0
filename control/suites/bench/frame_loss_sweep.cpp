#include "control/suites/bench/frame_loss_sweep.hpp"

namespace lr::bench {

FrameLossSweep::FrameLossSweep(double start_percent, double step_percent)
    : step_percent_(step_percent), next_(start_percent) {}

void FrameLossSweep::record(double loss_ratio, bool valid) {
  if (!next_) return;
  if (!valid && !retried_) {
    retried_ = true;
    return;
  }
  retried_ = false;
  points_.push_back({*next_, loss_ratio, valid});
  loss_free_in_a_row_ = valid && loss_ratio == 0 ? loss_free_in_a_row_ + 1 : 0;
  const double lower = *next_ - step_percent_;
  if (loss_free_in_a_row_ >= 2 || lower <= 1e-9) next_.reset();
  else next_ = lower;
}

}  // namespace lr::bench
