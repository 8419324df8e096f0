#pragma once
// HOT PATH: worker lcores only. No alloc, throw, log, lock, syscall.
//
// The worker lcore loop: TX lanes (pacer -> template mbufs -> signature ->
// rte_eth_tx_burst) and RX queues (rte_eth_rx_burst -> signature -> sequence tracker
// and latency histogram), one clock read per iteration.

#include <cstdint>

#include "dataplane/fastpath/lcore_ctx.hpp"

struct rte_mbuf;

namespace lr::fast {

/// rte_eal_remote_launch entry: runs until ctx.stop_rx. Returns 0.
int run_worker(void* ctx) noexcept;

/// One TX burst of `lane` at `now_tsc` of the frames due by `due_by_tsc` (now_tsc, or
/// later for a scheduled lcore that is behind: see tx_scheduled_lanes); `tx_ns` is the
/// timestamp written into the signatures. Returns frames sent.
uint16_t tx_lane_burst(TxLane& lane, uint64_t now_tsc, uint64_t due_by_tsc, uint32_t tx_ns) noexcept;

/// One RX burst of `queue`, accounted into ctx.rx_streams and freed. Returns frames received.
uint16_t rx_queue_burst(LcoreCtx& ctx, RxQueue& queue) noexcept;

/// Accounts `n` received frames (does not free them) that arrived at `rx_tsc`, `rx_ns`
/// on the signature's clock. MAC Control frames count in queue.mac_control, and in a
/// stream too when they carry its signature (linerate's own PFC streams). Returns the
/// frames accounted: signed frames of a known stream and MAC Control frames.
uint64_t rx_account_burst(LcoreCtx& ctx, RxQueue& queue, rte_mbuf* const* pkts, uint16_t n, uint64_t rx_tsc,
                          uint32_t rx_ns) noexcept;

/// What the RX loop does with a received burst: rx_account_burst, then the queue's
/// capture (capture_tap.hpp), if it has one. The frames stay the caller's.
void rx_process_burst(LcoreCtx& ctx, RxQueue& queue, rte_mbuf* const* pkts, uint16_t n, uint64_t rx_tsc,
                      uint32_t rx_ns) noexcept;

/// Q32 multiplier for tsc_to_ns32: a multiply instead of a 128-bit division per burst.
/// Its rounding error scales every latency by under 2^-31, far below the clock's own.
uint64_t tsc_ns_multiplier(uint64_t tsc_hz) noexcept;

/// Low 32 bits of nanoseconds since TSC 0 (the signature's clock).
inline uint32_t tsc_to_ns32(uint64_t tsc, uint64_t ns_per_tsc_q32) noexcept {
  __extension__ using u128 = unsigned __int128;
  return static_cast<uint32_t>((static_cast<u128>(tsc) * ns_per_tsc_q32) >> 32);
}

}  // namespace lr::fast
