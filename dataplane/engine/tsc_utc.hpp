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

/// UTC minus the latency clock (frames' stamps: the TSC in nanoseconds through
/// `ns_per_tsc_q32`, fast::tsc_ns_multiplier) at the map's instant. Two data planes' offsets
/// apart is what puts one's stamps on the other's clock (StreamSpec::latency_shift_ns).
int64_t latency_clock_offset_ns(const TscUtcMap& map, uint64_t ns_per_tsc_q32) noexcept;

/// The TSC's rate against CLOCK_REALTIME, measured once per process over 100 ms and then
/// kept: the rate frames are stamped, paced and started at. DPDK's figure is the CPU's
/// nominal rate, 0.15 % off on this project's VM: stamps of two hosts would drift apart by
/// up to 1.5 ms a second. Measured to about 0.4 ppm (two pairs of readings' errors over
/// 100 ms). `nominal` is kept where the measurement is more than 1 % from it (the realtime
/// clock was stepped meanwhile).
uint64_t tsc_hz_against_utc(uint64_t nominal) noexcept;

/// The best of a few pairs of readings, now.
TscUtcMap measure_tsc_utc(uint64_t tsc_hz) noexcept;

}  // namespace lr::dp
