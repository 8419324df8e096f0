#pragma once
// HOT PATH: worker lcores only. No alloc, throw, log, lock, syscall.
//
// Per-worker state. The engine (mgmt) allocates it on the lcore's socket before launch
// and reads it while it runs (relaxed counters) and after the lcore returned (the
// rest: trackers and histograms). Hot fields first; fields mgmt writes (stop flags)
// on their own cache line so its stores do not invalidate the counters' line.

#include <rte_common.h>

#include <atomic>
#include <cstdint>
#include <limits>

#include "dataplane/fastpath/latency_hist.hpp"
#include "dataplane/fastpath/pacer.hpp"
#include "dataplane/fastpath/seq_tracker.hpp"
#include "dataplane/plan/stream_plan.hpp"

struct rte_mempool;

namespace lr::fast {

// 32 frames per burst: testpmd's and l3fwd's default, one descriptor cache line group.
inline constexpr uint16_t kTxBurst = 32;
inline constexpr uint16_t kRxBurst = 32;
inline constexpr uint64_t kUnlimited = std::numeric_limits<uint64_t>::max();

/// One (stream, lane): a TX queue's share of a stream.
struct alignas(RTE_CACHE_LINE_SIZE) TxLane {
  // Hot, owner only.
  const plan::TxStreamPlan* plan = nullptr;
  rte_mempool* pool = nullptr;
  uint16_t port_id = 0;
  uint16_t queue_id = 0;
  uint8_t lane = 0;
  bool finished = false;        ///< owner's view of `done`
  uint64_t ol_flags = 0;        ///< TX offload flags for every frame (checksum offload), else 0
  uint64_t tx_offload = 0;      ///< l2_len / l3_len / l4_len for the offload
  uint64_t next_seq = 0;
  uint64_t remaining = kUnlimited;  ///< frames left (count mode)
  uint64_t duration_tsc = 0;        ///< 0: no duration limit
  uint64_t end_tsc = kUnlimited;
  uint64_t applied_rate_generation = 0;
  Pacer pacer;

  // Written by the owner, read by mgmt (relaxed counters; done with release).
  alignas(RTE_CACHE_LINE_SIZE) uint64_t tx_packets = 0;
  uint64_t tx_bytes = 0;        ///< frame bytes incl. FCS
  uint64_t queue_full = 0;      ///< frames the TX queue refused (resent later, never counted as sent)
  uint64_t alloc_failures = 0;  ///< bursts skipped for an empty mempool
  uint64_t start_tsc = 0;       ///< set by mgmt before launch
  uint64_t stop_tsc = 0;
  std::atomic<bool> done{false};

  // Written by mgmt, read by the owner once per loop iteration; a line of their own so
  // mgmt's rare stores do not bounce the counters' line. A rate request is the two
  // values, published by bumping rate_generation (release); the owner reads the
  // generation again after them and retries on a change, so it never mixes requests.
  alignas(RTE_CACHE_LINE_SIZE) std::atomic<uint64_t> rate_generation{0};
  std::atomic<uint64_t> requested_interval_fp{0};  ///< Q16 TSC cycles per frame, 0: unpaced
  std::atomic<uint32_t> requested_max_lag{0};
  std::atomic<bool> stop_request{false};            ///< finish this lane now
};

/// One RX queue polled by this lcore.
struct RxQueue {
  uint16_t port_id = 0;
  uint16_t queue_id = 0;
  uint64_t rx_packets = 0;    ///< relaxed counters, read live by mgmt
  uint64_t rx_bytes = 0;      ///< incl. FCS
  uint64_t no_signature = 0;  ///< frames without a valid linerate signature
};

/// What this lcore saw of one stream.
struct RxStream {
  bool enabled = false;       ///< the stream has an rx_port
  uint16_t rx_port_id = 0;
  uint16_t n_lanes = 0;
  uint32_t late_ns = 0;
  SeqTracker* lanes = nullptr;  ///< n_lanes trackers
  uint64_t rx_bytes = 0;
  uint64_t late = 0;
  uint64_t misdelivered = 0;  ///< arrived on another port than the stream's rx_port
  LatencyHist latency;
};

struct alignas(RTE_CACHE_LINE_SIZE) LcoreCtx {
  unsigned lcore_id = 0;
  TxLane* tx_lanes = nullptr;
  uint32_t n_tx_lanes = 0;
  RxQueue* rx_queues = nullptr;
  uint32_t n_rx_queues = 0;
  RxStream* rx_streams = nullptr;
  uint32_t n_streams = 0;
  uint64_t ns_per_tsc_q32 = 0;  ///< nanoseconds per TSC cycle, Q32 (see tsc_ns_multiplier)
  uint64_t start_tsc = 0;  ///< common start of all lanes, set before launch

  // Written by mgmt. Release on store, acquire on load: the lcore then sees every
  // write mgmt made before asking it to stop.
  alignas(RTE_CACHE_LINE_SIZE) std::atomic<bool> stop_tx{false};
  std::atomic<bool> stop_rx{false};

  // Sequence count over rx_streams (single writer: this lcore): odd while an RX burst
  // is being accounted. mgmt reads a consistent snapshot of the counters while traffic
  // runs, retrying when it changed; see read_rx_stream_live.
  alignas(RTE_CACHE_LINE_SIZE) std::atomic<uint64_t> rx_seq{0};
};

}  // namespace lr::fast
