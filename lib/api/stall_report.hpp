#pragma once
// The times an lcore of the tester or of the software switch was held up (its loop
// neither polled nor sent): the evidence that a measurement was the host's, not the
// device's. Pure: no DPDK.

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace lr::api {

/// A time an lcore was held up: from when, for how long.
/// A loop iteration takes a microsecond or two; one of 20 us or more means the lcore was
/// held up. The tester's workers and the software switch count by this rule: a shorter
/// hold-up is in no report, so a verdict must not hang on one.
inline constexpr uint64_t kStallNs = 20'000;

struct Stall {
  double from_s = 0;  ///< since the run started
  double us = 0;
};

/// A tester worker lcore's stalls over a run: loop iterations longer than 20 us, when it
/// neither received (a frame read late looks late) nor sent (a lane falls behind).
struct LcoreStalls {
  unsigned lcore = 0;
  uint64_t stalls = 0;
  double longest_stall_us = 0;
  double stalled_us = 0;  ///< all the stalls together
  /// The longest stalls (at most 256, longest first; `stalls` counts them all).
  std::vector<Stall> longest_stalls;
};

/// Whether `stall` lasted at least `min_us` and overlaps [from_s, to_s] (seconds since the
/// run started): long enough, and where, to move what was measured there.
bool stall_overlaps(const Stall& stall, double from_s, double to_s, double min_us);

/// A stall of one of the tester's lcores.
struct LcoreStall {
  unsigned lcore = 0;
  Stall stall;
};

/// The longest stall of any of `lcores` that overlaps [from_s, to_s]; none when none does.
std::optional<LcoreStall> longest_stall_within(const std::vector<LcoreStalls>& lcores, double from_s, double to_s);

nlohmann::json to_json(const LcoreStalls& s);
LcoreStalls lcore_stalls_from_json(const nlohmann::json& j);
void to_json(nlohmann::json& j, const Stall& s);
void from_json(const nlohmann::json& j, Stall& s);

}  // namespace lr::api
