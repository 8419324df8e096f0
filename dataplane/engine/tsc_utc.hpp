#pragma once
// The TSC read as UTC: one pair of readings (rdtsc, CLOCK_REALTIME, rdtsc) taken where the
// two rdtsc are closest, so the realtime read falls within a known few hundred cycles. What
// a start at a UTC instant (traffic.start at_utc_ns) and a first frame's UTC time are
// computed with; the error is half the pair's window, plus whatever CLOCK_REALTIME itself
// is off by (PTP's business, not read here).

#include <cstdint>

namespace lr::dp {

struct TscUtcMap {
  uint64_t tsc = 0;
  int64_t utc_ns = 0;     ///< CLOCK_REALTIME at `tsc`
  uint64_t error_ns = 0;  ///< how far utc_ns may be from the TSC's instant
  uint64_t tsc_hz = 1;

  int64_t utc_ns_at(uint64_t at_tsc) const noexcept;
  /// The TSC at `at_utc_ns`, which must not be before utc_ns.
  uint64_t tsc_at(int64_t at_utc_ns) const noexcept;
};

/// The best of a few pairs of readings, now.
TscUtcMap measure_tsc_utc(uint64_t tsc_hz) noexcept;

}  // namespace lr::dp
