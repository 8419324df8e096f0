#pragma once
// HOT PATH: worker lcores only. No alloc, throw, log, lock, syscall.
//
// TSC pacer for one (stream, lane). Deadlines are kept in Q16 fixed point of TSC cycles,
// so 59.5 Mpps on a 2.5 GHz TSC (42.0 cycles a frame) keeps its fraction instead of
// rounding to 42 (a 0.1 % error) or 41 (2.4 %). A lane that falls behind may catch up
// by at most `max_lag` frames (VPP pg: credit never grows without bound), so a stall
// is not followed by a line-rate burst that the switch under test would see as a spike.
// The frames given up that way are counted in the lane's `forgone` counter (its TX
// counters' line: the pacer fills its own), so a stream short of its rate says how many
// frames its schedule lost. Burst mode releases `burst_packets` frames every
// `burst_interval`, paced at the stream rate inside each burst.

#include <algorithm>
#include <cstdint>

#include "dataplane/fastpath/counters.hpp"

namespace lr::fast {

class Pacer {
 public:
  static constexpr uint32_t kFracBits = 16;
  // Deadlines are rebased once they pass 2^40 cycles (~7 min at 2.5 GHz), far below
  // the 2^48 where the Q16 value would overflow.
  static constexpr uint64_t kRebaseCycles = uint64_t{1} << 40;

  /// No pacing: every call may send `max` frames (rate = "max").
  static Pacer unpaced() noexcept { return Pacer{}; }

  /// `interval_fp`: TSC cycles per frame in Q16; `max_lag`: frames of catch-up allowed.
  static Pacer paced(uint64_t interval_fp, uint64_t origin_tsc, uint32_t max_lag) noexcept {
    Pacer p;
    p.interval_fp_ = interval_fp;
    p.origin_tsc_ = origin_tsc;
    p.max_lag_fp_ = interval_fp * std::max<uint32_t>(max_lag, 1);
    return p;
  }

  /// Adds bursts: `burst_packets` frames every `burst_interval_tsc`, starting at origin.
  void set_bursts(uint32_t burst_packets, uint64_t burst_interval_tsc) noexcept {
    burst_packets_ = burst_packets;
    burst_interval_tsc_ = burst_interval_tsc;
    next_burst_tsc_ = origin_tsc_;
    burst_left_ = 0;
  }

  /// Changes the rate of a running lane at `now_tsc` (0 interval: unpaced). The new rate
  /// starts now: no credit is carried over, and a slow rate's far deadline does not
  /// hold back a faster new one.
  void set_rate(uint64_t interval_fp, uint32_t max_lag, uint64_t now_tsc) noexcept {
    if (interval_fp_ == 0 || now_tsc < origin_tsc_) {
      origin_tsc_ = std::max(origin_tsc_, now_tsc);
      next_fp_ = 0;
    } else {
      const uint64_t now_fp = (now_tsc - origin_tsc_) << kFracBits;
      next_fp_ = std::clamp(next_fp_, now_fp, now_fp + interval_fp);
    }
    interval_fp_ = interval_fp;
    max_lag_fp_ = interval_fp * std::max<uint32_t>(max_lag, 1);
  }

  /// Moves the start of time (all lanes start together at a common TSC).
  void restart(uint64_t origin_tsc) noexcept {
    origin_tsc_ = origin_tsc;
    next_fp_ = 0;
    next_burst_tsc_ = origin_tsc;
    burst_left_ = 0;
  }

  /// Frames that may be sent at `now_tsc`, at most `max`. Consumes their credit; frames
  /// given up (late past the catch-up, bursts skipped) are added to `forgone`.
  uint32_t due(uint64_t now_tsc, uint32_t max, uint64_t& forgone) noexcept {
    if (burst_packets_ != 0) {
      if (burst_left_ == 0) {
        if (now_tsc < next_burst_tsc_) return 0;
        burst_left_ = burst_packets_;
        // A missed burst is skipped, not sent late on top of the next one.
        const uint64_t behind = (now_tsc - next_burst_tsc_) / burst_interval_tsc_;
        next_burst_tsc_ += (behind + 1) * burst_interval_tsc_;
        if (behind != 0) [[unlikely]]
          counter_add(forgone, behind * burst_packets_);
        if (interval_fp_ != 0) {
          origin_tsc_ = now_tsc;
          next_fp_ = 0;
        }
      }
      max = std::min(max, burst_left_);
    }
    uint32_t n = max;
    if (interval_fp_ != 0) {
      if (now_tsc < origin_tsc_) return 0;
      const uint64_t now_fp = (now_tsc - origin_tsc_) << kFracBits;
      if (now_fp < next_fp_) return 0;
      if (now_fp - next_fp_ > max_lag_fp_) [[unlikely]] {
        // Past the catch-up: whole deadlines given up, so the lane stays on its grid and
        // the count is exact. One division, after a stall only.
        const uint64_t given_up = (now_fp - next_fp_ - max_lag_fp_ + interval_fp_ - 1) / interval_fp_;
        next_fp_ += given_up * interval_fp_;
        if (burst_packets_ == 0) counter_add(forgone, given_up);  // a burst sends its frames all the same
      }
      const uint64_t ready = (now_fp - next_fp_) / interval_fp_ + 1;
      n = static_cast<uint32_t>(std::min<uint64_t>(ready, max));
      next_fp_ += n * interval_fp_;
      if (next_fp_ > (kRebaseCycles << kFracBits)) {
        origin_tsc_ += kRebaseCycles;
        next_fp_ -= kRebaseCycles << kFracBits;
      }
    }
    if (burst_packets_ != 0) burst_left_ -= n;
    return n;
  }

