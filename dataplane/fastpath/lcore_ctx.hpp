#pragma once
// HOT PATH: worker lcores only. No alloc, throw, log, lock, syscall.
//
// Per-worker state. The engine (mgmt) allocates it on the lcore's socket before launch
// and reads it while it runs (relaxed counters) and after the lcore returned (the
// rest: trackers and histograms). Hot fields first; fields mgmt writes (stop flags)
// on their own cache line so its stores do not invalidate the counters' line.

#include <rte_common.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "dataplane/fastpath/capture_tap.hpp"
#include "dataplane/fastpath/latency_hist.hpp"
#include "dataplane/fastpath/mac_control_counts.hpp"
#include "dataplane/fastpath/pacer.hpp"
#include "dataplane/fastpath/pause_reaction.hpp"
#include "dataplane/fastpath/seq_tracker.hpp"
#include "dataplane/fastpath/stall_log.hpp"
#include "dataplane/fastpath/timeline.hpp"
#include "lib/api/run_spec.hpp"
#include "lib/wire/packet_writer.hpp"
#include "lib/wire/tx_stream_plan.hpp"

struct rte_mempool;

namespace lr::fast {

struct SlowPath;  // fastpath/slow_path.hpp

// 32 frames per burst: testpmd's and l3fwd's default, one descriptor cache line group.
inline constexpr uint16_t kTxBurst = 32;
inline constexpr uint16_t kRxBurst = 32;
inline constexpr uint64_t kUnlimited = std::numeric_limits<uint64_t>::max();
/// A TX mbuf's private area: a cache line, so the frame data after it stays line-aligned
/// (and at a fixed distance from the mbuf, see fill_fixed_burst).
inline constexpr uint16_t kTxMbufPrivBytes = RTE_CACHE_LINE_SIZE;

/// What a lane writes per frame into mbufs its pool's filling wrote: every field the plan
/// has (write_frame), or, where each mbuf holds the whole frame (the pool filled with it),
/// only the signature and the UDP checksum (headers_fixed) or those and the varied fields
/// (one_size_varied). kCopied: the mbufs are its TX port's, shared by its streams ([run]
/// tx_buffers), so each frame is copied whole from the template, then written as kWhole.
/// kSized: a few sizes (sized_frames), a pool per size filled with that size's frame, the
/// per-frame bytes as kFixed's.
enum class TxFill : uint8_t { kWhole, kFixed, kVaried, kCopied, kSized };

/// A sized stream's lane (TxFill::kSized): its stream's pool per size, and mbufs taken from
/// each ahead of the frames that need them, a refill at a time (a get from each pool every
/// burst cost more than the frames' own bytes); what is left goes back when the lane ends.
struct SizedLane {
  static constexpr uint32_t kStash = 64;  ///< a power of 2 (get_sized_burst masks with it), at least kTxBurst
  rte_mempool* pools[kMaxSizePools] = {};
  uint32_t left[kMaxSizePools] = {};  ///< mbufs in stash[size]: its top is stash[size][left - 1]
  rte_mbuf* stash[kMaxSizePools][kStash] = {};
};

/// One (stream, lane): a TX queue's share of a stream. Cache lines by who touches them
/// and how often (the static_asserts below hold the layout to this comment):
///   0-1  owner, every burst: pacer, queue, plan, pool, limits, the frame cursor's
///        sequence and size position. The cursor's per-field counts run on into line 2,
///        touched only by streams that vary fields; line 2 then holds owner fields read
///        once per run or per rate change, and a sized stream's pools (read per burst).
///   3    owner writes per burst, mgmt reads: counters.
///   4    mgmt writes, owner reads once per iteration: rate and stop requests; the
///        timeline and the duration, set before launch.
struct alignas(RTE_CACHE_LINE_SIZE) TxLane {
  // Lines 0-1.
  Pacer pacer;
  uint16_t port_id = 0;
  uint16_t queue_id = 0;
  uint8_t lane = 0;
  bool finished = false;        ///< owner's view of `done`
  TxFill fill = TxFill::kWhole;  ///< what the TX loop writes per frame
  bool held = false;            ///< owner's view of `hold_request`
  const wire::TxStreamPlan* plan = nullptr;
  rte_mempool* pool = nullptr;
  uint64_t remaining = kUnlimited;  ///< frames left (count mode)
  uint64_t end_tsc = kUnlimited;
  FrameCursor cursor;               ///< the next frame to send
  // Line 2, after the cursor: owner, cold.
  uint64_t applied_interval_fp = 0;  ///< the rate in force (see requested_interval_fp)
  uint64_t lag_window_fp = 0;        ///< see pacer_max_lag (0: no catch-up); set before launch
  SizedLane* sized = nullptr;  ///< kSized: its pools and their mbufs taken ahead
  LanePause pause;                   ///< PFC / PAUSE honoured (pfc_honour); its counter read by mgmt too

