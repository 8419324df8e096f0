#pragma once
// HOT PATH: the switch lcore. No alloc, throw, log, lock or syscall after construction.
//
// The software lossless switch's buffers and decisions, without DPDK: frames are opaque
// handles with a size, time is TSC cycles passed in, so every behaviour is unit-tested
// on a virtual clock. The lcore loop (switch_lcore.cpp) feeds it received frames and
// sends what it dequeues.
//
// The buffer model, chosen to be exactly predictable:
// - Each egress port has 8 FIFO queues, one per priority.
// - A lossy priority's frame is tail-dropped when its queue would pass `queue_limit`
//   bytes or the shared buffer (all lossy queues together) would pass `buffer`.
// - A lossless priority's frames are accounted to their ingress port and priority (its
//   priority group): reaching `xoff` bytes sends XOFF out of that ingress port, refreshed
//   while it stays there; falling to `xon` bytes sends XON. `headroom` bytes above xoff
//   absorb what arrives before the sender reacts; beyond that, ingress drop.
// - PFC received on an egress port pauses that port's queues of the priorities it names
//   and obeys (PAUSE: all eight, when obeyed) for the time its quanta ask, `pause_reaction`
//   after it arrived (a slow device: frames keep leaving meanwhile).
// - Each egress port sends at most at its shaped rate (L1: frame + 20 bytes of preamble
//   and gap), never above its link speed; queues are served round robin.
// - ECN: a lossless or lossy frame that is ECN-capable is marked CE with probability 0 at
//   or below Kmin bytes of queue depth, Pmax x (depth - Kmin) / (Kmax - Kmin) between,
//   and 1 above Kmax (WRED's curve; a seeded generator makes runs repeatable). Frames that
//   are not ECN-capable are never dropped by this curve.
// - PFC watchdog: a lossless queue paused with frames waiting for `detect` is in a storm;
//   it then drops (its frames and new ones) or forwards (ignores the pause) until no pause
//   has been in force for `restore`.
// - Input queueing (`input_queued`, lossy priorities, no ECN): instead of the egress queues,
//   one FIFO per ingress port holds every frame that came in on it, whatever its egress;
//   a frame leaves only from the head, so a frame for a busy port holds back those behind
//   it for idle ones: head-of-line blocking, as a switch without virtual output queues
//   has it (RFC 2889 §5.5 finds it). Its drops and watermark count at the ingress port.

#include <array>
#include <cstdint>
#include <vector>

#include "dataplane/fastpath/counters.hpp"