  /// Gives back the credit of `n` frames that `due` allowed but the queue did not take.
  void refund(uint32_t n) noexcept {
    if (interval_fp_ != 0) next_fp_ -= std::min<uint64_t>(next_fp_, n * interval_fp_);
    if (burst_packets_ != 0) burst_left_ += n;
  }

  /// A lane ending at `end_tsc` (its duration) gives up the frames due before it that it
  /// did not send, at most `left` (its count), adding them to `forgone`. Not for burst
  /// mode, whose bursts end by count.
  void forgo_before(uint64_t end_tsc, uint64_t left, uint64_t& forgone) noexcept {
    if (interval_fp_ == 0 || burst_packets_ != 0 || end_tsc <= origin_tsc_) return;
    const uint64_t end_fp = (end_tsc - origin_tsc_) << kFracBits;
    if (end_fp <= next_fp_) return;
    const uint64_t given_up = std::min((end_fp - next_fp_ + interval_fp_ - 1) / interval_fp_, left);
    next_fp_ += given_up * interval_fp_;
    counter_add(forgone, given_up);
  }

  /// TSC at which the next frame is due (origin for an unpaced lane).
  uint64_t next_due_tsc() const noexcept { return origin_tsc_ + (next_fp_ >> kFracBits); }

  /// TSC at which `due` next allows a frame: next_due_tsc, or the next burst's start while
  /// a burst-mode lane waits for it (a lane scheduler's key; see run_worker).
  uint64_t next_send_tsc() const noexcept {
    const uint64_t paced = next_due_tsc();
    return burst_packets_ != 0 && burst_left_ == 0 ? std::max(paced, next_burst_tsc_) : paced;
  }

  bool is_paced() const noexcept { return interval_fp_ != 0; }

 private:
  uint64_t interval_fp_ = 0;  // 0: unpaced
  uint64_t origin_tsc_ = 0;
  uint64_t next_fp_ = 0;
  uint64_t max_lag_fp_ = 0;
  uint64_t burst_interval_tsc_ = 0;
  uint64_t next_burst_tsc_ = 0;
  uint32_t burst_packets_ = 0;
  uint32_t burst_left_ = 0;
};

/// Q16 TSC cycles per frame for `pps` frames per second on a `tsc_hz` clock.
inline uint64_t pacer_interval_fp(double pps, uint64_t tsc_hz) noexcept {
  // The operands are positive, where adding 0.5 and truncating rounds to nearest (the check
  // is about negative values); the plan builder calls it once a lane, off the hot path.
  // NOLINTNEXTLINE(bugprone-incorrect-roundings)
  return static_cast<uint64_t>(static_cast<double>(tsc_hz) * 65536.0 / pps + 0.5);
}

/// The catch-up a lane is allowed: 100 us of frames at its rate (`lag_window_fp`: that
/// window in Q16 TSC cycles, see lag_window_fp), and at least two bursts of 32 so a
/// lane at a low rate can still fill a burst after a short stall; a window of 0 allows
/// kSmallLag (a stream with catch_up = false: what a stall of a few frame times owes, never
/// a burst; a longer stall's time is lost). One division: called when a rate is planned
/// or changed, never per burst.
inline uint32_t pacer_max_lag(uint64_t interval_fp, uint64_t lag_window_fp) noexcept {
  constexpr uint64_t kMinLag = 64;
  constexpr uint32_t kSmallLag = 4;
  if (lag_window_fp == 0) return kSmallLag;
  if (interval_fp == 0) return kMinLag;
  const uint64_t lag = lag_window_fp / interval_fp;
  return static_cast<uint32_t>(std::clamp<uint64_t>(lag, kMinLag, UINT32_MAX));
}

/// The catch-up window (100 us) in Q16 TSC cycles on a `tsc_hz` clock.
inline uint64_t lag_window_fp(uint64_t tsc_hz) noexcept { return (tsc_hz / 10'000) << Pacer::kFracBits; }

}  // namespace lr::fast
