#pragma once
// HOT PATH (record): worker lcores only. No alloc, throw, log, lock, syscall.
//
// Log-linear latency histogram in nanoseconds (HDR-style). Values below 2^kSubBits are
// exact; above, each power of two is split into 2^kSubBits linear buckets, so a
// percentile is within 1/64 (1.6 %) of the true value. Min, max, sum and jitter are
// exact. Jitter is the mean absolute difference of consecutive latencies (RFC 3550's
// inter-arrival jitter without its smoothing, as testers report it).

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace lr::fast {

class LatencyHist {
 public:
  static constexpr uint32_t kSubBits = 6;
  static constexpr uint32_t kSub = 1u << kSubBits;
  static constexpr uint32_t kMaxBits = 32;  // latencies are 32-bit ns (the signature's clock)
  static constexpr uint32_t kBuckets = (kMaxBits - kSubBits + 1) * kSub;

  static constexpr uint32_t bucket_of(uint32_t ns) noexcept {
    if (ns < kSub) return ns;
    const uint32_t msb = 31u - static_cast<uint32_t>(std::countl_zero(ns));  // >= kSubBits
    const uint32_t shift = msb - kSubBits;
    return (shift + 1) * kSub + ((ns >> shift) & (kSub - 1));
  }

  /// Smallest value that falls in `bucket`.
  static constexpr uint64_t bucket_low(uint32_t bucket) noexcept {
    if (bucket < kSub) return bucket;
    const uint32_t shift = bucket / kSub - 1;
    return (uint64_t{kSub} + bucket % kSub) << shift;
  }

  /// Largest value that falls in `bucket`.
  static constexpr uint64_t bucket_high(uint32_t bucket) noexcept {
    if (bucket < kSub) return bucket;
    const uint32_t shift = bucket / kSub - 1;
    return bucket_low(bucket) + (uint64_t{1} << shift) - 1;
  }

  /// Branch-free but for the bucket's address: the first latency is its own predecessor
  /// (a difference of 0 and no pair: see sources()).
  void record(uint32_t ns) noexcept {
    ++counts_[bucket_of(ns)];
    const uint32_t previous = count_ != 0 ? last_ : ns;
    ++count_;
    sum_ += ns;
    min_ = std::min(min_, ns);
    max_ = std::max(max_, ns);
    jitter_sum_ += ns > previous ? ns - previous : previous - ns;
    last_ = ns;
  }

  /// Adds another lcore's histogram (mgmt, after the lcores stopped).
  void merge(const LatencyHist& other) noexcept {
    sources_ = sources() + other.sources();
    for (uint32_t i = 0; i < kBuckets; ++i) counts_[i] += other.counts_[i];
    count_ += other.count_;
    sum_ += other.sum_;
    min_ = std::min(min_, other.min_);
    max_ = std::max(max_, other.max_);
    jitter_sum_ += other.jitter_sum_;
  }

  uint64_t count() const noexcept { return count_; }
  uint32_t min() const noexcept { return count_ == 0 ? 0 : min_; }
  uint32_t max() const noexcept { return max_; }
  double mean() const noexcept { return count_ == 0 ? 0.0 : static_cast<double>(sum_) / static_cast<double>(count_); }

  /// Consecutive pairs are taken within each recording lcore, then averaged over all.
  double jitter() const noexcept {
    const uint64_t pairs = count_ - sources();
    return pairs == 0 ? 0.0 : static_cast<double>(jitter_sum_) / static_cast<double>(pairs);
  }

  /// Value at quantile q in [0, 1]: the midpoint of the bucket holding that rank,
  /// clamped to the exact min and max.
  uint64_t percentile(double q) const noexcept {
    if (count_ == 0) return 0;
    const auto rank = static_cast<uint64_t>(q * static_cast<double>(count_ - 1)) + 1;  // 1-based
    uint64_t seen = 0;
    for (uint32_t i = 0; i < kBuckets; ++i) {
      seen += counts_[i];
      if (seen >= rank) {
        const uint64_t mid = (bucket_low(i) + bucket_high(i)) / 2;
        return std::clamp<uint64_t>(mid, min_, max_);
      }
    }
    return max_;
  }

  const std::array<uint64_t, kBuckets>& buckets() const noexcept { return counts_; }

  /// Bytes of the scalars record() writes, at the histogram's start (an owner keeps them
  /// on the line of its own hot fields).
  static constexpr size_t scalar_bytes() noexcept;

  /// mgmt, while the owner lcore records: copies the scalars (inside the lcore's
  /// seqcount read section, so they agree with each other) ...
  void load_summary_relaxed(const LatencyHist& live) noexcept {
    count_ = __atomic_load_n(&live.count_, __ATOMIC_RELAXED);
    sum_ = __atomic_load_n(&live.sum_, __ATOMIC_RELAXED);
    jitter_sum_ = __atomic_load_n(&live.jitter_sum_, __ATOMIC_RELAXED);
    sources_ = __atomic_load_n(&live.sources_, __ATOMIC_RELAXED);
    min_ = __atomic_load_n(&live.min_, __ATOMIC_RELAXED);
    max_ = __atomic_load_n(&live.max_, __ATOMIC_RELAXED);
    last_ = __atomic_load_n(&live.last_, __ATOMIC_RELAXED);
  }

  /// ... and the buckets outside it (each word whole, the set a few frames apart: too
  /// large to copy inside a section that a busy lcore reopens every microsecond).
  void load_buckets_relaxed(const LatencyHist& live) noexcept {
    for (uint32_t i = 0; i < kBuckets; ++i) counts_[i] = __atomic_load_n(&live.counts_[i], __ATOMIC_RELAXED);
  }

 private:
  /// The histograms whose latencies this one holds, each of which had a first latency
  /// that paired with none: a recording histogram is one (when it has any), a merged one
  /// the sum of its parts. A histogram records or merges into itself, not both.
  uint64_t sources() const noexcept { return sources_ != 0 ? sources_ : (count_ != 0 ? 1 : 0); }

  // The scalars record() writes, first and together (40 bytes): in an RxStream they share
  // the stream's first cache line, so a frame of a stream out of cache costs that line and
  // its bucket's.
  uint64_t count_ = 0;
  uint64_t sum_ = 0;
  uint64_t jitter_sum_ = 0;  ///< over count_ - sources() consecutive pairs
  uint32_t min_ = UINT32_MAX;
  uint32_t max_ = 0;
  uint32_t last_ = 0;
  uint32_t sources_ = 0;  ///< 0: this histogram records (see sources())
  std::array<uint64_t, kBuckets> counts_{};
};

constexpr size_t LatencyHist::scalar_bytes() noexcept { return offsetof(LatencyHist, counts_); }
static_assert(LatencyHist::scalar_bytes() == 40);

}  // namespace lr::fast
