#pragma once
// How a run runs, as the two programs agree on it: the profile's [run] section, and what
// stream.load may send with the streams (profile/run_spec_json.hpp gives its JSON form).

#include <cstdint>

namespace lr::api {

/// The most bins a timeline holds: 10 minutes of 1 ms bins, 4.8 MB per stream and lcore.
inline constexpr uint64_t kMaxTimelineBins = 600'000;

struct RunSpec {
  uint64_t drain_ns = 500'000'000;   ///< RX keeps polling this long after TX stops
  bool live = true;                  ///< print a line per second while traffic runs
  uint64_t timeline_bin_ns = 0;      ///< frames counted per stream in bins this wide; 0: no timeline
  uint64_t timeline_span_ns = 0;     ///< how long the bins cover; 0: the streams' longest run and the drain

  bool operator==(const RunSpec&) const = default;
};

}  // namespace lr::api
