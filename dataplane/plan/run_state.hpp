#pragma once
// Everything one run of a set of streams needs, built from the streams, the ports (up)
// and the lcore plan: per stream its TX plan (in memory on the TX port's socket) and
// template mempool, its rate as pacer intervals per lane, limits in TSC cycles; per worker
// lcore its context, TX lanes, RX queues and sequence trackers (on the lcore's socket).
// Owned: dropping a RunState frees all of it, so a failed build leaves nothing behind.
// Thread: mgmt; EAL initialised.

#include <rte_mempool.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <utility>
#include <vector>

#include "lib/api/run_report.hpp"
#include "lib/common/result.hpp"
#include "dataplane/eal/lcore_plan.hpp"
#include "dataplane/eal/numa_alloc.hpp"
#include "dataplane/fastpath/lcore_ctx.hpp"
#include "dataplane/plan/rate.hpp"
#include "dataplane/port/ethdev_port.hpp"
#include "dataplane/port/netdev_mac_sender.hpp"
#include "lib/profile/profile.hpp"
#include "lib/wire/tx_stream_plan.hpp"

namespace lr::dp {

// Per-lcore mempool cache: DPDK's usual 256 keeps alloc/free off the shared ring.
inline constexpr unsigned kPoolCache = 256;
// Frames in flight beyond the descriptor rings (vdev rings, lcore caches, bursts).
inline constexpr unsigned kPoolSlack = 8192;

/// Mempool sizes are 2^n - 1: rings are 2^n and keep one slot empty.
unsigned pool_size(uint64_t needed);

struct MempoolFree {
  void operator()(rte_mempool* pool) const noexcept { rte_mempool_free(pool); }
};
using MempoolPtr = std::unique_ptr<rte_mempool, MempoolFree>;

struct LaneRef {
  uint32_t stream = 0;
};

// One worker lcore's state for a run, on the lcore's socket; freed with the run (RAII).
struct LcoreState {
  unsigned lcore_id = 0;
  int socket = 0;
  NumaArray<fast::LcoreCtx> ctx;  ///< one
  std::vector<LaneRef> lane_refs;
  NumaArray<fast::TxLane> lanes;
  NumaArray<fast::LaneDue> lane_schedule;  ///< over kScannedLanes lanes and none held by PFC, else empty
  NumaArray<fast::RxQueue> rxqs;
  NumaArray<fast::RxStream> streams;
  NumaArray<fast::SeqTracker> trackers;
  NumaArray<fast::PauseReaction> pause_reactions;  ///< one per RX queue of a port with pfc_honour
  NumaArray<uint64_t> timeline_bins;  ///< [run] timeline: the bins of its streams, lanes and RX queues, in turn

  /// Whether it has a queue to serve: an lcore without one is never launched (on a machine
  /// with fewer CPUs than lcores it would only steal time from the busy ones).
  bool has_queues() const noexcept { return lanes.size() != 0 || rxqs.size() != 0; }
};

struct StreamState {
  api::StreamSpec cfg;
  // The plan its lanes read, in memory on the TX port's socket like the lanes themselves
  // (the lcore plan keeps a port's lanes on its socket). `memory` outlives `plan`.
  std::unique_ptr<NumaMemory> memory;
  NumaArray<wire::TxStreamPlan> plan;  ///< one
  /// Its own mbufs, filled with its frame ([run] tx_buffers per stream): one pool, or one per
  /// frame size (fast::sized_frames); none where it takes its TX port's shared pool.
  std::vector<MempoolPtr> own_pools;
  NumaArray<fast::SizedLane> sized_lanes;  ///< with a pool per size: one per lane (TxLane::sized), else none
  rte_mempool* pool = nullptr;  ///< where its lanes take mbufs: its first own pool, or its TX port's shared pool
  uint16_t tx_port = 0;  ///< index into ports
  plan::StreamPacing pacing;  ///< its rate, converted once (plan::stream_pacing); pps 0: unpaced
  std::vector<std::pair<uint16_t, unsigned>> lanes;  ///< (tx queue, lcore) per lane
  std::vector<api::RateChange> rate_changes;          ///< this run's: the target at start, then each change
};

/// What a run is built from; all of it outlives the build.
struct RunInputs {
  const std::vector<api::StreamSpec>& streams;
  const profile::Profile& profile;       ///< the ports' settings (RX descriptors for pool sizes)
  const std::deque<EthdevPort>& ports;   ///< up, in the profile's order
  const LcorePlan& lcore_plan;
  const std::vector<WorkerLcore>& workers;
  uint64_t tsc_hz = 0;
  std::vector<std::string> kernel_netdevs = {};  ///< per port: its kernel netdev, "" if none
};

struct RunState {
  NumaArray<fast::PortPause> port_pauses;  ///< one per port (by index), used where it honours PFC; first: lanes point at it
  std::vector<StreamState> streams;  ///< in the order of RunInputs::streams (the stream ids)
  std::vector<LcoreState> lcores;    ///< one per worker
  std::vector<std::string> warnings; ///< about this set of streams (a "max" stream beside paced ones)
  uint32_t timeline_bins = 0;        ///< bins per timeline ([run] timeline; 0: none), each timeline_bin_ns wide
  uint64_t timeline_bin_ns = 0;
  api::TxBuffers tx_buffers = api::TxBuffers::kPerStream;  ///< what build_run chose: never kAuto
  std::string tx_buffers_why;  ///< how much that takes, or why the streams share pools
  std::vector<MempoolPtr> shared_pools;  ///< per port (by index) with tx_buffers shared: its streams' mbufs, or none
  /// Per port, where its MAC Control streams go through the kernel netdev. After `streams`:
  /// destroyed first, it frees the frames still in its ring before their pools go.
  std::vector<std::unique_ptr<NetdevMacSender>> netdev_senders;

  /// Mbufs of the run's pools not back in them (own and shared).
  uint64_t tx_mbufs_out() const noexcept;

  /// Empty again, the senders first (an assignment would free the pools before them).
  void reset() {
    netdev_senders.clear();
    *this = RunState{};
  }
};

/// "" when the port's RX queues are polled, else why not: net_null's RX is an endless
/// source of empty frames, polled only when a stream receives there. Every other port is
/// polled, also with no stream receiving on it: stray and misdelivered frames are counted.
std::string rx_not_polled_reason(const EthdevPort& port, const std::vector<api::StreamSpec>& streams);

/// Builds `run` (empty) from `in`. Errors: kInvalid (a frame the TX port's MTU cannot
/// carry, a rate above its line rate, paced streams adding up to more than it carries), kNoMemory; `run` then holds what was built, freed
/// with it.
Result<void> build_run(RunState& run, const RunInputs& in);

}  // namespace lr::dp
