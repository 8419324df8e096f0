#pragma once
// HOT PATH: worker and switch lcores. No alloc, throw, log, lock, syscall.
//
// The times an lcore's loop was held up: an iteration longer than `threshold_tsc` means
// the lcore neither polled nor sent meanwhile (on a shared CPU, another thread had it).
// That is the tester's (or the emulated switch's) own limit, never the device's: a
// frame read late looks late, a pause not refreshed lapses. Counted by the owner with
// relaxed single-writer counters, read by mgmt at any time.

#include <cstddef>
#include <cstdint>

#include "dataplane/fastpath/counters.hpp"

#include "lib/api/stall_report.hpp"

namespace lr::fast {

using api::kStallNs;

/// kStallNs in cycles of a `tsc_hz` clock.
constexpr uint64_t stall_threshold_tsc(uint64_t tsc_hz) noexcept { return tsc_hz * kStallNs / 1'000'000'000; }

struct StallLog {
  /// A VM holds an lcore up a few hundred times a run, most briefly: the longest 256
  /// keep every one that could move a measurement.
  static constexpr size_t kKept = 256;

  uint64_t threshold_tsc = 0;  ///< set before launch; an iteration longer than this is a stall
  uint64_t stalls = 0;
  uint64_t longest_tsc = 0;
  uint64_t stalled_tsc = 0;  ///< all stalls together
  /// The longest stalls and when each began (an unsorted set: a stall longer than the
  /// shortest kept takes its place), so a run is judged by where its stalls fell.
  uint64_t from_tsc[kKept]{};
  uint64_t length_tsc[kKept]{};
};

namespace detail {
// Rare (a stall): a scan of the kept set for its shortest.
[[gnu::noinline, gnu::cold]] inline void keep_stall(StallLog& log, uint64_t from, uint64_t length) noexcept {
  counter_add(log.stalls, 1);
  counter_raise(log.longest_tsc, length);
  counter_add(log.stalled_tsc, length);
  size_t shortest = 0;
  for (size_t i = 1; i < StallLog::kKept; ++i)
    if (log.length_tsc[i] < log.length_tsc[shortest]) shortest = i;
  if (length <= log.length_tsc[shortest]) return;
  counter_set(log.from_tsc[shortest], from);
  counter_set(log.length_tsc[shortest], length);
}
}  // namespace detail

/// One loop iteration from `last` to `now`, against `threshold_tsc` (the log's, which a
/// loop keeps in a register: its acquire loads would otherwise reload it every turn);
/// returns whether it was a stall.
inline bool note_iteration(StallLog& log, uint64_t threshold_tsc, uint64_t last, uint64_t now) noexcept {
  if (now - last <= threshold_tsc) [[likely]]
    return false;
  detail::keep_stall(log, last, now - last);
  return true;
}

}  // namespace lr::fast
