#pragma once
// What a lossless run's report says over time, read once for every case: each stream's
// exact longest silence and its rate timelines (frames sent and received per bin), the
// MAC Control frames a port heard, and when the tester sent a MAC Control stream.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lib/api/run_report.hpp"

namespace lr::bench::lossless {

using nlohmann::json;

/// The stream called `name` in a run report; an empty one (no frames, no timeline) when
/// there is none.
const api::StreamReport& stream_of(const api::RunReport& report, const std::string& name);

/// A stream's longest silence at its receiver (timeline.longest_rx_gap), to the cycle.
struct Silence {
  double from_s = 0;
  double to_s = 0;
  bool known = false;
  double seconds() const { return to_s - from_s; }
};

Silence silence_of(const api::StreamReport& stream);

/// A stream's timeline bins ("tx" or "rx"), and their width in seconds (0: no timeline).
std::vector<uint64_t> bins_of(const api::StreamReport& stream, const char* which);
double bin_s_of(const api::StreamReport& stream);

inline double us(double seconds) { return seconds * 1e6; }

// A run of empty timeline bins: the bin it begins at, and how many.
struct EmptyRun {
  size_t from = 0;
  size_t length = 0;
};

// The longest run of empty bins that begins in bins [first, last] (one under way at
// `first` counts from there), followed no further than bin `end` (excluded).
EmptyRun longest_empty_run(const std::vector<uint64_t>& bins, size_t first, size_t last, size_t end);

// The longest run of empty bins that begins within `within_s` after `t0_s`, as time.
double empty_bins_after(const std::vector<uint64_t>& bins, double bin_s, double t0_s, double within_s);

// The first and the last bin with frames in them; none when every bin is empty.
struct BinSpan {
  size_t first = 0;
  size_t last = 0;
};

std::optional<BinSpan> bins_with_frames(const std::vector<uint64_t>& bins);

// How long, within the first `until_s` of a run, none of the streams `names` sent a
// frame, beyond the first `bridged_s` of each such silence (what a queue bridges).
double silent_seconds(const api::RunReport& report, const std::vector<std::string>& names, double until_s, double bridged_s);

// When the tester sent a MAC Control stream: the start of the TX bins of its first frame
// and of its last (to the bin: its lcore may send later than planned); `planned` when the
// run has no such frames.
struct Sent {
  double first_s = 0;
  double last_s = 0;
};

Sent sent_of(const api::RunReport& report, const std::string& name, Sent planned);

// PFC XOFF frames for `priority` that tester port `port` heard in a run.
double pfc_xoff_heard(const api::RunReport& report, const std::string& port, uint8_t priority);

// The sender port's last PFC frame heard between `from_s` and `to_s`: the start of its
// bin, or -1 when none came.
double last_pfc_heard(const api::RunReport& report, const std::string& port, double from_s, double to_s);

}  // namespace lr::bench::lossless