  // Line 3. Relaxed counters; done with release.
  alignas(RTE_CACHE_LINE_SIZE) uint64_t tx_packets = 0;
  uint64_t tx_bytes = 0;        ///< frame bytes incl. FCS
  uint64_t queue_full = 0;      ///< frames the TX queue refused (resent later, never counted as sent)
  uint64_t alloc_failures = 0;  ///< bursts skipped for an empty mempool
  uint64_t forgone = 0;  ///< frames the pacer gave up (Pacer::due, Pacer::forgo_before)
  uint64_t start_tsc = 0;       ///< set by mgmt before launch
  uint64_t stop_tsc = 0;
  std::atomic<bool> done{false};

  // Line 4. A rate request is one word, the pacer interval (Q16 TSC cycles per frame,
  // 0: unpaced), so a reader can never see half of one request and half of another,
  // and relaxed ordering suffices: nothing else is published with it. The owner applies
  // it when it differs from the interval in force (asking for the rate already in force
  // changes nothing) and derives the catch-up from it.
  alignas(RTE_CACHE_LINE_SIZE) std::atomic<uint64_t> requested_interval_fp{0};
  std::atomic<bool> stop_request{false};  ///< finish this lane now
  std::atomic<bool> hold_request{false};  ///< send nothing until released; what was not sent is not made up
  // Set by mgmt before launch, read by the owner once per burst (on the line it reads anyway).
  TimelineBins timeline;                   ///< frames sent per bin ([run] timeline), or none
  uint64_t timeline_bins_per_tsc_q64 = 0;  ///< with start_tsc, the bins' clock
  /// A capture of what this lane's TX queue sends, or none; set by mgmt with a release
  /// store, read per burst with an acquire load (as RxQueue::capture).
  CaptureTap* capture = nullptr;
  uint64_t duration_tsc = 0;  ///< 0: no duration limit; set before launch, read at the lcore's start
  uint64_t start_after_tsc = 0;  ///< sends from start_tsc + this (a paced lane); set before launch
};

static_assert(offsetof(TxLane, plan) < RTE_CACHE_LINE_SIZE + 1, "TxLane: the pacer and queue overflow line 0");
static_assert(offsetof(TxLane, cursor) + offsetof(FrameCursor, vary_k) <= 2 * RTE_CACHE_LINE_SIZE,
              "TxLane: what every burst touches overflows lines 0-1");
static_assert(offsetof(TxLane, pause) + sizeof(LanePause) <= 3 * RTE_CACHE_LINE_SIZE, "TxLane: line 2 overflows");
static_assert(offsetof(TxLane, tx_packets) == 3 * RTE_CACHE_LINE_SIZE);
static_assert(offsetof(TxLane, done) < 4 * RTE_CACHE_LINE_SIZE, "TxLane: the counters overflow line 3");
static_assert(offsetof(TxLane, requested_interval_fp) == 4 * RTE_CACHE_LINE_SIZE);
static_assert(sizeof(TxLane) == 5 * RTE_CACHE_LINE_SIZE);
static_assert(std::atomic<uint64_t>::is_always_lock_free, "a rate request must be one plain word");

/// One RX queue polled by this lcore.
struct RxQueue {
  uint16_t port_id = 0;
  uint16_t queue_id = 0;
  uint64_t rx_packets = 0;    ///< relaxed counters, read live by mgmt
  uint64_t rx_bytes = 0;      ///< incl. FCS
  uint64_t no_signature = 0;  ///< frames without a valid linerate signature (MAC Control frames apart)
  PauseReaction* pause_reaction = nullptr;  ///< the port honours PFC / PAUSE (pfc_honour)
  /// A capture on this queue (capture_tap.hpp), or none; set by mgmt with a release store,
  /// read per burst with an acquire load. The tap outlives every run it is set for.
  CaptureTap* capture = nullptr;
  /// The port's emulated hosts (fastpath/slow_path.hpp), or none: then nothing is handed over.
  SlowPath* slow_path = nullptr;
  MacControlCounts mac_control;  ///< after the per-burst counters: touched only by MAC Control frames
  TimelineBins mac_control_timeline;  ///< MAC Control frames received per bin ([run] timeline), or none
};

/// What this lcore saw of one stream. A frame in order writes its first cache line (the
/// checks, the bytes and the latency's running sums), its latency bucket and its lane's
/// tracker line: three lines, so a thousand streams' state stays in L2.
struct alignas(RTE_CACHE_LINE_SIZE) RxStream {
  static constexpr uint8_t kInspectEcn = 1;         ///< ECN-capable frames: count the codepoints received
  static constexpr uint8_t kInspectMacControl = 2;  ///< MAC Control frames: count them for the port too
  static constexpr uint8_t kInspectTimeline = 4;    ///< count its frames per time bin ([run] timeline)
  uint8_t inspect = 0;        ///< kInspect* flags: what its frames are read for beyond the signature
  uint8_t n_lanes = 0;  ///< 0: the stream is not received here (a frame's lane is checked against it alone)
  uint16_t rx_port_id = 0;
  uint32_t latency_shift_ns = 0;  ///< added to the receive time: a sender's clock put on ours (mod 2^32, as the stamps)
  uint32_t late_ns = 0;
  uint32_t first_tracker = 0;  ///< its lanes' trackers: LcoreCtx::rx_trackers[first_tracker, + n_lanes)
  uint64_t rx_bytes = 0;
  LatencyHist latency;  ///< its running sums end line 0, its buckets follow
  // Cold: written only by the frames that are late, misdelivered or inspected.
  uint64_t late = 0;
  uint64_t misdelivered = 0;  ///< arrived on another port than the stream's rx_port
  uint64_t ecn[4] = {};  ///< frames received per codepoint (wire::Ecn), with kInspectEcn
  TimelineBins timeline;  ///< frames received per bin, with kInspectTimeline
  // With kInspectTimeline, the longest silence between two frames, to the cycle (a pause's
  // length is exact however wide the bins): relaxed, mgmt reads them after the run.
  uint64_t first_rx_tsc = 0;  ///< the stream's first frame here (0: none yet)
  uint64_t last_rx_tsc = 0;
  uint64_t longest_gap_tsc = 0;
  uint64_t longest_gap_end_tsc = 0;  ///< the frame that ended it

