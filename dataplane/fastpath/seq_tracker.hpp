#pragma once
// HOT PATH: worker lcores only. No alloc, throw, log, lock, syscall.
//
// Sequence accounting for one (stream, lane) on one RX lcore. The 32-bit sequence on
// the wire is extended to 64 bits around the highest sequence seen. A bitmap of the
// last kWindow sequences marks the frames still missing there, so a late arrival (out of
// order: it was counted missing, now it is here) is told from a second copy (duplicate).
// A frame older than the window is counted out of order and `beyond_window`, since it
// can no longer be checked for duplication. Final loss is tx - (received - duplicate),
// exact given the TX count; `missing` is the live view from gaps.
//
// Marking what is missing rather than what arrived keeps the common case to one cache
// line: while nothing is missing in the window, the next frame in order changes two
// counters and no bit (record()).

#include <bit>
#include <cstdint>
#include <cstring>

namespace lr::fast {

class alignas(64) SeqTracker {
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

  /// Accounts a frame of wire sequence `seq32`.
  void record(uint32_t seq32) noexcept {
    if (seq32 == static_cast<uint32_t>(counts_.next_seq) && window_missing_ == 0) [[likely]] {
      ++counts_.received;
      ++counts_.next_seq;
      return;
    }
    on_seq(extend(seq32));
  }

  /// Accounts a frame of (extended) sequence `seq`.
  void on_seq(uint64_t seq) noexcept {
    Counts& c = counts_;
    ++c.received;
    if (seq >= c.next_seq) {
      c.missing += seq - c.next_seq;
      enter_window(c.next_seq, seq);
      c.next_seq = seq + 1;
      return;
    }
    if (c.next_seq - seq > kWindow) {
      ++c.out_of_order;
      ++c.beyond_window;
      if (c.missing != 0) --c.missing;
      return;
    }
    uint64_t& word = bits_[(seq / 64) % kWords];
    const uint64_t bit = uint64_t{1} << (seq % 64);
    if ((word & bit) == 0) {
      ++c.duplicate;
      return;
    }
    word &= ~bit;
    --window_missing_;
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

  /// The window moves on to end at `to`: the sequences [from, to] enter it, each in the
  /// bit of the one kWindow older that leaves it. [from, to) are missing, `to` arrived.
  /// A word at a time, so a burst loss of 4095 frames costs 65 word stores.
  void enter_window(uint64_t from, uint64_t to) noexcept {
    if (to - from >= kWindow - 1) {  // the whole window: all missing but `to`
      std::memset(bits_, 0xFF, sizeof(bits_));
      bits_[(to / 64) % kWords] &= ~(uint64_t{1} << (to % 64));
      window_missing_ = kWindow - 1;
      return;
    }
    while (from < to) {
      const uint64_t bit = from % 64;
      const uint64_t n = to - from < 64 - bit ? to - from : 64 - bit;
      const uint64_t mask = (n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1) << bit;
      uint64_t& word = bits_[(from / 64) % kWords];
      // A bit already set was a frame that left the window missing: now another one.
      window_missing_ += static_cast<uint64_t>(std::popcount(mask & ~word));
      word |= mask;
      from += n;
    }
    uint64_t& word = bits_[(to / 64) % kWords];
    const uint64_t bit = uint64_t{1} << (to % 64);
    if ((word & bit) != 0) {  // the frame leaving the window was missing
      word &= ~bit;
      --window_missing_;
    }
  }

  Counts counts_;
  uint64_t window_missing_ = 0;  ///< bits set in bits_: frames missing within the window
  uint64_t bits_[kWords] = {};   ///< by sequence modulo kWindow: 1, missing
};

static_assert(sizeof(SeqTracker::Counts) + sizeof(uint64_t) <= 64, "SeqTracker: record()'s fields overflow a line");

}  // namespace lr::fast
