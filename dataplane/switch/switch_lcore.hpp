#pragma once
// HOT PATH: the switch lcore. No alloc, throw, log, lock, syscall.
//
// The software switch's loop on its own lcore: receive on every port, consume PFC /
// PAUSE, classify, forward and queue through the model (switch_model.hpp), then send
// each port's PFC frames and whatever its shaper lets out. The mgmt side
// (software_switch.cpp) builds it before launch and reads it after the lcore returned.

#include <rte_ether.h>

#include <atomic>
#include <cstdint>
#include <vector>

#include "dataplane/fastpath/stall_log.hpp"
#include "dataplane/switch/mac_table.hpp"
#include "dataplane/switch/switch_model.hpp"

struct rte_mbuf;
struct rte_mempool;

namespace lr::sw {

inline constexpr uint16_t kSwitchBurst = 32;
/// Frames of a port read at once after a stall (a cable's ring holds 4096).
inline constexpr uint32_t kStagedMax = 4096;

struct SwitchPortIo {
  uint16_t port_id = 0;
  // The ingress wire: an in-process cable delivers a burst at once, a link one frame per
  // frame time. Frames received wait here until the link would have delivered them, so
  // the buffers fill as they would behind a real link of the port's speed.
  uint32_t n_staged = 0;
  uint32_t next_staged = 0;
  TscQ16 wire_next_q16 = 0;          ///< when the next frame has finished arriving
  uint64_t wire_cycles_per_byte_q16 = 0;
  /// After a stall, the frames that came meanwhile spread over it: at least this apart.
  TscQ16 wire_spacing_q16 = 0;
  rte_mbuf* staged[kStagedMax]{};
  int16_t egress = -1;            ///< the forwarding entry: index of the egress port, -1: none
  rte_ether_addr mac{};           ///< the source of its PFC frames
  uint16_t n_out = 0;             ///< frames taken from the model, not yet taken by the TX queue
  uint16_t n_fresh = 0;           ///< of which not yet offered to it
  rte_mbuf* out[kSwitchBurst]{};
  uint64_t rx_frames = 0;
  uint64_t rx_mac_control = 0;
  uint64_t rx_unroutable = 0;
  uint64_t tx_pfc_frames = 0;
  uint64_t ecn_copy_failures = 0;
  uint64_t tx_refused = 0;        ///< frames its TX queue refused at first (the receiver was slow to take them)
  uint64_t pause_first_tsc = 0;   ///< the first PFC / PAUSE frame received (0: none)
  uint64_t pause_last_tsc = 0;
  uint64_t rx_flooded = 0;        ///< learning: frames sent to every other port (unknown or group destination)
  uint64_t rx_filtered = 0;       ///< learning: frames for a station on the port they came from, dropped
  uint64_t rx_oversize = 0;       ///< frames longer than the switch's max_frame, dropped
};

struct SwitchLoop {
  SwitchModel* model = nullptr;
  std::vector<SwitchPortIo> ports;  ///< sized before launch, never resized while it runs
  bool learn = false;               ///< forward by learned destination MAC, else by `egress`
  MacTable* macs = nullptr;         ///< learn: the switch's table (it outlives runs: addresses age)
  uint32_t max_frame_bytes = 0;     ///< longer frames (incl. FCS) are dropped at ingress; 0: no limit
  bool classify_dscp = false;
  uint8_t dscp_priority[64]{};
  rte_mempool* pfc_pool = nullptr;   ///< the PFC frames it sends
  rte_mempool* copy_pool = nullptr;  ///< copies of the frames it marks CE (the sender's stay untouched)
  uint64_t wire_burst_tsc = 0;       ///< how far the ingress wire catches up after the lcore was held up
  int nice = 0;                      ///< the lcore thread's nice value, set as it starts (0: left as it is)
  size_t first_port = 0;             ///< the ingress port that wins ties this iteration
  uint64_t run_start_tsc = 0;        ///< the run's common start: a loop entered later was held up since
  // The emulation's own limit: while its lcore is held up (another thread on its CPU) the
  // switch neither forwards nor sends PFC, which no hardware switch does. Its threshold:
  // a loop iteration longer than that counts as a stall.
  fast::StallLog stalls;
  std::atomic<bool> stop{false};
};

/// rte_eal_remote_launch entry: runs until loop.stop. Returns 0.
int run_switch(void* loop) noexcept;

}  // namespace lr::sw