namespace lr::sw {

inline constexpr unsigned kPriorities = 8;
/// Times in Q16 TSC cycles: a host's TSC passes 2^48 (a few days of uptime), so they
/// need more than 64 bits.
__extension__ using TscQ16 = unsigned __int128;
inline constexpr uint32_t kPreambleGapBytes = 20;

enum class WatchdogAction : uint8_t { kDrop, kForward };

/// The model's parameters, in bytes and TSC cycles.
struct ModelParams {
  uint64_t tsc_hz = 0;
  std::vector<uint64_t> port_speed_bps;  ///< per port: quanta <-> time, and the most it sends
  std::vector<uint64_t> shape_bps;       ///< per egress port: 0 = the link speed
  uint8_t lossless = 0;                  ///< bit p: priority p is lossless
  uint64_t buffer_bytes = 0;             ///< shared by the lossy queues
  uint64_t queue_limit_bytes = 0;        ///< per lossy queue
  uint64_t xoff_bytes = 0;               ///< per ingress port and lossless priority
  uint64_t xon_bytes = 0;
  uint64_t headroom_bytes = 0;
  uint16_t pfc_quanta = 0xFFFF;          ///< the quanta its XOFF frames ask
  uint64_t pfc_refresh_tsc = 0;          ///< 0: half the pause the quanta ask, at the ingress port's speed
  bool ecn = false;
  uint64_t ecn_kmin_bytes = 0;
  uint64_t ecn_kmax_bytes = 0;
  double ecn_pmax = 0;                   ///< 0..1
  uint64_t seed = 1;
  bool watchdog = false;
  uint64_t watchdog_detect_tsc = 0;
  uint64_t watchdog_restore_tsc = 0;
  WatchdogAction watchdog_action = WatchdogAction::kDrop;
  uint64_t burst_tsc = 0;                ///< how far behind a backlogged egress may catch up (idle saves nothing)
  uint8_t pfc_obeyed = 0xFF;             ///< bit p: a PFC frame pauses priority p (others are heard, not obeyed)
  bool pause_obeyed = true;              ///< an 802.3x PAUSE pauses all eight (else heard, not obeyed)
  uint64_t pause_reaction_tsc = 0;       ///< from a PFC / PAUSE frame's arrival to its pause taking effect
  bool input_queued = false;             ///< one FIFO per ingress port (head-of-line blocking); lossy only
};


/// Per port and priority, single-writer counters (fastpath/counters.hpp): mgmt reads
/// them while the switch runs. rx at the ingress port; tx, tail and watchdog drops, ECN marks
/// and the watermark at the egress port (its queue); headroom drops and PFC sent at the
/// ingress port (its priority group); PFC received at the port that heard it.
struct PriorityCounters {
  uint64_t rx_frames = 0;
  uint64_t rx_bytes = 0;
  uint64_t tx_frames = 0;
  uint64_t tx_bytes = 0;
  uint64_t drop_tail = 0;        ///< lossy: queue limit or shared buffer full
  uint64_t drop_headroom = 0;    ///< lossless: the priority group passed xoff + headroom
  uint64_t drop_watchdog = 0;    ///< lossless: dropped during a PFC storm
  uint64_t pfc_xoff_sent = 0;
  uint64_t pfc_xon_sent = 0;
  uint64_t pfc_xoff_received = 0;
  uint64_t pfc_xon_received = 0;
  uint64_t ecn_marked = 0;
  uint64_t watermark_bytes = 0;  ///< the queue's largest depth
  uint64_t paused_tsc = 0;       ///< the queue held by PFC received (summed, up to the last check)
  uint64_t storms = 0;           ///< watchdog: storms detected
  uint64_t restorations = 0;     ///< watchdog: queues given back to PFC
  uint64_t storm_detected_tsc = 0;  ///< the last detection (0: none)
  uint64_t storm_restored_tsc = 0;  ///< the last restoration (0: none)
  uint64_t pg_watermark_bytes = 0;  ///< lossless: the priority group's largest occupancy at ingress
};

enum class Admit : uint8_t { kQueued, kQueuedMarked, kDropTail, kDropHeadroom, kDropWatchdog };

inline bool admitted(Admit a) noexcept { return a == Admit::kQueued || a == Admit::kQueuedMarked; }

/// A PFC frame to send out of a port: class-enable vector and per-priority quanta.
struct PfcOut {
  uint8_t class_enable = 0;  ///< 0: nothing to send
  std::array<uint16_t, kPriorities> quanta{};
};

struct Dequeued {
  uintptr_t handle = 0;
  uint32_t bytes = 0;
  bool valid = false;
};

class SwitchModel {
 public:
  explicit SwitchModel(ModelParams params);

  uint16_t ports() const noexcept { return n_ports_; }
  const ModelParams& params() const noexcept { return params_; }

  /// A frame of `bytes` (incl. FCS) arrived on `in` for egress `out` at priority `prio`;
  /// `ect`: ECN-capable. On kQueuedMarked the caller sets CE in the frame. Dropped
  /// frames stay the caller's to free.
  /// A flooded frame is enqueued once per egress port, and received (counted at `in`)
  /// only with the first: `count_rx` false for the others.
  Admit enqueue(uint16_t in, uint16_t out, uint8_t prio, uint32_t bytes, bool ect, uintptr_t handle, uint64_t now,
                bool count_rx = true) noexcept;

  /// Replaces the handle of the frame enqueue last queued on (out, prio): the caller
  /// marked a copy of it instead.
  void replace_last(uint16_t out, uint8_t prio, uintptr_t handle) noexcept {
    Queue& q = queue(out, prio);
    q.ring[(q.head + q.count - 1) % q.ring.size()].handle = handle;
  }

  /// The next frame `out` may send now (round robin over unpaused non-empty queues,
  /// within the shaper's rate), or none.
  Dequeued dequeue(uint16_t out, uint64_t now) noexcept;

  /// A PFC (or, with `link_pause`, 802.3x PAUSE: quanta[0] for all priorities) frame
  /// received on `port`: it takes effect `pause_reaction_tsc` later (in tick()).
  void pause_received(uint16_t port, uint16_t class_enable, const uint16_t* quanta, bool link_pause,
                      uint64_t now) noexcept;

  /// The PFC frame `port` must send now (XOFF / XON changes, refreshes), or none.
  PfcOut pfc_due(uint16_t port, uint64_t now) noexcept;

  /// Watchdog and pause accounting; frames the watchdog drops go to `release(handle)`.
  template <class Release>
  void tick(uint64_t now, Release&& release) noexcept;

