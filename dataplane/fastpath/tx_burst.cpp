// HOT PATH: worker lcores only. No alloc, throw, log, lock, syscall.
//
// One TX burst of a lane: its due frames from its pool, written as its fill says
// (TxFill), sent, and counted.
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include <cstring>

#include "dataplane/fastpath/counters.hpp"
#include "dataplane/fastpath/worker.hpp"
#include "lib/wire/packet_writer.hpp"

namespace lr::fast {

namespace {

// Writes the per-frame bytes of `n` frames from `cursor` on, leaving it at the frame
// after them; the variant is chosen once per burst. kCopied: the mbufs are the TX port's,
// shared by its streams (TxFill::kCopied): an mbuf holds whatever frame it carried last, of
// any stream, so each frame is copied from the template (its payload zero, as write_frame's
// checksum bases want) and its mbuf fields set first; else the pool's filling set them.
// The template's address is read once: a store through a frame's bytes may alias the plan,
// and reading it per frame cost the copied path 3.5 %.
template <bool kHwChecksum, bool kMultiSize, bool kCopied>
void fill_burst(const TxLane& lane, FrameCursor& cursor, rte_mbuf* const* pkts, uint32_t n, uint32_t tx_ns,
                uint16_t* lens) noexcept {
  const wire::TxStreamPlan& plan = *lane.plan;
  const uint8_t* frame_template = plan.template_bytes.data();
  for (uint32_t i = 0; i < n; ++i) {
    rte_mbuf* m = pkts[i];
    const wire::SizeEntry& size = kMultiSize ? plan.sizes[size_index(plan, cursor, lane.lane)] : plan.sizes[0];
    LR_DASSERT(RTE_PKTMBUF_HEADROOM + size.data_len <= m->buf_len);
    if constexpr (kCopied) {
      m->data_off = RTE_PKTMBUF_HEADROOM;
      m->data_len = size.data_len;
      m->pkt_len = size.data_len;
      m->ol_flags = plan.ol_flags;
      m->tx_offload = plan.tx_offload;
    }
    LR_DASSERT(m->data_off == RTE_PKTMBUF_HEADROOM && m->ol_flags == plan.ol_flags);
    auto* data = rte_pktmbuf_mtod(m, uint8_t*);
    if constexpr (kCopied) std::memcpy(data, frame_template, size.data_len);
    // Multi-size streams on their own pool: the mbuf's private area remembers where this
    // buffer's last signature was, so it can be cleared from the payload (a copied
    // template holds none).
    uint16_t no_signature = 0;
    uint16_t& last_sig_offset = kMultiSize && !kCopied ? *static_cast<uint16_t*>(rte_mbuf_to_priv(m)) : no_signature;
    const wire::Signature sig{plan.stream_id, lane.lane, static_cast<uint32_t>(cursor.seq), tx_ns};
    write_frame<kHwChecksum, kMultiSize>(data, plan, size, last_sig_offset, sig, cursor);
    if (kMultiSize && !kCopied) {
      m->data_len = size.data_len;
      m->pkt_len = size.data_len;
    }
    LR_DASSERT(m->data_len == size.data_len && m->pkt_len == size.data_len);
    lens[i] = size.data_len;
    advance(plan, cursor);
  }
}

// fill_burst's variant for the plan's checksums and sizes.
template <bool kCopied>
void fill_whole_burst(const TxLane& lane, FrameCursor& cursor, rte_mbuf* const* pkts, uint32_t n, uint32_t tx_ns,
                      uint16_t* lens) noexcept {
  const wire::TxStreamPlan& plan = *lane.plan;
  if (plan.hw_checksum) {
    if (plan.multi_size) fill_burst<true, true, kCopied>(lane, cursor, pkts, n, tx_ns, lens);
    else fill_burst<true, false, kCopied>(lane, cursor, pkts, n, tx_ns, lens);
  } else {
    if (plan.multi_size) fill_burst<false, true, kCopied>(lane, cursor, pkts, n, tx_ns, lens);
    else fill_burst<false, false, kCopied>(lane, cursor, pkts, n, tx_ns, lens);
  }
}

// A frame of a pool filled whole (fill_template) at its fixed place after its mbuf: its
// buf_addr not loaded per frame.
constexpr size_t kFrameOffset = sizeof(rte_mbuf) + kTxMbufPrivBytes + RTE_PKTMBUF_HEADROOM;

// The same for a fixed-header stream (headers_fixed): the pool's mbufs already hold
// the frame and its mbuf fields (fill_template; nothing that takes them from the PMD
// changes them), so per frame only the signature and the UDP checksum are written,
// computed for the whole burst first (fixed_frame_bytes).
template <bool kUdpChecksum>
void fill_fixed_burst(const TxLane& lane, FrameCursor& cursor, rte_mbuf* const* pkts, uint32_t n,
                      uint32_t tx_ns) noexcept {
  static_assert(kTxBurst <= kFixedFrames);
  const wire::TxStreamPlan& plan = *lane.plan;
  const FixedBurst burst = fixed_burst(plan, lane.lane, tx_ns);
  FixedFrameBytes bytes;
  fixed_frame_bytes<kUdpChecksum>(burst, static_cast<uint32_t>(cursor.seq), n, bytes);
  for (uint32_t i = 0; i < n; ++i) {
    rte_mbuf* m = pkts[i];
    LR_DASSERT(m->data_off == RTE_PKTMBUF_HEADROOM && m->data_len == plan.sizes[0].data_len &&
               m->pkt_len == m->data_len && m->ol_flags == plan.ol_flags);
    LR_DASSERT(rte_pktmbuf_mtod(m, uint8_t*) == reinterpret_cast<uint8_t*>(m) + kFrameOffset);
    store_fixed_frame<kUdpChecksum>(reinterpret_cast<uint8_t*>(m) + kFrameOffset, burst, bytes, i);
  }
  cursor.seq += n;  // no sizes or fields to step
}

// The same for a stream of one size whose fields vary (one_size_varied): the pool's mbufs
// hold the frame, so per frame the varied fields (and the IPv4 checksum) are written, and
// the signature with the UDP checksum as for fixed headers, the fields' share added.
void fill_varied_burst(const TxLane& lane, FrameCursor& cursor, rte_mbuf* const* pkts, uint32_t n,
                       uint32_t tx_ns) noexcept {
  const wire::TxStreamPlan& plan = *lane.plan;
  const auto first_seq = static_cast<uint32_t>(cursor.seq);
  uint8_t* frames[kFixedFrames];
  for (uint32_t i = 0; i < n; ++i) {
    LR_DASSERT(rte_pktmbuf_mtod(pkts[i], uint8_t*) == reinterpret_cast<uint8_t*>(pkts[i]) + kFrameOffset);
    frames[i] = reinterpret_cast<uint8_t*>(pkts[i]) + kFrameOffset;
  }
  uint32_t varied[kFixedFrames];
  write_varied_fields(frames, n, plan, cursor, lane.lane, varied);
  const FixedBurst burst = fixed_burst(plan, lane.lane, tx_ns);
  FixedFrameBytes bytes;
  fixed_frame_bytes<true>(burst, first_seq, n, bytes, varied);
  for (uint32_t i = 0; i < n; ++i) store_fixed_frame<true>(frames[i], burst, bytes, i);
}

// A sized stream's burst (TxFill::kSized): each frame's size from its schedule, the mbufs
// of each size from the lane's stash of that size (refilled from its pool, a stash at a
// time, where it holds too few), in the frames' order; `end_pos`: the schedule's place
// after them. False, with nothing taken, where a pool is short.
// Everything read per frame is in locals and the counts in registers: a store through the
// uint8_t* of a frame or a size index may alias anything, and a count kept in an array
// made each frame wait for the one before it (store to load).
bool get_sized_burst(const TxLane& lane, rte_mbuf** pkts, uint32_t n, uint32_t* sizes, uint32_t& end_pos) noexcept {
  const wire::TxStreamPlan& plan = *lane.plan;
  SizedLane& sized = *lane.sized;
  const auto n_sizes = static_cast<uint32_t>(plan.sizes.size());
  LR_DASSERT(n_sizes <= kMaxSizePools && !plan.random_size && n <= SizedLane::kStash);
  const uint16_t* schedule = plan.size_schedule.data();
  const auto length = static_cast<uint32_t>(plan.size_schedule.size());
  uint32_t pos = lane.cursor.size_pos;
  uint32_t count[kMaxSizePools] = {};
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t s = schedule[pos];
    sizes[i] = s;
    for (uint32_t k = 0; k < kMaxSizePools; ++k) count[k] += s == k ? 1 : 0;
    if (++pos == length) pos = 0;
  }
  end_pos = pos;
  for (uint32_t s = 0; s < n_sizes; ++s) {
    if (sized.left[s] >= count[s]) continue;
    const uint32_t want = SizedLane::kStash - sized.left[s];
    void** top = reinterpret_cast<void**>(sized.stash[s] + sized.left[s]);
    if (rte_mempool_get_bulk(sized.pools[s], top, want) == 0) {
      sized.left[s] = SizedLane::kStash;
    } else if (rte_mempool_get_bulk(sized.pools[s], top, count[s] - sized.left[s]) == 0) {
      sized.left[s] = count[s];  // the pool is low: what this burst needs
    } else {
      return false;  // the stashes keep what they hold
    }
  }
  uint32_t left[kMaxSizePools];
  for (uint32_t k = 0; k < kMaxSizePools; ++k) left[k] = sized.left[k];
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t s = sizes[i];
    for (uint32_t k = 0; k < kMaxSizePools; ++k) left[k] -= s == k ? 1 : 0;
    // Every size's top read, the frame's kept: masked, a full stash's (64) reads its own
    // first entry, not past it.
    rte_mbuf* m = sized.stash[0][left[0] & (SizedLane::kStash - 1)];
    for (uint32_t k = 1; k < kMaxSizePools; ++k) m = s == k ? sized.stash[k][left[k] & (SizedLane::kStash - 1)] : m;
    pkts[i] = m;
  }
  for (uint32_t k = 0; k < kMaxSizePools; ++k) sized.left[k] = left[k];
  return true;
}

