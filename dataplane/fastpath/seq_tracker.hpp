#pragma once
// HOT PATH: worker lcores only. No alloc, throw, log, lock, syscall.
//
// Sequence accounting for one (stream, lane) on one RX lcore. The 32-bit sequence on
// the wire is extended to 64 bits around the highest sequence seen. A bitmap of the
// last kWindow sequences tells a late arrival (out of order: it was counted missing,
// now it is here) from a second copy (duplicate). A frame older than the window is
// counted out of order and `beyond_window`, since it can no longer be checked for
// duplication. Final loss is tx - (received - duplicate), exact given the TX count;
// `missing` is the live view from gaps.

#include <cstdint>
#include <cstring>

namespace lr::fast {

class SeqTracker {
 public:
  static constexpr uint64_t kWindow = 4096;  // frames; 512 bytes of bitmap

  struct Counts {
    uint64_t received = 0;
    uint64_t duplicate = 0;
    uint64_t out_of_order = 0;
    uint64_t beyond_window = 0;
    uint64_t missing = 0;   ///< gaps not (yet) filled by late frames
    uint64_t next_seq = 0;  ///< highest sequence seen + 1
  };

  /// Extends a 32-bit wire sequence to the 64-bit value nearest the expected one.
  uint64_t extend(uint32_t seq32) const noexcept {
    const uint64_t ref = counts_.next_seq;
    uint64_t seq = (ref & ~uint64_t{0xFFFFFFFF}) | seq32;
    if (seq > ref + 0x80000000ull && seq >= (uint64_t{1} << 32)) seq -= uint64_t{1} << 32;
    else if (seq + 0x80000000ull < ref) seq += uint64_t{1} << 32;
    return seq;
  }

  /// Fetches the lines on_seq writes for a frame of wire sequence `seq32` (the counts, and
  /// its bit's word: the window divides 2^32, so the word follows from the low bits alone).
  void prefetch(uint32_t seq32) const noexcept {
    __builtin_prefetch(&counts_, 1);
    __builtin_prefetch(&bits_[(seq32 / 64) % kWords], 1);
  }

  void on_seq(uint64_t seq) noexcept {
    Counts& c = counts_;
    ++c.received;
    if (seq >= c.next_seq) {
      const uint64_t gap = seq - c.next_seq;
      c.missing += gap;
      // Bits of [next_seq, seq) describe frames older than the window: clear them.
      if (gap >= kWindow) {
        std::memset(bits_, 0, sizeof(bits_));
      } else if (gap != 0) {
        clear_bits(c.next_seq, seq);
      }
      set_bit(seq);
      c.next_seq = seq + 1;
      return;
    }
    if (c.next_seq - seq > kWindow) {
      ++c.out_of_order;
      ++c.beyond_window;
      if (c.missing != 0) --c.missing;
      return;
    }
    if (test_bit(seq)) {
      ++c.duplicate;
      return;
    }
    set_bit(seq);
    ++c.out_of_order;
    if (c.missing != 0) --c.missing;
  }

  const Counts& counts() const noexcept { return counts_; }

  /// mgmt, while the owner lcore tracks (inside its seqcount read section).
  Counts counts_relaxed() const noexcept {
    Counts c;
    c.received = __atomic_load_n(&counts_.received, __ATOMIC_RELAXED);
    c.duplicate = __atomic_load_n(&counts_.duplicate, __ATOMIC_RELAXED);
    c.out_of_order = __atomic_load_n(&counts_.out_of_order, __ATOMIC_RELAXED);
    c.beyond_window = __atomic_load_n(&counts_.beyond_window, __ATOMIC_RELAXED);
    c.missing = __atomic_load_n(&counts_.missing, __ATOMIC_RELAXED);
    c.next_seq = __atomic_load_n(&counts_.next_seq, __ATOMIC_RELAXED);
    return c;
  }

 private:
  // Powers of two: every / and % below is a shift or a mask.
  static constexpr uint64_t kWords = kWindow / 64;
  static_assert((kWords & (kWords - 1)) == 0);
  void set_bit(uint64_t seq) noexcept { bits_[(seq / 64) % kWords] |= uint64_t{1} << (seq % 64); }
  /// Clears the bits of [from, to), to - from < kWindow: a word at a time, so a burst
  /// loss of 4095 frames costs 65 word stores, not 4095 bit clears.
  void clear_bits(uint64_t from, uint64_t to) noexcept {
    while (from < to) {
      const uint64_t bit = from % 64;
      const uint64_t n = to - from < 64 - bit ? to - from : 64 - bit;
      const uint64_t mask = (n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1) << bit;
      bits_[(from / 64) % kWords] &= ~mask;
      from += n;
    }
  }
  bool test_bit(uint64_t seq) const noexcept { return (bits_[(seq / 64) % kWords] >> (seq % 64)) & 1; }

  Counts counts_;
  uint64_t bits_[kWords] = {};
};

}  // namespace lr::fast