  /// Empties every queue into `release(handle)` (the end of a run).
  template <class Release>
  void flush(Release&& release) noexcept;

  const PriorityCounters& counters(uint16_t port, uint8_t prio) const noexcept {
    return counters_[port * kPriorities + prio];
  }
  uint64_t queue_bytes(uint16_t port, uint8_t prio) const noexcept { return queue(port, prio).bytes; }
  /// Input queueing: the bytes waiting in `in`'s FIFO.
  uint64_t ingress_bytes(uint16_t in) const noexcept { return ingress_.empty() ? 0 : ingress_[in].bytes; }
  uint64_t group_bytes(uint16_t port, uint8_t prio) const noexcept { return group(port, prio).bytes; }
  uint64_t shared_bytes() const noexcept { return shared_bytes_; }
  /// Sending time `port` lost while backlogged, beyond what its shaper could catch up.
  const uint64_t& egress_lost_tsc(uint16_t port) const noexcept { return egress_[port].lost_tsc; }
  /// The spells of sending that ended (a counter, readable while it runs).
  const uint64_t& egress_busy_ended_tsc(uint16_t port) const noexcept { return egress_[port].busy_tsc; }
  /// Time `port` had frames it could send (queued, not paused) up to `now`: at its shaped
  /// rate, what it carried over that time is what it must have sent. Owner (or stopped) only.
  uint64_t egress_busy_tsc(uint16_t port, uint64_t now) const noexcept;
  const uint64_t& shared_watermark_bytes() const noexcept { return shared_watermark_; }
  bool paused(uint16_t port, uint8_t prio, uint64_t now) const noexcept { return queue(port, prio).pause_until > now; }
  bool in_storm(uint16_t port, uint8_t prio) const noexcept { return queue(port, prio).storm; }
  /// The pause `quanta` ask at `port`'s speed, in TSC cycles.
  uint64_t quanta_tsc(uint16_t port, uint32_t quanta) const noexcept;

 private:
  struct Entry {
    uintptr_t handle;
    uint32_t bytes;
    uint16_t in;
    uint8_t out;   ///< input queueing: its egress port (api::kMaxSwitchPorts: 256)
    uint8_t prio;  ///< input queueing: its priority
  };
  struct Queue {
    std::vector<Entry> ring;  ///< capacity fixed at construction
    uint32_t head = 0;
    uint32_t count = 0;
    uint64_t bytes = 0;
    uint64_t pause_until = 0;
    uint64_t pause_accounted = 0;  ///< paused_tsc counted up to here
    uint64_t waiting_paused_since = 0;  ///< watchdog: paused with frames since then (when waiting_paused)
    bool waiting_paused = false;
    bool storm = false;

    /// At the tail (the caller checked there is room).
    void push(const Entry& e) noexcept {
      ring[(head + count) % ring.size()] = e;
      ++count;
      bytes += e.bytes;
    }
    /// From the head (the caller checked there is one).
    Entry take() noexcept {
      const Entry e = ring[head];
      head = static_cast<uint32_t>((head + 1) % ring.size());
      --count;
      bytes -= e.bytes;
      return e;
    }
  };
  struct Group {  // an ingress port's lossless priority group
    uint64_t bytes = 0;
    bool xoff = false;
    uint8_t pending = 0;  ///< 1: XOFF to send, 2: XON to send
    uint64_t next_refresh = 0;
  };
  struct DelayedPause {  // a PFC / PAUSE frame heard, waiting for the reaction delay
    uint64_t at = 0;
    uint16_t port = 0;
    uint8_t class_enable = 0;
    bool link_pause = false;
    std::array<uint16_t, kPriorities> quanta{};
  };
  struct Egress {
    TscQ16 next_tsc_q16 = 0;  ///< the shaper: when the next frame may start
    uint64_t cycles_per_byte_q16 = 0;
    uint64_t lost_tsc = 0;  ///< sending time lost beyond the catch-up (the lcore held up longer)
    uint64_t busy_tsc = 0;  ///< time it had frames it could send, ended spells
    uint64_t backlog_since = 0;
    bool backlogged = false;
    uint8_t rr = 0;
  };