// A sized stream's frames, which its pools' filling wrote whole, each at its size: the
// signatures and UDP checksums of fill_fixed_burst, each frame's size's UDP sum added as
// its share (its difference from the first size's, in ones' complement), the signature
// stored at its size's place.
void fill_sized_burst(const TxLane& lane, FrameCursor& cursor, rte_mbuf* const* pkts, const uint32_t* sizes,
                      uint32_t end_pos, uint32_t n, uint32_t tx_ns, uint16_t* lens) noexcept {
  const wire::TxStreamPlan& plan = *lane.plan;
  const size_t n_sizes = plan.sizes.size();
  FixedBurst bursts[kMaxSizePools];
  uint32_t share[kMaxSizePools] = {};
  uint16_t data_len[kMaxSizePools] = {};
  for (size_t s = 0; s < n_sizes; ++s) {
    bursts[s] = fixed_burst(plan, plan.sizes[s], lane.lane, tx_ns);
    share[s] = bursts[s].udp_base + (0xFFFFu - bursts[0].udp_base);
    data_len[s] = plan.sizes[s].data_len;
  }
  uint32_t varied[kFixedFrames];
  for (uint32_t i = 0; i < n; ++i) varied[i] = share[sizes[i]];
  FixedFrameBytes bytes;
  fixed_frame_bytes<true>(bursts[0], static_cast<uint32_t>(cursor.seq), n, bytes, varied);
  for (uint32_t i = 0; i < n; ++i) {
    LR_DASSERT(pkts[i]->data_len == data_len[sizes[i]]);
    store_fixed_frame<true>(reinterpret_cast<uint8_t*>(pkts[i]) + kFrameOffset, bursts[sizes[i]], bytes, i);
    lens[i] = data_len[sizes[i]];
  }
  cursor.seq += n;  // no fields vary
  cursor.size_pos = end_pos;
}

}  // namespace

