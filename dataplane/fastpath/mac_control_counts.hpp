#pragma once
// HOT PATH: worker lcores only. No alloc, throw, log, lock, syscall.
//
// MAC Control frames (PFC, PAUSE) an RX queue received, counted per priority. Counted
// where the port hands them to software (virtual devices, a NIC told to pass them);
// a NIC that consumes them counts them itself (the port's merged counters). Written by
// the queue's lcore only (counters.hpp), read live by mgmt.

#include <cstdint>

#include "dataplane/fastpath/counters.hpp"
#include "lib/wire/mac_control.hpp"

namespace lr::fast {

struct MacControlCounts {
  /// One pause class: a PFC priority, or PAUSE's one.
  struct Class {
    uint64_t xoff = 0;    ///< frames asking this class to pause (quanta > 0)
    uint64_t xon = 0;     ///< frames asking it to resume (quanta 0)
    uint64_t quanta = 0;  ///< sum of the XOFF frames' quanta
  };
  Class pfc[8];
  Class pause;
  uint64_t pfc_frames = 0;
  uint64_t pause_frames = 0;
  uint64_t other_frames = 0;  ///< MAC Control frames with another opcode
  uint64_t first_tsc = 0;     ///< arrival of the first MAC Control frame (0: none yet)
  uint64_t last_tsc = 0;
};

namespace detail {
inline void count_class(MacControlCounts::Class& c, uint16_t quanta) noexcept {
  if (quanta == 0) {
    counter_add(c.xon, 1);
  } else {
    counter_add(c.xoff, 1);
    counter_add(c.quanta, quanta);
  }
}
}  // namespace detail

/// Counts one MAC Control frame (wire::is_mac_control) that arrived at `rx_tsc`. A PFC
/// frame counts for each priority its class-enable vector names; its reserved bits
/// are not priorities and are ignored, as a receiver must.
inline void count_mac_control(MacControlCounts& c, const uint8_t* frame, uint64_t rx_tsc) noexcept {
  const wire::MacControlFields f = wire::read_mac_control(frame);
  if (f.opcode == wire::kOpcodePfc) {
    counter_add(c.pfc_frames, 1);
    for (unsigned p = 0; p < 8; ++p)
      if ((f.class_enable >> p & 1) != 0) detail::count_class(c.pfc[p], f.quanta[p]);
  } else if (f.opcode == wire::kOpcodePause) {
    counter_add(c.pause_frames, 1);
    detail::count_class(c.pause, f.quanta[0]);
  } else {
    counter_add(c.other_frames, 1);
  }
  if (c.first_tsc == 0) __atomic_store_n(&c.first_tsc, rx_tsc, __ATOMIC_RELAXED);
  __atomic_store_n(&c.last_tsc, rx_tsc, __ATOMIC_RELAXED);
}

}  // namespace lr::fast