  Queue& queue(uint16_t port, uint8_t prio) noexcept { return queues_[port * kPriorities + prio]; }
  const Queue& queue(uint16_t port, uint8_t prio) const noexcept { return queues_[port * kPriorities + prio]; }
  Group& group(uint16_t port, uint8_t prio) noexcept { return groups_[port * kPriorities + prio]; }
  const Group& group(uint16_t port, uint8_t prio) const noexcept { return groups_[port * kPriorities + prio]; }
  PriorityCounters& ctr(uint16_t port, uint8_t prio) noexcept { return counters_[port * kPriorities + prio]; }
  bool lossless(uint8_t prio) const noexcept { return (params_.lossless >> prio) & 1; }
  bool should_mark(uint64_t depth) noexcept;
  Entry pop(uint16_t port, uint8_t prio) noexcept;
  Entry pop_ingress(uint16_t in) noexcept;
  Admit enqueue_ingress(uint16_t in, uint16_t out, uint8_t prio, uint32_t bytes, uintptr_t handle) noexcept;
  /// A lossy frame within the queue's limit and the shared buffer (taken from it), or a tail drop counted at `c`.
  bool admit_lossy(const Queue& q, uint32_t bytes, PriorityCounters& c) noexcept;
  /// Input queueing: the ingress port whose head frame may leave by `out` now, or -1.
  int next_ingress(uint16_t out, uint8_t first, uint64_t now) const noexcept;
  bool wait_for_shaper(Egress& eg, uint64_t now) noexcept;
  Dequeued sent(Egress& eg, uint16_t out, uint8_t prio, const Entry& e) noexcept;
  void went_idle(Egress& eg, uint64_t now) noexcept;
  void release_group(const Entry& e, uint8_t prio) noexcept;
  void account_pause(Queue& q, PriorityCounters& c, uint64_t now) noexcept;
  void apply_pause(const DelayedPause& p) noexcept;
  uint64_t refresh_tsc(uint16_t port) const noexcept;

  ModelParams params_;
  uint16_t n_ports_ = 0;
  std::vector<Queue> queues_;
  std::vector<Queue> ingress_;  ///< input queueing: one FIFO per ingress port
  std::vector<Group> groups_;
  std::vector<PriorityCounters> counters_;
  std::vector<Egress> egress_;
  uint64_t shared_bytes_ = 0;
  uint64_t shared_watermark_ = 0;
  uint64_t rng_ = 1;
  std::vector<DelayedPause> delayed_;  ///< a ring, capacity fixed at construction
  uint32_t delayed_head_ = 0;
  uint32_t delayed_count_ = 0;
};

template <class Release>
void SwitchModel::tick(uint64_t now, Release&& release) noexcept {
  while (delayed_count_ > 0 && delayed_[delayed_head_].at <= now) {
    apply_pause(delayed_[delayed_head_]);
    delayed_head_ = (delayed_head_ + 1) % static_cast<uint32_t>(delayed_.size());
    --delayed_count_;
  }
  for (uint16_t port = 0; port < n_ports_; ++port) {
    for (uint8_t prio = 0; prio < kPriorities; ++prio) {
      Queue& q = queue(port, prio);
      PriorityCounters& c = ctr(port, prio);
      account_pause(q, c, now);
      if (!params_.watchdog || !lossless(prio)) continue;
      const bool paused = q.pause_until > now;
      if (!q.storm) {
        if (paused && q.count > 0) {
          if (!q.waiting_paused) {
            q.waiting_paused = true;
            q.waiting_paused_since = now;
          }
          if (now - q.waiting_paused_since >= params_.watchdog_detect_tsc) {
            q.storm = true;
            fast::counter_add(c.storms, 1);
            fast::counter_set(c.storm_detected_tsc, now);
            q.waiting_paused = false;
          }
        } else {
          q.waiting_paused = false;
        }
      } else if (!paused && now - q.pause_until >= params_.watchdog_restore_tsc) {
        // Timed from when the last pause ran out (or an XON ended it), not from the last
        // loop that saw it paused: a loop held up by the host must not restore early.
        q.storm = false;
        fast::counter_add(c.restorations, 1);
        fast::counter_set(c.storm_restored_tsc, now);
      }
      if (q.storm && params_.watchdog_action == WatchdogAction::kDrop) {
        while (q.count > 0) {
          const Entry e = pop(port, prio);
          fast::counter_add(c.drop_watchdog, 1);
          release(e.handle);
        }
      }
    }
  }
}

template <class Release>
void SwitchModel::flush(Release&& release) noexcept {
  for (uint16_t port = 0; port < n_ports_; ++port) {
    for (uint8_t prio = 0; prio < kPriorities; ++prio)
      while (queue(port, prio).count > 0) release(pop(port, prio).handle);
    if (!ingress_.empty())
      while (ingress_[port].count > 0) release(pop_ingress(port).handle);
  }
}

}  // namespace lr::sw