  /// The stream has an rx_port and this lcore receives it.
  bool enabled() const noexcept { return n_lanes != 0; }
};

static_assert(offsetof(RxStream, latency) + LatencyHist::scalar_bytes() <= RTE_CACHE_LINE_SIZE,
              "RxStream: what a frame in order writes overflows line 0");

/// A TX lane in the lcore's schedule (LcoreCtx::lane_schedule): when it next wants a look.
struct LaneDue {
  uint64_t due_tsc = 0;
  uint32_t lane = 0;  ///< index into LcoreCtx::tx_lanes
};

/// Lanes an lcore looks at one by one every iteration; with more, it keeps a schedule.
inline constexpr uint32_t kScannedLanes = api::kScannedLanes;

struct alignas(RTE_CACHE_LINE_SIZE) LcoreCtx {
  unsigned lcore_id = 0;
  TxLane* tx_lanes = nullptr;
  uint32_t n_tx_lanes = 0;
  RxQueue* rx_queues = nullptr;
  uint32_t n_rx_queues = 0;
  RxStream* rx_streams = nullptr;
  uint32_t n_streams = 0;
  SeqTracker* rx_trackers = nullptr;  ///< every stream's lanes' (RxStream::first_tracker)
  uint64_t ns_per_tsc_q32 = 0;  ///< nanoseconds per TSC cycle, Q32 (see tsc_ns_multiplier)
  uint64_t start_tsc = 0;  ///< common start of all lanes, set before launch
  TimelineClock timeline_clock;  ///< the RX timelines' bins: start_tsc and the bin width
  /// Over kScannedLanes lanes, none held by PFC: n_tx_lanes entries, a binary min-heap on
  /// due_tsc that the lcore keeps (the lanes are then looked at only when due); else none.
  LaneDue* lane_schedule = nullptr;
  /// With lane_schedule: how far ahead a late lane may send (tx_scheduled_lanes), the pacer's
  /// catch-up window (lag_window_fp), so a lane sends at most that far on either side.
  uint64_t max_ahead_tsc = 0;

  // Written by mgmt. Release on store, acquire on load: the lcore then sees every
  // write mgmt made before asking it to stop.
  alignas(RTE_CACHE_LINE_SIZE) std::atomic<bool> stop_tx{false};
  std::atomic<bool> stop_rx{false};
  /// Counted up (release) after mgmt changes a lane's rate, hold or stop request: an lcore
  /// with a lane_schedule reads the requests only when this moved.
  std::atomic<uint64_t> lane_requests{0};

  // Sequence count over rx_streams (single writer: this lcore): odd while an RX burst
  // is being accounted. mgmt reads a consistent snapshot of the counters while traffic
  // runs, retrying when it changed; see read_rx_stream_live.
  alignas(RTE_CACHE_LINE_SIZE) std::atomic<uint64_t> rx_seq{0};

  // Owner writes on a stall only (cold); mgmt resets it before launch and reads it any time.
  alignas(RTE_CACHE_LINE_SIZE) StallLog stalls;
  /// The lcore's first clock read once start_tsc has come (its first burst follows): when
  /// it began, for a start judged on the UTC clock. Written once; mgmt zeroes it before launch.
  std::atomic<uint64_t> began_tsc{0};
};

}  // namespace lr::fast
