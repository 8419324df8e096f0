#pragma once
// HOT PATH: worker lcores only. No alloc, throw, log, lock, syscall.
//
// PFC and PAUSE honoured in software (a port's `pfc_honour`), for ports whose NIC does
// not react itself (virtual devices, a NIC with PFC off): the lcore that receives a
// MAC Control frame on the port schedules its pause, once the reaction delay has
// passed, as the time each pause class stays paused; the TX lanes sending on the port
// hold their frames while their class is paused. Frames held are neither dropped nor
// renumbered: they are sent later, under the lane's usual catch-up limit (pacer.hpp).
//
// As 802.1Qbb 36.1.3.3 and 802.3 31B.3.1 ask, a frame's quanta restart the class's
// timer (a refresh replaces the pause, it does not add to it) and quanta 0 ends it.

#include <rte_common.h>

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "dataplane/fastpath/counters.hpp"
#include "lib/wire/mac_control.hpp"

namespace lr::fast {

/// Pause classes: PFC priorities 0-7, then 802.3x PAUSE, which pauses the whole link.
inline constexpr unsigned kPauseClasses = 9;
inline constexpr uint8_t kLinkPauseClass = 8;

/// When each pause class of a port stops being paused (TSC; at or before now: not
/// paused). Written by the lcores receiving on the port (one word per class, so a
/// reader never sees half an update), read by the lcores sending on it.
struct alignas(RTE_CACHE_LINE_SIZE) PortPause {
  std::atomic<uint64_t> until_tsc[kPauseClasses]{};
};

/// A receiving queue's side: its port's pause words, the port's quantum and reaction
/// delay in TSC cycles, and the pauses received but not yet due (a FIFO: every pause
/// waits the same delay, so they fall due in arrival order). Owned by the queue's lcore.
struct PauseReaction {
  static constexpr uint32_t kPending = 256;
  struct Pending {
    uint64_t apply_tsc;
    uint64_t until_tsc;
    uint8_t pause_class;
  };

  PortPause* port = nullptr;
  uint64_t quantum_tsc_q16 = 0;  ///< one quantum (512 bit times at the port's speed), Q16 TSC cycles
  uint64_t delay_tsc = 0;        ///< between a frame's arrival and its pause taking effect
  uint32_t head = 0;             ///< next pending to apply
  uint32_t tail = 0;             ///< next free slot
  uint64_t applied = 0;          ///< pause requests applied (relaxed counter)
  uint64_t applied_early = 0;    ///< applied before their delay had passed: the FIFO was full
  Pending pending[kPending];
};

namespace detail {
inline void apply_oldest(PauseReaction& r) noexcept {
  const PauseReaction::Pending& p = r.pending[r.head % PauseReaction::kPending];
  r.port->until_tsc[p.pause_class].store(p.until_tsc, std::memory_order_relaxed);
  ++r.head;
  counter_add(r.applied, 1);
}

inline void schedule(PauseReaction& r, uint8_t pause_class, uint16_t quanta, uint64_t rx_tsc) noexcept {
  const uint64_t apply = rx_tsc + r.delay_tsc;
  // Quanta 0 (XON) ends the pause when applied.
  const uint64_t until = apply + ((uint64_t{quanta} * r.quantum_tsc_q16) >> 16);
  if (r.tail - r.head == PauseReaction::kPending) {
    apply_oldest(r);
    counter_add(r.applied_early, 1);
  }
  r.pending[r.tail % PauseReaction::kPending] = {apply, until, pause_class};
  ++r.tail;
  if (r.delay_tsc == 0) apply_oldest(r);
}
}  // namespace detail

/// Schedules the pauses of a MAC Control frame (wire::is_mac_control) received at
/// `rx_tsc`: one per priority a PFC frame enables, or the link's for PAUSE. Another
/// opcode asks nothing.
inline void react_to_mac_control(PauseReaction& r, const uint8_t* frame, uint64_t rx_tsc) noexcept {
  const wire::MacControlFields f = wire::read_mac_control(frame);
  if (f.opcode == wire::kOpcodePfc) {
    for (uint8_t p = 0; p < 8; ++p)
      if ((f.class_enable >> p & 1) != 0) detail::schedule(r, p, f.quanta[p], rx_tsc);
  } else if (f.opcode == wire::kOpcodePause) {
    detail::schedule(r, kLinkPauseClass, f.quanta[0], rx_tsc);
  }
}

/// Applies the pauses whose delay has passed at `now_tsc`.
inline void apply_due_pauses(PauseReaction& r, uint64_t now_tsc) noexcept {
  while (r.head != r.tail && r.pending[r.head % PauseReaction::kPending].apply_tsc <= now_tsc) detail::apply_oldest(r);
}

/// A TX lane's view: the pause words of its port, its class (kLinkPauseClass when its
/// frames carry no priority: only PAUSE holds them) and the pause it is in.
struct LanePause {
  const PortPause* port = nullptr;  ///< nullptr: the port does not honour PFC
  uint8_t pause_class = kLinkPauseClass;
  uint64_t since_tsc = 0;           ///< 0: not paused (relaxed: mgmt reads it to add a pause going on)
  uint64_t paused_tsc = 0;          ///< time spent paused, ended pauses (relaxed counter)
};

/// Whether the lane is paused at `now_tsc`; accounts the time of each pause when it ends.
inline bool lane_paused(LanePause& lane, uint64_t now_tsc) noexcept {
  uint64_t until = lane.port->until_tsc[kLinkPauseClass].load(std::memory_order_relaxed);
  if (lane.pause_class != kLinkPauseClass)
    until = std::max(until, lane.port->until_tsc[lane.pause_class].load(std::memory_order_relaxed));
  if (now_tsc < until) {
    if (lane.since_tsc == 0) __atomic_store_n(&lane.since_tsc, now_tsc, __ATOMIC_RELAXED);
    return true;
  }
  if (lane.since_tsc != 0) {
    // It ended at `until` (an XON's moment, or the quanta running out), seen a poll later.
    counter_add(lane.paused_tsc, std::max(until, lane.since_tsc) - lane.since_tsc);
    __atomic_store_n(&lane.since_tsc, uint64_t{0}, __ATOMIC_RELAXED);
  }
  return false;
}

/// Ends an ongoing pause at `now_tsc` (the lane stops while paused).
inline void end_lane_pause(LanePause& lane, uint64_t now_tsc) noexcept {
  if (lane.since_tsc == 0) return;
  counter_add(lane.paused_tsc, now_tsc - lane.since_tsc);
  __atomic_store_n(&lane.since_tsc, uint64_t{0}, __ATOMIC_RELAXED);
}

/// One quantum (512 bit times) at `speed_bps`, in Q16 TSC cycles of a `tsc_hz` clock.
inline uint64_t quantum_tsc_q16(uint64_t speed_bps, uint64_t tsc_hz) noexcept {
  __extension__ using u128 = unsigned __int128;
  return speed_bps == 0 ? 0 : static_cast<uint64_t>((static_cast<u128>(tsc_hz) * 512u << 16) / speed_bps);
}

}  // namespace lr::fast
