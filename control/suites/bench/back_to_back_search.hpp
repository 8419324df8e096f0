#pragma once
// The back-to-back search of RFC 2544 §26.4 as updated by RFC 9004: the longest burst of
// frames at line rate (minimum gap) that the device forwards without loss. The first
// burst is the longest (`max_frames`, RFC 9004 asks for at least 2 s of line rate);
// a burst that loses frames halves the interval, one that passes raises the floor,
// until the interval is within the resolution. Pure, like the throughput search.

#include <cstdint>
#include <optional>
#include <vector>

namespace lr::bench {

struct BurstSettings {
  uint64_t max_frames = 0;
  double resolution_percent = 0.1;  ///< of the burst length, at least one frame
};

class BackToBackSearch {
 public:
  explicit BackToBackSearch(BurstSettings settings);

  /// Frames in the next burst, or nullopt when the search is over.
  std::optional<uint64_t> next() const noexcept { return next_; }
  /// `passed`: every frame of the burst came back. `valid` false: the tester could not
  /// send the burst at line rate (or a link went down); repeated once, then it ends
  /// the search, as the tester's limit. (A burst sent below line rate that lost frames
  /// anyway is the device's loss: the caller records it valid and not passed.)
  void record(bool passed, bool valid = true);

  /// The longest burst that passed (0: not even one frame).
  uint64_t result() const noexcept { return best_; }
  /// The shortest burst that lost frames (0: none did): with tester_limited(), the device
  /// had shown that it cannot take a burst this long, and the tester ended the search.
  uint64_t shortest_lossy() const noexcept { return failed_; }
  bool done() const noexcept { return !next_.has_value(); }
  bool tester_limited() const noexcept { return tester_limited_; }
  unsigned trials() const noexcept { return trials_; }

 private:
  void choose_next();

  BurstSettings settings_;
  std::optional<uint64_t> next_;
  uint64_t best_ = 0;     ///< longest burst that passed
  uint64_t failed_ = 0;   ///< shortest burst that lost frames, 0: none yet
  unsigned trials_ = 0;
  bool retried_ = false;
  bool tester_limited_ = false;
};

}  // namespace lr::bench