uint16_t tx_lane_burst(TxLane& lane, uint64_t now_tsc, uint64_t due_by_tsc, uint32_t tx_ns) noexcept {
  const uint32_t want = lane.remaining < kTxBurst ? static_cast<uint32_t>(lane.remaining) : kTxBurst;
  const uint32_t n = lane.pacer.due(due_by_tsc, want, lane.forgone);
  if (n == 0) return 0;
  LR_DASSERT(n <= kTxBurst);
  rte_mbuf* pkts[kTxBurst];
  uint32_t sizes[kTxBurst];  // kSized: each frame's index into plan.sizes
  uint32_t end_pos = 0;      // kSized: the size schedule's place after the burst
  // Raw get, not rte_pktmbuf_alloc_bulk: the fields a reset would clear were set when the
  // pool was filled (a multi-size stream's lengths are set in fill_burst), and a pool
  // object always has refcnt 1, nb_segs 1 and no next segment.
  const bool got = lane.fill == TxFill::kSized
                       ? get_sized_burst(lane, pkts, n, sizes, end_pos)
                       : rte_mempool_get_bulk(lane.pool, reinterpret_cast<void**>(pkts), n) == 0;
  if (!got) {
    lane.pacer.refund(n);
    counter_add(lane.alloc_failures, 1);
    return 0;
  }
  uint16_t lens[kTxBurst];
  const wire::TxStreamPlan& plan = *lane.plan;
  const uint64_t first_seq = lane.cursor.seq;
  const bool fixed = lane.fill == TxFill::kFixed;
  if (fixed) {
    if (plan.hw_checksum || plan.mac_control) fill_fixed_burst<false>(lane, lane.cursor, pkts, n, tx_ns);
    else fill_fixed_burst<true>(lane, lane.cursor, pkts, n, tx_ns);
  } else if (lane.fill == TxFill::kVaried) {
    fill_varied_burst(lane, lane.cursor, pkts, n, tx_ns);
  } else if (lane.fill == TxFill::kSized) {
    fill_sized_burst(lane, lane.cursor, pkts, sizes, end_pos, n, tx_ns, lens);
  } else if (lane.fill == TxFill::kCopied) {
    fill_whole_burst<true>(lane, lane.cursor, pkts, n, tx_ns, lens);
  } else {
    fill_whole_burst<false>(lane, lane.cursor, pkts, n, tx_ns, lens);
  }
  // A capture of what the queue sends copies the frames the PMD took, after it took
  // them: each frame is held once more until then.
  CaptureTap* tap = __atomic_load_n(&lane.capture, __ATOMIC_ACQUIRE);
  if (tap != nullptr) [[unlikely]]
    for (uint32_t i = 0; i < n; ++i) rte_mbuf_refcnt_update(pkts[i], 1);
  const uint16_t sent = rte_eth_tx_burst(lane.port_id, lane.queue_id, pkts, static_cast<uint16_t>(n));
  if (tap != nullptr) [[unlikely]] {
    capture_frames(*tap, pkts, sent, now_tsc, tx_ns, UINT32_MAX);
    rte_pktmbuf_free_bulk(pkts, n);  // the holds; the frames not sent are freed below
  }
  if (sent < n) {
    // Not sent, so not numbered: the next burst rebuilds these frames with the same
    // sequence numbers (and so the same sizes and field values).
    rte_pktmbuf_free_bulk(pkts + sent, n - sent);
    lane.pacer.refund(n - sent);
    counter_add(lane.queue_full, n - sent);
    lane.cursor = cursor_at(plan, first_seq + sent);
  }
  uint64_t bytes = 0;
  if (!plan.multi_size) {
    bytes = uint64_t{sent} * (plan.sizes[0].data_len + 4u);  // + FCS
  } else {
    for (uint16_t i = 0; i < sent; ++i) bytes += lens[i] + 4u;
  }
  if (lane.remaining != kUnlimited) lane.remaining -= sent;
  counter_add(lane.tx_packets, sent);
  if (lane.timeline.bins != nullptr) [[unlikely]]
    timeline_add(lane.timeline, TimelineClock{lane.start_tsc, lane.timeline_bins_per_tsc_q64}, now_tsc, sent);
  counter_add(lane.tx_bytes, bytes);
  return sent;
}

}  // namespace lr::fast
