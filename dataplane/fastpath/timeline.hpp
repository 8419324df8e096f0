#pragma once
// HOT PATH: worker lcores only. No alloc, throw, log, lock, syscall.
//
// Counts in fixed time bins since the run's start ([run] timeline): per stream the frames
// sent and received in each bin, per port the MAC Control frames received, so a pause is
// seen as the bins where a priority's rate fell to zero. Each array has one writer (its
// lcore) and relaxed counters (counters.hpp), read live by mgmt; its last entry holds
// what came after the span the run asked for, so nothing is lost or written out of bounds.

#include <cstdint>

#include "dataplane/fastpath/counters.hpp"

namespace lr::fast {

__extension__ using TimelineU128 = unsigned __int128;  // GCC's and Clang's, for the bin multiply

/// Where a count goes: `n_bins` bins and one more for after them.
struct TimelineBins {
  uint64_t* bins = nullptr;  ///< n_bins + 1 counters; null: no timeline
  uint32_t n_bins = 0;
};

/// The bins' clock: the run's start and 2^64 / TSC cycles per bin, so a bin index is one
/// 64 x 64 -> 128-bit multiply, exact to a cycle over any run (a Q32 reciprocal drifted
/// by several bins over ten seconds).
struct TimelineClock {
  uint64_t start_tsc = 0;
  uint64_t bins_per_tsc_q64 = 0;
};

/// 2^64 × 1e9 / (tsc_hz × bin_ns), rounded up: bins of `bin_ns` at a TSC of `tsc_hz` (the
/// cycles per bin need not be whole). Rounded up, a count that lands exactly on a bin's
/// first cycle goes into that bin, not the one before. Cold.
inline uint64_t timeline_bins_per_tsc_q64(uint64_t tsc_hz, uint64_t bin_ns) noexcept {
  const auto cycles_e9 = static_cast<TimelineU128>(tsc_hz) * bin_ns;  // TSC cycles per bin, × 1e9
  if (cycles_e9 <= 1'000'000'000u) return UINT64_MAX;                       // a bin of a cycle or less
  const auto one_e9_q64 = static_cast<TimelineU128>(1'000'000'000u) << 64;
  return static_cast<uint64_t>((one_e9_q64 + cycles_e9 - 1) / cycles_e9);
}

/// The bin of `tsc` (before the start: the first; after the span: the extra last one).
inline uint32_t timeline_bin(const TimelineClock& clock, uint32_t n_bins, uint64_t tsc) noexcept {
  if (tsc <= clock.start_tsc) return 0;
  const auto bin = static_cast<uint64_t>((static_cast<TimelineU128>(tsc - clock.start_tsc) * clock.bins_per_tsc_q64) >> 64);
  return bin < n_bins ? static_cast<uint32_t>(bin) : n_bins;
}

inline void timeline_add(const TimelineBins& t, const TimelineClock& clock, uint64_t tsc, uint64_t n) noexcept {
  counter_add(t.bins[timeline_bin(clock, t.n_bins, tsc)], n);
}

}  // namespace lr::fast
