#include "dataplane/engine/tsc_utc.hpp"

#include <rte_cycles.h>

#include <chrono>
#include <ctime>
#include <thread>

namespace lr::dp {

namespace {

constexpr int kPairs = 16;  // the closest of these: a pair an interrupt split is left out

// floor(value * mul / div) without overflow for mul and div up to ~9e9 (nanoseconds, TSC
// hertz): whole units of `div` first, then the remainder (0 <= r < div, so r * mul fits).
int64_t mul_div_floor(int64_t value, uint64_t mul, uint64_t div) noexcept {
  const auto m = static_cast<int64_t>(mul);
  const auto d = static_cast<int64_t>(div);
  int64_t q = value / d;
  int64_t r = value % d;
  if (r < 0) --q, r += d;
  return q * m + r * m / d;
}

}  // namespace

int64_t latency_clock_offset_ns(const TscUtcMap& map, uint64_t ns_per_tsc_q32) noexcept {
  __extension__ using u128 = unsigned __int128;
  const auto clock_ns = static_cast<int64_t>((static_cast<u128>(map.tsc) * ns_per_tsc_q32) >> 32);
  return map.utc_ns - clock_ns;
}

int64_t TscUtcMap::utc_ns_at(uint64_t at_tsc) const noexcept {
  return utc_ns + mul_div_floor(static_cast<int64_t>(at_tsc - tsc), 1'000'000'000, tsc_hz);
}

uint64_t TscUtcMap::tsc_at(int64_t at_utc_ns) const noexcept {
  // The first TSC at or after the instant: ceil(ns * hz / 1e9).
  return tsc + static_cast<uint64_t>(-mul_div_floor(-(at_utc_ns - utc_ns), tsc_hz, 1'000'000'000));
}

uint64_t tsc_hz_against_utc(uint64_t nominal) noexcept {
  static const uint64_t measured = [nominal] {
    const TscUtcMap first = measure_tsc_utc(nominal);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const TscUtcMap second = measure_tsc_utc(nominal);
    const int64_t utc_ns = second.utc_ns - first.utc_ns;
    if (utc_ns <= 0) return nominal;
    __extension__ using u128 = unsigned __int128;
    const auto hz = static_cast<uint64_t>(static_cast<u128>(second.tsc - first.tsc) * 1'000'000'000u /
                                          static_cast<uint64_t>(utc_ns));
    const uint64_t apart = hz > nominal ? hz - nominal : nominal - hz;
    return apart > nominal / 100 ? nominal : hz;
  }();
  return measured;
}

TscUtcMap measure_tsc_utc(uint64_t tsc_hz) noexcept {
  TscUtcMap best;
  best.tsc_hz = tsc_hz;
  uint64_t best_window = UINT64_MAX;
  for (int i = 0; i < kPairs; ++i) {
    timespec now{};
    const uint64_t before = rte_rdtsc_precise();
    clock_gettime(CLOCK_REALTIME, &now);
    const uint64_t after = rte_rdtsc_precise();
    if (after - before >= best_window) continue;
    best_window = after - before;
    best.tsc = before + (after - before) / 2;
    best.utc_ns = int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
  }
  best.error_ns =
      static_cast<uint64_t>(mul_div_floor(static_cast<int64_t>(best_window / 2 + 1), 1'000'000'000, tsc_hz));
  return best;
}

}  // namespace lr::dp
