#pragma once
// Latency across a test's trials (RFC 2544 §26.2 asks for N trials at the throughput
// rate): each trial's summary as the data plane measured it, and one summary over all
// of them from the trials' histograms merged bucket by bucket, so the percentiles across
// trials are percentiles of every frame, not averages of percentiles.

#include <cstdint>
#include <vector>

namespace lr::bench {

struct HistogramBucket {
  uint64_t low_ns = 0;
  uint64_t high_ns = 0;
  uint64_t count = 0;
};

struct LatencyStats {
  uint64_t samples = 0;
  double min_ns = 0, mean_ns = 0, max_ns = 0;
  double p50_ns = 0, p99_ns = 0, p999_ns = 0;
  double jitter_ns = 0;
};

/// One trial: the data plane's exact min / mean / max / jitter and its histogram.
struct LatencyTrial {
  LatencyStats stats;
  std::vector<HistogramBucket> buckets;
};

/// The value at quantile q of the merged buckets: the midpoint of the bucket that holds
/// that rank (as the data plane computes its own), clamped to [min, max].
double percentile_ns(const std::vector<HistogramBucket>& buckets, double q, double min_ns, double max_ns);

/// All trials as one: exact min, max and sample-weighted mean and jitter; percentiles from
/// the merged histogram (within the histogram's 1.6 %).
LatencyStats across_trials(const std::vector<LatencyTrial>& trials);

}  // namespace lr::bench
