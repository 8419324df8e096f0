#include "control/suites/bench/latency_summary.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace lr::bench {

double percentile_ns(const std::vector<HistogramBucket>& buckets, double q, double min_ns, double max_ns) {
  uint64_t total = 0;
  for (const HistogramBucket& b : buckets) total += b.count;
  if (total == 0) return 0;
  const auto rank = static_cast<uint64_t>(q * static_cast<double>(total - 1)) + 1;
  uint64_t seen = 0;
  for (const HistogramBucket& b : buckets) {
    seen += b.count;
    if (seen >= rank)
      return std::clamp((static_cast<double>(b.low_ns) + static_cast<double>(b.high_ns)) / 2, min_ns, max_ns);
  }
  return max_ns;
}

LatencyStats across_trials(const std::vector<LatencyTrial>& trials) {
  LatencyStats all;
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> merged;
  double sum = 0, jitter_sum = 0;
  bool first = true;
  for (const LatencyTrial& t : trials) {
    if (t.stats.samples == 0) continue;
    all.min_ns = first ? t.stats.min_ns : std::min(all.min_ns, t.stats.min_ns);
    all.max_ns = first ? t.stats.max_ns : std::max(all.max_ns, t.stats.max_ns);
    first = false;
    all.samples += t.stats.samples;
    sum += t.stats.mean_ns * static_cast<double>(t.stats.samples);
    jitter_sum += t.stats.jitter_ns * static_cast<double>(t.stats.samples);
    for (const HistogramBucket& b : t.buckets) merged[{b.low_ns, b.high_ns}] += b.count;
  }
  if (all.samples == 0) return all;
  all.mean_ns = sum / static_cast<double>(all.samples);
  all.jitter_ns = jitter_sum / static_cast<double>(all.samples);
  std::vector<HistogramBucket> buckets;
  for (const auto& [range, count] : merged) buckets.push_back({range.first, range.second, count});
  all.p50_ns = percentile_ns(buckets, 0.50, all.min_ns, all.max_ns);
  all.p99_ns = percentile_ns(buckets, 0.99, all.min_ns, all.max_ns);
  all.p999_ns = percentile_ns(buckets, 0.999, all.min_ns, all.max_ns);
  return all;
}

}  // namespace lr::bench
