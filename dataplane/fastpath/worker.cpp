// HOT PATH: worker lcores only. No alloc, throw, log, lock, syscall.
#include "dataplane/fastpath/worker.hpp"

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_pause.h>
#include <rte_prefetch.h>

#include <algorithm>
#include <cstring>

#include "dataplane/fastpath/counters.hpp"
#include "dataplane/fastpath/received_mbufs.hpp"
#include "dataplane/fastpath/slow_path.hpp"
#include "lib/wire/ecn.hpp"
#include "lib/wire/mac_control.hpp"
#include "lib/wire/packet_writer.hpp"

namespace lr::fast {

uint64_t tsc_ns_multiplier(uint64_t tsc_hz) noexcept {
  __extension__ using u128 = unsigned __int128;
  return static_cast<uint64_t>((static_cast<u128>(1'000'000'000u) << 32) / tsc_hz);
}

namespace {

// Out of line: a MAC Control frame is rare next to the traffic, and its counting would
// otherwise grow the per-frame loop.
// Returns whether the frame was one.
[[gnu::noinline, gnu::cold]] bool count_if_mac_control(RxQueue& queue, const rte_mbuf* m, uint64_t rx_tsc,
                                                       const TimelineClock& clock) noexcept {
  const auto* frame = rte_pktmbuf_mtod(m, const uint8_t*);
  if (m->data_len != wire::kMacControlBytes || !wire::is_mac_control(frame, wire::kMacControlBytes)) return false;
  count_mac_control(queue.mac_control, frame, rx_tsc);
  if (queue.mac_control_timeline.bins != nullptr) timeline_add(queue.mac_control_timeline, clock, rx_tsc, 1);
  if (queue.pause_reaction != nullptr) react_to_mac_control(*queue.pause_reaction, frame, rx_tsc);
  return true;
}

// What a stream's `inspect` flags ask of its frames beyond the signature. Out of line:
// the streams that need it pay for it, the others one branch on a byte already loaded.
[[gnu::noinline]] void inspect_frame(RxStream& stream, RxQueue& queue, const rte_mbuf* m, uint64_t rx_tsc,
                                     const TimelineClock& clock) noexcept {
  if ((stream.inspect & RxStream::kInspectMacControl) != 0) count_if_mac_control(queue, m, rx_tsc, clock);
  if ((stream.inspect & RxStream::kInspectTimeline) != 0) {
    timeline_add(stream.timeline, clock, rx_tsc, 1);
    if (stream.last_rx_tsc == 0) counter_set(stream.first_rx_tsc, rx_tsc);
    if (stream.last_rx_tsc != 0 && rx_tsc - stream.last_rx_tsc > stream.longest_gap_tsc) {
      counter_set(stream.longest_gap_tsc, rx_tsc - stream.last_rx_tsc);
      counter_set(stream.longest_gap_end_tsc, rx_tsc);
    }
    counter_set(stream.last_rx_tsc, rx_tsc);
  }
  if ((stream.inspect & RxStream::kInspectEcn) != 0) {
    const uint8_t ecn = wire::ecn_codepoint(rte_pktmbuf_mtod(m, const uint8_t*), m->data_len);
    if (ecn != wire::kNoEcn) ++stream.ecn[ecn];
  }
}

}  // namespace

namespace {

// The places frame_signature looks at after the frame's last bytes: before a RoCEv2
// ICRC, at the end of a padded IP payload, across segments. Out of line: linerate's own
// frames in one segment never come here.
[[gnu::noinline]] bool frame_signature_elsewhere(const rte_mbuf* m, wire::Signature& sig) noexcept {
  if (m->nb_segs == 1) return wire::locate_signature(rte_pktmbuf_mtod(m, const uint8_t*), m->data_len, sig);
  const uint32_t len = m->pkt_len;
  uint8_t copy[wire::kSignatureBytes];
  const auto* at = static_cast<const uint8_t*>(
      len >= wire::kSignatureBytes ? rte_pktmbuf_read(m, len - wire::kSignatureBytes, wire::kSignatureBytes, copy) : nullptr);
  if (at != nullptr && wire::read_signature(at, sig)) return true;
  if (len < wire::kSignatureBeforeIcrc) return false;  // RoCEv2
  at = static_cast<const uint8_t*>(rte_pktmbuf_read(m, len - wire::kSignatureBeforeIcrc, wire::kSignatureBytes, copy));
  return at != nullptr && wire::read_signature(at, sig);
}

// The frame's signature: at its last bytes, or where frame_signature_elsewhere looks.
inline bool frame_signature(const rte_mbuf* m, wire::Signature& sig) noexcept {
  const uint32_t len = m->data_len;
  if (m->nb_segs == 1 && len >= wire::kSignatureBytes &&
      wire::read_signature(rte_pktmbuf_mtod_offset(m, const uint8_t*, len - wire::kSignatureBytes), sig)) [[likely]]
    return true;
  return frame_signature_elsewhere(m, sig);
}

uint32_t latency_of(const wire::Signature& sig, uint32_t rx_ns) noexcept {
  const uint32_t diff = rx_ns - sig.tx_ns;
  // One TSC, or another put on ours within its bound: below 0 only by that bound's error.
  return static_cast<int32_t>(diff) < 0 ? 0 : diff;
}

}  // namespace

namespace {

// At most kRxBurst frames.
uint64_t account_frames(LcoreCtx& ctx, RxQueue& queue, rte_mbuf* const* pkts, uint16_t n, uint64_t rx_tsc,
                        uint32_t rx_ns) noexcept {
  uint64_t bytes = 0;
  uint64_t no_signature = 0;
  // One pass: each frame's signature (its last cache line, fetched 12 frames ahead), then
  // its counting, so the counting of the frames between hides the wait for it. Measured
  // against two passes (every signature first, then the counting): 10 % slower with the
  // frames in cache, 8-16 % faster with them in memory. The distance, measured with each
  // frame's line in DRAM (a NIC without cache injection; rx_accounting_bench's FromDram):
  // 4 (l3fwd's) gave 32 Mpps with 16 streams and 28 with 1,024; 8, 45 and 36; 12, 49 and
  // 40; 16, 54 and 39; every frame of the burst at once, 30 and 29 (more fetches than the
  // core keeps in flight). With the frames in cache, 4 to 16 are the same within 2 %.
  // A stream's state is three lines (RxStream), so a thousand streams' stay in L2:
  // fetching it ahead bought nothing at 1024 streams and cost 10-15 % with few.
  constexpr uint16_t kPrefetchAhead = 12;
  for (uint16_t i = 0; i < kPrefetchAhead && i < n; ++i)
    rte_prefetch0(rte_pktmbuf_mtod_offset(pkts[i], char*, pkts[i]->data_len - 1));
  for (uint16_t i = 0; i < n; ++i) {
    if (i + kPrefetchAhead < n) {
      const rte_mbuf* ahead = pkts[i + kPrefetchAhead];
      rte_prefetch0(rte_pktmbuf_mtod_offset(ahead, char*, ahead->data_len - 1));
    }
    const rte_mbuf* m = pkts[i];
    const uint32_t len = m->pkt_len;
    bytes += len + 4u;
    wire::Signature sig;
    const bool signed_frame = frame_signature(m, sig) && sig.stream_id < ctx.n_streams;
    // MAC Control frames (PFC, PAUSE) are looked for where they can be: among the frames
    // without a signature (a device's), and in the streams that send them (ours), so
    // the signed traffic pays nothing for them.
    if (!signed_frame) {
      if (!count_if_mac_control(queue, m, rx_tsc, ctx.timeline_clock)) {
        ++no_signature;
        if (queue.slow_path != nullptr) [[unlikely]]
          hand_to_slow_path(*queue.slow_path, pkts[i]);
      }
      continue;
    }
    RxStream& stream = ctx.rx_streams[sig.stream_id];
    if (sig.lane >= stream.n_lanes) {  // a lane it does not have, or a stream not received here
      if (!count_if_mac_control(queue, m, rx_tsc, ctx.timeline_clock)) ++no_signature;
      continue;
    }
    if (queue.port_id != stream.rx_port_id) {
      // Counted apart, not in the stream's sequence: e.g. a port that hears its own
      // transmissions, or a switch flooding to the wrong port.
      ++stream.misdelivered;
      if (stream.inspect != 0) [[unlikely]] count_if_mac_control(queue, m, rx_tsc, ctx.timeline_clock);
      continue;
    }
    ctx.rx_trackers[stream.first_tracker + sig.lane].record(sig.seq);
    const uint32_t latency_ns = latency_of(sig, rx_ns + stream.latency_shift_ns);
    stream.latency.record(latency_ns);
    if (latency_ns > stream.late_ns) [[unlikely]] ++stream.late;
    stream.rx_bytes += len + 4u;
    if (stream.inspect != 0) [[unlikely]] inspect_frame(stream, queue, m, rx_tsc, ctx.timeline_clock);
  }
  counter_add(queue.rx_packets, n);
  counter_add(queue.rx_bytes, bytes);
  if (no_signature != 0) counter_add(queue.no_signature, no_signature);
  return n - no_signature;
}

}  // namespace

namespace {

// The frame into a record: its first bytes and what its signature says.
void fill_record(CaptureRecord& r, const CaptureTap& tap, rte_mbuf* m, uint64_t rx_tsc, uint32_t rx_ns,
                 uint32_t n_streams) noexcept {
  r.tsc = rx_tsc;
  r.wire_bytes = m->pkt_len;
  r.kept = static_cast<uint16_t>(std::min<uint32_t>(m->pkt_len, tap.snaplen));
  r.queue = tap.queue;
  r.event = SeqEvent::kNone;
  const void* bytes = rte_pktmbuf_read(m, 0, r.kept, r.data());
  if (bytes != r.data()) std::memcpy(r.data(), bytes, r.kept);
  wire::Signature sig;
  r.signed_frame = frame_signature(m, sig) && sig.stream_id < n_streams;
  r.stream_id = sig.stream_id;
  r.lane = sig.lane;
  r.seq = sig.seq;
  r.outbound = tap.outbound;
  r.latency_ns = r.signed_frame && !tap.outbound ? latency_of(sig, rx_ns) : 0;
}

// Where `seq` stands in its lane's sequence; the lane's state moves on.
SeqEvent place_in_sequence(CaptureTrigger& t, uint8_t lane, uint32_t seq, uint32_t& expected) noexcept {
  expected = t.expected[lane];
  if (!t.lane_started[lane]) {
    t.lane_started[lane] = true;
    t.expected[lane] = seq + 1;
    t.seen[lane] = 1;
    return SeqEvent::kNone;
  }
  const auto ahead = static_cast<int32_t>(seq - expected);
  if (ahead >= 0) {
    t.seen[lane] = ahead >= 63 ? 1 : (t.seen[lane] << (ahead + 1)) | 1;
    t.expected[lane] = seq + 1;
    return ahead == 0 ? SeqEvent::kNone : SeqEvent::kLoss;
  }
  const uint32_t back = static_cast<uint32_t>(-ahead) - 1;  // 0: the frame just before expected
  if (back < 64) {
    const uint64_t bit = uint64_t{1} << back;
    if ((t.seen[lane] & bit) != 0) return SeqEvent::kDuplicate;
    t.seen[lane] |= bit;
  }
  return SeqEvent::kOutOfOrder;
}

bool trigger_wants(const CaptureTrigger& t, SeqEvent e) noexcept {
  return (e == SeqEvent::kLoss && t.on_loss) || (e == SeqEvent::kOutOfOrder && t.on_out_of_order) ||
         (e == SeqEvent::kDuplicate && t.on_duplicate);
}

// A triggered capture's frame: held, handed over with the event, or after it. Records
// go to `out` (at most kRxBurst + before per burst: the caller's array is that big).
void trigger_frame(CaptureTap& tap, rte_mbuf* m, uint64_t rx_tsc, uint32_t rx_ns, uint32_t n_streams, void** out,
                   unsigned& n_out, uint64_t& dropped) noexcept {
  CaptureTrigger& t = tap.trigger;
  wire::Signature sig;
  if (!frame_signature(m, sig) || sig.stream_id != t.stream_id || sig.lane >= CaptureTrigger::kLanes) return;
  uint32_t expected = 0;
  const SeqEvent event = t.fired ? SeqEvent::kNone : place_in_sequence(t, sig.lane, sig.seq, expected);
  void* record = nullptr;
  const bool holding = !t.fired && !trigger_wants(t, event);
  if (holding && t.before != 0 && t.held_count == t.before) {
    record = t.held[t.held_next];  // the oldest held frame makes room
  } else if (holding && t.before == 0) {
    return;
  } else if (rte_mempool_get(tap.records, &record) != 0) {
    ++dropped;
    return;
  }
  auto* r = static_cast<CaptureRecord*>(record);
  fill_record(*r, tap, m, rx_tsc, rx_ns, n_streams);
  if (holding) {
    if (t.held_count == t.before) {
      t.held_next = (t.held_next + 1) % t.before;
    } else {
      t.held[(t.held_next + t.held_count) % t.before] = record;
      ++t.held_count;
    }
    return;
  }
  if (!t.fired) {
    for (uint32_t i = 0; i < t.held_count; ++i) out[n_out++] = t.held[(t.held_next + i) % t.before];
    t.held_count = 0;
    r->event = event;
    r->expected = expected;
    t.fired = true;
    t.after_left = t.after;
  } else {
    --t.after_left;
  }
  out[n_out++] = record;
  if (t.after_left == 0) __atomic_store_n(&t.finished, true, __ATOMIC_RELEASE);
}

}  // namespace

[[gnu::noinline]] void capture_frames(CaptureTap& tap, rte_mbuf* const* pkts, uint16_t n, uint64_t rx_tsc,
                                                 uint32_t rx_ns, uint32_t n_streams) noexcept {
  if (n > kRxBurst) [[unlikely]] {  // the arrays below hold one burst
    for (uint32_t at = 0; at < n; at += kRxBurst)
      capture_frames(tap, pkts + at, static_cast<uint16_t>(std::min<uint32_t>(kRxBurst, n - at)), rx_tsc, rx_ns,
                     n_streams);
    return;
  }
  if (!__atomic_load_n(&tap.open, __ATOMIC_RELAXED)) return;
  CaptureTrigger& t = tap.trigger;
  const bool armed = t.armed();
  if (armed && __atomic_load_n(&t.finished, __ATOMIC_RELAXED)) return;
  static_assert(kRxBurst <= BurstFilter::kMaxBurst);
  rte_mbuf* kept_frames[kRxBurst];
  rte_mbuf* const* kept = pkts;
  uint16_t n_kept = n;
  if (tap.filter != nullptr) {
    n_kept = tap.filter->keep(pkts, n, kept_frames);
    kept = kept_frames;
  }
  if (n_kept == 0) return;
  void* records[kRxBurst + CaptureTrigger::kMaxBefore];
  unsigned taken = 0;
  uint64_t dropped = 0;
  if (armed) {
    for (uint16_t i = 0; i < n_kept && !t.finished; ++i)
      trigger_frame(tap, kept[i], rx_tsc, rx_ns, n_streams, records, taken, dropped);
  } else {
    taken = rte_mempool_get_bulk(tap.records, records, n_kept) == 0 ? n_kept : 0;
    if (taken == 0)  // fewer left than the burst: frame by frame, to keep what there is
      while (taken < n_kept && rte_mempool_get(tap.records, &records[taken]) == 0) ++taken;
    dropped = n_kept - taken;
    for (unsigned i = 0; i < taken; ++i)
      fill_record(*static_cast<CaptureRecord*>(records[i]), tap, kept[i], rx_tsc, rx_ns, n_streams);
  }
  const unsigned put = taken == 0 ? 0 : rte_ring_sp_enqueue_burst(tap.ring, records, taken, nullptr);
  if (put < taken) {
    rte_mempool_put_bulk(tap.records, records + put, taken - put);
    dropped += taken - put;
  }
  counter_add(tap.matched, n_kept);
  if (dropped != 0) counter_add(tap.dropped, dropped);
}

uint64_t rx_account_burst(LcoreCtx& ctx, RxQueue& queue, rte_mbuf* const* pkts, uint16_t n, uint64_t rx_tsc,
                          uint32_t rx_ns) noexcept {
  uint64_t signed_frames = 0;
  for (uint32_t at = 0; at < n; at += kRxBurst)  // 32 bits: `at` passes 65,535 for the largest n
    signed_frames += account_frames(ctx, queue, pkts + at, static_cast<uint16_t>(std::min<uint32_t>(kRxBurst, n - at)),
                                    rx_tsc, rx_ns);
  return signed_frames;
}

void rx_process_burst(LcoreCtx& ctx, RxQueue& queue, rte_mbuf* const* pkts, uint16_t n, uint64_t rx_tsc,
                      uint32_t rx_ns) noexcept {
  rx_account_burst(ctx, queue, pkts, n, rx_tsc, rx_ns);
  if (CaptureTap* tap = __atomic_load_n(&queue.capture, __ATOMIC_ACQUIRE)) [[unlikely]]
    capture_frames(*tap, pkts, n, rx_tsc, rx_ns, ctx.n_streams);
}

uint16_t rx_queue_burst(LcoreCtx& ctx, RxQueue& queue) noexcept {
  rte_mbuf* pkts[kRxBurst];
  const uint16_t n = rte_eth_rx_burst(queue.port_id, queue.queue_id, pkts, kRxBurst);
  if (n == 0) return 0;
  // Read after the burst: a clock read before it could predate a frame sent by another
  // lcore and give a negative latency.
  const uint64_t now_tsc = rte_rdtsc();
  const uint32_t rx_ns = tsc_to_ns32(now_tsc, ctx.ns_per_tsc_q32);
  // Seqcount writer: odd while the stream state changes. The release fence keeps the
  // odd value ahead of the updates, the release store keeps the even one behind them.
  const uint64_t seq = ctx.rx_seq.load(std::memory_order_relaxed);
  ctx.rx_seq.store(seq + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  rx_process_burst(ctx, queue, pkts, n, now_tsc, rx_ns);
  ctx.rx_seq.store(seq + 2, std::memory_order_release);
  free_received(pkts, n);
  return n;
}

namespace {

// Applies a rate change that mgmt published (one word: see TxLane line 3).
void apply_rate_request(TxLane& lane, uint64_t interval_fp, uint64_t now_tsc) noexcept {
  lane.pacer.set_rate(interval_fp, pacer_max_lag(interval_fp, lane.lag_window_fp), now_tsc);
  lane.applied_interval_fp = interval_fp;
}

// A release resumes at the rate in force from now: the time held is not caught up.
void hold_lane(TxLane& lane, bool held, uint64_t now_tsc) noexcept {
  lane.held = held;
  if (!held) apply_rate_request(lane, lane.applied_interval_fp, now_tsc);
}

// A sized lane's mbufs taken ahead go back to their pools (the run's count of mbufs not
// returned would hold them).
void give_back_stash(SizedLane& sized) noexcept {
  for (uint32_t s = 0; s < kMaxSizePools; ++s) {
    if (sized.left[s] != 0)
      rte_mempool_put_bulk(sized.pools[s], reinterpret_cast<void**>(sized.stash[s]), sized.left[s]);
    sized.left[s] = 0;
  }
}

void finish_lane(TxLane& lane, uint64_t now_tsc) noexcept {
  if (lane.sized != nullptr) give_back_stash(*lane.sized);
  uint64_t stop = now_tsc;
  if (lane.duration_tsc != 0 && now_tsc >= lane.end_tsc) {
    stop = lane.end_tsc;
    // Due and never sent; not for a lane told to stop (one that sends nothing in this run).
    if (!lane.held && !lane.stop_request.load(std::memory_order_relaxed))
      lane.pacer.forgo_before(lane.end_tsc, lane.remaining, lane.forgone);
  } else if (lane.remaining == 0 && lane.pacer.is_paced()) {
    // The last frame's slot ends one interval after it was due.
    stop = std::max(now_tsc, lane.pacer.next_due_tsc());
  }
  __atomic_store_n(&lane.stop_tsc, stop, __ATOMIC_RELAXED);
  end_lane_pause(lane.pause, now_tsc);
  lane.finished = true;
  lane.done.store(true, std::memory_order_release);
}

// The rate and the hold mgmt last asked of `lane`, applied where they changed; returns
// whether it is held.
bool apply_lane_requests(TxLane& lane, uint64_t now_tsc) noexcept {
  const uint64_t interval_fp = lane.requested_interval_fp.load(std::memory_order_relaxed);
  if (interval_fp != lane.applied_interval_fp) apply_rate_request(lane, interval_fp, now_tsc);
  const bool held = lane.hold_request.load(std::memory_order_relaxed);
  if (held != lane.held) [[unlikely]]
    hold_lane(lane, held, now_tsc);
  return held;
}

// Every lane looked at in turn (kScannedLanes or fewer, or a lane PFC holds): its
// requests read, then a burst of what is due.
void tx_scanned_lanes(LcoreCtx& ctx, uint64_t now_tsc, uint32_t tx_ns, uint32_t& active) noexcept {
  const bool stop = ctx.stop_tx.load(std::memory_order_acquire);
  for (uint32_t i = 0; i < ctx.n_tx_lanes; ++i) {
    TxLane& lane = ctx.tx_lanes[i];
    if (lane.finished) continue;
    if (stop || lane.remaining == 0 || now_tsc >= lane.end_tsc || lane.stop_request.load(std::memory_order_relaxed)) {
      finish_lane(lane, now_tsc);
      --active;
      continue;
    }
    if (apply_lane_requests(lane, now_tsc)) continue;  // held
    if (lane.pause.port != nullptr && lane_paused(lane.pause, now_tsc)) continue;
    tx_lane_burst(lane, now_tsc, now_tsc, tx_ns);
  }
}

// The schedule's order: the lane due first at the top.
struct DueLater {
  bool operator()(const LaneDue& a, const LaneDue& b) const noexcept { return a.due_tsc > b.due_tsc; }
};

// When the schedule must next look at `lane`: its next frame, or its end if sooner.
uint64_t lane_due_tsc(const TxLane& lane) noexcept { return std::min(lane.pacer.next_send_tsc(), lane.end_tsc); }

// The top of the schedule moved later: sifted down to its place (a pop and a push in one).
void sift_down(LaneDue* heap, uint32_t size) noexcept {
  const LaneDue moved = heap[0];
  uint32_t at = 0;
  for (;;) {
    uint32_t child = 2 * at + 1;
    if (child >= size) break;
    if (child + 1 < size && heap[child + 1].due_tsc < heap[child].due_tsc) ++child;
    if (heap[child].due_tsc >= moved.due_tsc) break;
    heap[at] = heap[child];
    at = child;
  }
  heap[at] = moved;
}

// Every lane's requests applied (mgmt counted lane_requests up), and the schedule built
// again from the lanes not finished, a held one at its end: O(lanes), once per request.
uint32_t schedule_lanes(LcoreCtx& ctx, uint64_t now_tsc, uint32_t& active) noexcept {
  const bool stop = ctx.stop_tx.load(std::memory_order_acquire);
  uint32_t size = 0;
  for (uint32_t i = 0; i < ctx.n_tx_lanes; ++i) {
    TxLane& lane = ctx.tx_lanes[i];
    if (lane.finished) continue;
    if (stop || lane.stop_request.load(std::memory_order_relaxed)) {
      finish_lane(lane, now_tsc);
      --active;
      continue;
    }
    const bool held = apply_lane_requests(lane, now_tsc);
    // A held lane waits in the schedule for its end (a duration ends while held, as in
    // tx_scanned_lanes); a release is a request, which schedules it again.
    ctx.lane_schedule[size++] = LaneDue{held ? lane.end_tsc : lane_due_tsc(lane), i};
  }
  std::make_heap(ctx.lane_schedule, ctx.lane_schedule + size, DueLater{});
  return size;
}

// At most this many frames an iteration from the schedule, then RX gets its turn.
constexpr uint32_t kScheduledFrames = 2 * kTxBurst;

// The lanes due by now, the earliest first: a burst each, then each back in the schedule
// at its next frame (never now again: a lane whose mempool or queue was empty waits for
// the next iteration). O(log lanes) a burst.
// A lane that is late by L (the lcore behind: a visit a frame costs more than the frames'
// interval allows) sends the frames due up to L ahead too, at most max_ahead_tsc (the
// catch-up window) and never past its end: the later the schedule, the more frames a
// visit takes, until it catches up. Each lane's rate stays its own (the frames are its next ones, their credit spent);
// only their spacing moves, by at most that lateness, and when it keeps up, by nothing.
void tx_scheduled_lanes(LcoreCtx& ctx, uint32_t& scheduled, uint64_t now_tsc, uint32_t tx_ns,
                        uint32_t& active) noexcept {
  LaneDue* heap = ctx.lane_schedule;
  uint32_t frames = 0;
  while (scheduled != 0 && heap[0].due_tsc <= now_tsc && frames < kScheduledFrames) {
    TxLane& lane = ctx.tx_lanes[heap[0].lane];
    const uint64_t ahead = std::min(now_tsc - heap[0].due_tsc, ctx.max_ahead_tsc);
    uint16_t sent = 0;
    if (!lane.held && lane.remaining != 0 && now_tsc < lane.end_tsc)
      sent = tx_lane_burst(lane, now_tsc, std::min(now_tsc + ahead, lane.end_tsc - 1), tx_ns);
    frames += sent;
    if (lane.remaining == 0 || now_tsc >= lane.end_tsc) {
      finish_lane(lane, now_tsc);
      --active;
      heap[0] = heap[--scheduled];
    } else if (lane.held || sent == 0) {  // waits for its end, or for the next iteration
      heap[0].due_tsc = std::max(lane.held ? lane.end_tsc : lane_due_tsc(lane), now_tsc + 1);
    } else {
      // Still behind after a full burst: its next frame's time, however early, so that
      // every lane is as late as the others (a fast lane is not left behind by the cap).
      heap[0].due_tsc = lane_due_tsc(lane);
    }
    sift_down(heap, scheduled);
  }
}

}  // namespace

int run_worker(void* arg) noexcept {
  LcoreCtx& ctx = *static_cast<LcoreCtx*>(arg);
  const uint64_t start = ctx.start_tsc;
  while (rte_rdtsc() < start) rte_pause();
  ctx.began_tsc.store(rte_rdtsc(), std::memory_order_relaxed);
  for (uint32_t i = 0; i < ctx.n_tx_lanes; ++i) {
    TxLane& lane = ctx.tx_lanes[i];
    const uint64_t begin = start + lane.start_after_tsc;
    lane.pacer.restart(begin);
    lane.end_tsc = lane.duration_tsc != 0 ? begin + lane.duration_tsc : kUnlimited;
  }
  uint32_t active = ctx.n_tx_lanes;
  uint64_t lane_requests = ctx.lane_requests.load(std::memory_order_acquire);
  uint32_t scheduled = ctx.lane_schedule != nullptr ? schedule_lanes(ctx, start, active) : 0;
  // An lcore that got to its loop after the start was held up from the start: that counts.
  uint64_t last_tsc = start;
  const uint64_t stall_tsc = ctx.stalls.threshold_tsc;
  while (!ctx.stop_rx.load(std::memory_order_acquire)) {
    const uint64_t now_tsc = rte_rdtsc();  // one clock read per iteration
    note_iteration(ctx.stalls, stall_tsc, last_tsc, now_tsc);
    last_tsc = now_tsc;
    if (active != 0) {
      const uint32_t tx_ns = tsc_to_ns32(now_tsc, ctx.ns_per_tsc_q32);
      if (ctx.lane_schedule == nullptr) {
        tx_scanned_lanes(ctx, now_tsc, tx_ns, active);
      } else {
        const uint64_t requests = ctx.lane_requests.load(std::memory_order_acquire);
        if (requests != lane_requests || ctx.stop_tx.load(std::memory_order_relaxed)) [[unlikely]] {
          lane_requests = requests;
          scheduled = schedule_lanes(ctx, now_tsc, active);
        }
        tx_scheduled_lanes(ctx, scheduled, now_tsc, tx_ns, active);
      }
    }
    for (uint32_t q = 0; q < ctx.n_rx_queues; ++q) {
      RxQueue& queue = ctx.rx_queues[q];
      rx_queue_burst(ctx, queue);
      if (queue.pause_reaction != nullptr) apply_due_pauses(*queue.pause_reaction, now_tsc);
    }
  }
  const uint64_t now_tsc = rte_rdtsc();
  for (uint32_t i = 0; i < ctx.n_tx_lanes; ++i)
    if (!ctx.tx_lanes[i].finished) finish_lane(ctx.tx_lanes[i], now_tsc);
  return 0;
}

}  // namespace lr::fast
