#include "control/suites/bench/back_to_back_search.hpp"

#include <algorithm>
#include <cmath>

namespace lr::bench {

BackToBackSearch::BackToBackSearch(BurstSettings settings) : settings_(settings) {
  if (settings_.max_frames > 0) next_ = settings_.max_frames;
}

void BackToBackSearch::record(bool passed, bool valid) {
  if (!next_) return;
  ++trials_;
  if (!valid) {
    if (!retried_) {
      retried_ = true;
      return;
    }
    tester_limited_ = true;
    next_.reset();
    return;
  }
  retried_ = false;
  if (passed) best_ = std::max(best_, *next_);
  else failed_ = failed_ == 0 ? *next_ : std::min(failed_, *next_);
  choose_next();
}

void BackToBackSearch::choose_next() {
  if (failed_ == 0) {  // the longest burst passed: nothing longer is asked
    next_.reset();
    return;
  }
  const auto step = std::max<uint64_t>(
      1, static_cast<uint64_t>(std::floor(static_cast<double>(failed_) * settings_.resolution_percent / 100.0)));
  if (failed_ - best_ <= step) {
    next_.reset();
    return;
  }
  next_ = best_ + (failed_ - best_) / 2;
}

}  // namespace lr::bench
