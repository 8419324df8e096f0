#pragma once
// Cold: mgmt reads an lcore's StallLog into the report's form (times since the run's start).

#include <algorithm>

#include "lib/api/stall_report.hpp"
#include "dataplane/fastpath/counters.hpp"
#include "dataplane/fastpath/stall_log.hpp"

namespace lr::fast {

inline api::LcoreStalls read_stalls(const StallLog& log, unsigned lcore, uint64_t start_tsc, uint64_t tsc_hz) {
  const auto us = [tsc_hz](uint64_t tsc) { return static_cast<double>(tsc) * 1e6 / static_cast<double>(tsc_hz); };
  api::LcoreStalls r;
  r.lcore = lcore;
  r.stalls = counter_read(log.stalls);
  r.longest_stall_us = us(counter_read(log.longest_tsc));
  r.stalled_us = us(counter_read(log.stalled_tsc));
  for (size_t i = 0; i < StallLog::kKept; ++i) {
    const uint64_t length = counter_read(log.length_tsc[i]);
    if (length == 0) continue;
    const uint64_t from = counter_read(log.from_tsc[i]);
    r.longest_stalls.push_back({from > start_tsc ? us(from - start_tsc) * 1e-6 : 0.0, us(length)});
  }
  std::sort(r.longest_stalls.begin(), r.longest_stalls.end(),
            [](const api::Stall& a, const api::Stall& b) { return a.us > b.us; });
  return r;
}

}  // namespace lr::fast
