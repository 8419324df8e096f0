#include "dataplane/plan/run_state.hpp"

#include <fmt/format.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <new>
#include <optional>

#include "dataplane/fastpath/worker.hpp"
#include "dataplane/plan/mac_control_path.hpp"
#include "dataplane/plan/rate.hpp"
#include "dataplane/plan/tx_checksum_offload.hpp"
#include "lib/common/line_rate.hpp"
#include "lib/frames/stream_builder.hpp"
#include "lib/profile/load_toml.hpp"
#include "lib/wire/packet_writer.hpp"

namespace lr::dp {

unsigned pool_size(uint64_t needed) { return static_cast<unsigned>(std::bit_ceil(needed + 1) - 1); }

namespace {

// What a pool's filling writes: its stream's plan, and the size each of its mbufs holds
// (index into plan->sizes) where a stream of a few sizes has a pool per size
// (fast::sized_frames); else the pool carries all of the stream's sizes.
struct PoolFill {
  const wire::TxStreamPlan* plan = nullptr;
  std::optional<uint32_t> size;
};

// Writes the stream's template into every mbuf once, when the pool is made: the TX
// loop then touches only the signature and the varying fields.
void fill_template(rte_mempool* /*pool*/, void* opaque, void* obj, unsigned /*index*/) {
  const auto& fill = *static_cast<const PoolFill*>(opaque);
  const wire::TxStreamPlan& plan = *fill.plan;
  // The size every frame of this pool has, if one: a stream of one size, a sized pool's.
  const wire::SizeEntry* size = fill.size ? &plan.sizes[*fill.size] : !plan.multi_size ? &plan.sizes[0] : nullptr;
  auto* m = static_cast<rte_mbuf*>(obj);
  uint8_t* frame = static_cast<uint8_t*>(m->buf_addr) + RTE_PKTMBUF_HEADROOM;
  std::memcpy(frame, plan.template_bytes.data(), size != nullptr ? size->data_len : plan.template_bytes.size());
  *static_cast<uint16_t*>(rte_mbuf_to_priv(m)) = 0;  // no signature written yet
  // The mbuf's fields are set here, once (the lengths where every frame has one size).
  // Neither a free nor a mempool get changes them, and what takes frames from our PMDs
  // (the peer of an in-process cable, linerate's switch, a capture) reads them and frees
  // the mbuf.
  m->ol_flags = plan.ol_flags;
  m->tx_offload = plan.tx_offload;
  if (size != nullptr) {
    m->data_len = size->data_len;
    m->pkt_len = size->data_len;
  }
  if (!fill.size && !fast::headers_fixed(plan) && !fast::one_size_varied(plan)) return;  // the TX loop writes the rest
  // One frame written whole (sequence 0): the signature's magic, the IPv4 checksum and,
  // with offload, the pseudo-header sum are then in place for every frame (see
  // fixed_frame_bytes; a varied stream's fields are written over it per frame, a sized
  // pool's lengths are its size's).
  uint16_t no_signature_yet = 0;
  const wire::Signature first{plan.stream_id, 0, 0, 0};
  if (fill.size) fast::write_frame<false, true>(frame, plan, *size, no_signature_yet, first, fast::FrameCursor{});
  else if (plan.hw_checksum)
    fast::write_frame<true, false>(frame, plan, *size, no_signature_yet, first, fast::FrameCursor{});
  else fast::write_frame<false, false>(frame, plan, *size, no_signature_yet, first, fast::FrameCursor{});
}

// An error found once the ports are up, at the stream key's own place in its file.
Error at_key(const api::StreamSpec& cfg, size_t index, const char* key, Error e) {
  if (cfg.file.empty()) return e;
  e.context = profile::ConfigError(cfg.file, cfg.loc_of(key), fmt::format("stream[{}].{}", index, key), e.context).what();
  return e;
}

// The heap a pool of `socket` comes from: a port of no NUMA node (a virtual device) takes
// its pool from the first socket's. None when unknown.
std::optional<rte_malloc_socket_stats> heap_stats(int socket) {
  const int heap = socket == SOCKET_ID_ANY ? rte_socket_id_by_idx(0) : socket;
  rte_malloc_socket_stats stats{};
  if (heap < 0 || rte_malloc_get_socket_stats(heap, &stats) != 0) return std::nullopt;
  return stats;
}

// The stream's pool of template mbufs on `socket`. Where the host's hugepage memory runs
// out, the refusal says what the streams before it hold and what is left: this is where a
// profile finds the most streams the host holds (each stream owns a pool, 16 k mbufs and
// more), and a client must learn that limit, not a bare ENOMEM.
Result<MempoolPtr> make_tx_pool(const RunState& run, const RunInputs& in, size_t index, size_t size_index,
                                unsigned mbufs, uint16_t data_room, int socket) {
  const api::StreamSpec& cfg = in.streams[index];
  const std::string name = fmt::format("lr_tx_s{}_{}", index, size_index);
  // A private area per mbuf, where its last signature was (its first 2 bytes, see
  // write_frame), a whole cache line so that the frame after it starts on one: with
  // 8 bytes a 64-byte frame straddled two lines and its signature was stored across them.
  MempoolPtr pool(rte_pktmbuf_pool_create(name.c_str(), mbufs, kPoolCache, fast::kTxMbufPrivBytes, data_room, socket));
  if (pool != nullptr) return pool;
  const int error = rte_errno;
  constexpr double kMiB = 1024.0 * 1024.0;
  rte_mempool_objsz size{};
  const double bytes =
      double(mbufs) * rte_mempool_calc_obj_size(sizeof(rte_mbuf) + fast::kTxMbufPrivBytes + data_room, 0, &size);
  double held = 0;
  for (const StreamState& s : run.streams)
    for (const MempoolPtr& own : s.own_pools)
      held += double(own->populated_size) * (own->header_size + own->elt_size + own->trailer_size);
  const auto free_memory = heap_stats(socket);
  return make_error(
      Errc::kNoMemory,
      fmt::format("stream '{}' (stream {} of {}): TX mempool of {} mbufs ({:.1f} MiB) on {}: {}; the {} streams "
                  "before it hold {:.1f} MiB of pools{}, so this host holds at most {} streams of this profile (each "
                  "stream owns a pool of mbufs filled with its frame; fewer lanes or TX descriptors, more "
                  "hugepages, or [run] tx_buffers = \"shared\" hold more)",
                  cfg.name, index + 1, in.streams.size(), mbufs, bytes / kMiB,
                  socket == SOCKET_ID_ANY ? std::string("any socket") : fmt::format("socket {}", socket),
                  rte_strerror(error), index, held / kMiB,
                  free_memory ? fmt::format(" and {:.1f} MiB of hugepage memory is free (the largest piece {:.1f} MiB)",
                                            double(free_memory->heap_freesz_bytes) / kMiB,
                                            double(free_memory->greatest_free_size) / kMiB)
                              : std::string(),
                  index));
}

Result<void> build_streams(RunState& run, const RunInputs& in) {
  for (size_t i = 0; i < in.streams.size(); ++i) {
    const api::StreamSpec& cfg = in.streams[i];
    StreamState s;
    s.cfg = cfg;
    for (size_t p = 0; p < in.ports.size(); ++p)
      if (in.ports[p].name() == cfg.tx_port) s.tx_port = static_cast<uint16_t>(p);
    const EthdevPort& tx = in.ports[s.tx_port];
    // The port must carry the largest frame: MTU + Ethernet header + FCS (+ tag).
    uint16_t mtu = 0;
    if (rte_eth_dev_get_mtu(tx.port_id(), &mtu) == 0) {
      const uint32_t max_frame = mtu + 14u + kFcsBytes + (cfg.vlan ? 4u : 0u);
      if (cfg.frame.largest() > max_frame)
        return std::unexpected(at_key(cfg, i, "frame_size",
                                      make_error(Errc::kInvalid,
                                                 fmt::format("stream '{}' sends {}-byte frames but port '{}' has MTU {}, "
                                                             "which carries at most {}-byte frames{}; set mtu = {} on the port",
                                                             cfg.name, cfg.frame.largest(), tx.name(), mtu, max_frame,
                                                             cfg.vlan ? " with a VLAN tag" : "",
                                                             cfg.frame.largest() - 14 - kFcsBytes - (cfg.vlan ? 4 : 0)))
                                          .error()));
    }
    // MAC Control frames through the PMD, or through the port's kernel netdev where the
    // PMD drops them (or the profile says so).
    if (cfg.kind != api::StreamKind::kUdp) {
      const std::string netdev = s.tx_port < in.kernel_netdevs.size() ? in.kernel_netdevs[s.tx_port] : std::string();
      const plan::MacControlPath path = plan::mac_control_path(tx.cfg().mac_control_tx, tx.info().driver, netdev);
      if (!path.refusal.empty())
        return std::unexpected(at_key(cfg, i, "kind",
                                      make_error(Errc::kNotSupported,
                                                 fmt::format("stream '{}': port '{}' ({}) cannot send MAC Control "
                                                             "frames: {}", cfg.name, tx.name(), tx.info().driver,
                                                             path.refusal))
                                          .error()));
      if (path.through_netdev && run.netdev_senders[s.tx_port] == nullptr) {
        auto sender = NetdevMacSender::open(tx.name(), path.netdev, tx.cfg().tx_queues);
        if (!sender) return std::unexpected(at_key(cfg, i, "kind", sender.error()));
        run.netdev_senders[s.tx_port] = std::move(*sender);
      }
    }
    auto pacing = plan::stream_pacing(cfg, tx.speed_bps(), tx.name(), in.tsc_hz);
    if (!pacing) return std::unexpected(at_key(cfg, i, "rate", pacing.error()));
    s.pacing = *pacing;
    const int socket = tx.info().socket < 0 ? SOCKET_ID_ANY : tx.info().socket;
    wire::TxStreamPlan built = plan::build_stream_plan(cfg, static_cast<uint16_t>(i));
    if (tx.tx_checksum_offload()) plan::offload_checksums(built);
    s.memory = std::make_unique<NumaMemory>(socket);
    s.plan = NumaArray<wire::TxStreamPlan>::make(1, socket, wire::TxStreamPlan::allocator_type(s.memory.get()));
    try {
      if (!s.plan.ok()) throw std::bad_alloc();
      s.plan[0] = built;  // the arrays are copied into the socket's memory
    } catch (const std::bad_alloc&) {
      return make_error(Errc::kNoMemory, fmt::format("stream '{}': its plan on socket {}", cfg.name, socket));
    }
    for (uint16_t lane = 0; lane < cfg.lanes; ++lane) {
      const auto queue = static_cast<uint16_t>((i + lane) % tx.cfg().tx_queues);
      s.lanes.emplace_back(queue, in.lcore_plan.tx_lcore(s.tx_port, queue));
    }
    run.streams.push_back(std::move(s));
  }
  return {};
}

// What one of a stream's own pools holds: its mbufs and the data room of each.
struct StreamPoolSize {
  unsigned mbufs = 0;
  uint16_t data_room = 0;
  double bytes = 0;
};

// A stream's own pools: one for its largest frame, or one per size (fast::sized_frames),
// each as big: a size may take every frame in flight for a while (a random order).
std::vector<StreamPoolSize> stream_pool_sizes(const StreamState& s, const RunInputs& in) {
  const EthdevPort& tx = in.ports[s.tx_port];
  uint64_t needed = uint64_t{s.cfg.lanes} * tx.cfg().tx_descriptors + kPoolSlack + in.workers.size() * kPoolCache;
  if (const api::PortSpec* rx = s.cfg.rx_port ? in.profile.find_port(*s.cfg.rx_port) : nullptr)
    needed += uint64_t{rx->rx_queues} * rx->rx_descriptors;
  std::vector<size_t> frames{s.plan[0].template_bytes.size()};
  if (fast::sized_frames(s.plan[0])) {
    frames.clear();
    for (const wire::SizeEntry& size : s.plan[0].sizes) frames.push_back(size.data_len);
  }
  std::vector<StreamPoolSize> pools;
  for (const size_t frame : frames) {
    StreamPoolSize& size = pools.emplace_back();
    size.mbufs = pool_size(needed);
    size.data_room = static_cast<uint16_t>(RTE_PKTMBUF_HEADROOM + frame + fast::kTxTailroom);
    rte_mempool_objsz objsz{};
    size.bytes = double(size.mbufs) *
                 rte_mempool_calc_obj_size(sizeof(rte_mbuf) + fast::kTxMbufPrivBytes + size.data_room, 0, &objsz);
  }
  return pools;
}

// The hugepage memory free on the heap a pool of `socket` comes from; 0 when unknown.
double heap_free_bytes(int socket) {
  const auto stats = heap_stats(socket);
  return stats ? double(stats->heap_freesz_bytes) : 0;
}

constexpr double kMiB = 1024.0 * 1024.0;

// [run] tx_buffers = "auto": a pool per stream while they are few enough for DPDK's
// memzones and their pools take at most three quarters of the free memory (the rest is the
// lcores' state and the ports'), else shared pools. Sets run.tx_buffers and its why.
void choose_tx_buffers(RunState& run, const RunInputs& in, const std::vector<std::vector<StreamPoolSize>>& sizes) {
  double bytes = 0;
  size_t pools = 0;
  for (const std::vector<StreamPoolSize>& stream : sizes) {
    pools += stream.size();
    for (const StreamPoolSize& size : stream) bytes += size.bytes;
  }
  const double free = run.streams.empty() ? 0 : heap_free_bytes(in.ports[run.streams[0].tx_port].info().socket);
  const api::TxBuffers asked = in.profile.run.tx_buffers;
  if (asked == api::TxBuffers::kPerStream ||
      (asked == api::TxBuffers::kAuto && pools <= api::kMaxStreamPools && (free == 0 || bytes <= 0.75 * free))) {
    run.tx_buffers = api::TxBuffers::kPerStream;
    run.tx_buffers_why = fmt::format("a pool per stream{}, filled with its frame: {} streams, {:.1f} MiB",
                                     pools > run.streams.size() ? " (an IMIX stream's: a pool per size)" : "",
                                     run.streams.size(), bytes / kMiB);
    return;
  }
  run.tx_buffers = api::TxBuffers::kShared;
  run.tx_buffers_why =
      asked == api::TxBuffers::kShared ? std::string("as [run] tx_buffers asks")
      : pools > api::kMaxStreamPools && pools == run.streams.size()
          ? fmt::format("{} streams, more than the {} that get a pool each", run.streams.size(), api::kMaxStreamPools)
      : pools > api::kMaxStreamPools
          ? fmt::format(
                "{} streams would take {} pools (a pool per size of an IMIX stream), more than the {} there "
                "may be",
                run.streams.size(), pools, api::kMaxStreamPools)
          : fmt::format("a pool per stream would take {:.1f} MiB of the {:.1f} MiB free", bytes / kMiB, free / kMiB);
}

// One pool per TX port for the streams it sends: enough mbufs for its TX rings, every RX
// ring (an in-process peer holds frames there), the slack and the lcores' caches, each big
// enough for its largest frame. No frame is written in: each is copied per frame.
Result<void> build_shared_pools(RunState& run, const RunInputs& in) {
  run.shared_pools.resize(in.ports.size());
  uint64_t rx_rings = 0;
  for (const EthdevPort& p : in.ports) rx_rings += uint64_t{p.cfg().rx_queues} * p.cfg().rx_descriptors;
  for (size_t p = 0; p < in.ports.size(); ++p) {
    size_t largest = 0;
    for (const StreamState& s : run.streams)
      if (s.tx_port == p) largest = std::max(largest, s.plan[0].template_bytes.size());
    if (largest == 0) continue;
    const EthdevPort& tx = in.ports[p];
    const uint64_t needed =
        uint64_t{tx.cfg().tx_queues} * tx.cfg().tx_descriptors + rx_rings + kPoolSlack + in.workers.size() * kPoolCache;
    const auto data_room = static_cast<uint16_t>(RTE_PKTMBUF_HEADROOM + largest + fast::kTxTailroom);
    const int socket = tx.info().socket < 0 ? SOCKET_ID_ANY : tx.info().socket;
    const std::string name = fmt::format("lr_tx_p{}", p);
    run.shared_pools[p].reset(
        rte_pktmbuf_pool_create(name.c_str(), pool_size(needed), kPoolCache, 0, data_room, socket));
    if (run.shared_pools[p] == nullptr)
      return make_error(
          Errc::kNoMemory,
          fmt::format("port '{}': its streams' shared TX mempool of {} mbufs of {} bytes: {}; {:.1f} MiB of "
                      "hugepage memory is free",
                      tx.name(), pool_size(needed), data_room, rte_strerror(rte_errno),
                      heap_free_bytes(socket) / kMiB));
  }
  for (StreamState& s : run.streams) s.pool = run.shared_pools[s.tx_port].get();
  return {};
}

// Every stream's TX mbufs: its own pool filled with its frame, or its port's shared pool
// ([run] tx_buffers; choose_tx_buffers for "auto").
Result<void> build_tx_buffers(RunState& run, const RunInputs& in) {
  std::vector<std::vector<StreamPoolSize>> sizes;
  for (const StreamState& s : run.streams) sizes.push_back(stream_pool_sizes(s, in));
  choose_tx_buffers(run, in, sizes);
  if (run.tx_buffers == api::TxBuffers::kShared) return build_shared_pools(run, in);
  for (size_t i = 0; i < run.streams.size(); ++i) {
    StreamState& s = run.streams[i];
    const EthdevPort& tx = in.ports[s.tx_port];
    const int socket = tx.info().socket < 0 ? SOCKET_ID_ANY : tx.info().socket;
    for (size_t k = 0; k < sizes[i].size(); ++k) {
      auto pool = make_tx_pool(run, in, i, k, sizes[i][k].mbufs, sizes[i][k].data_room, socket);
      if (!pool) return std::unexpected(pool.error());
      s.own_pools.push_back(std::move(*pool));
    }
    s.pool = s.own_pools[0].get();
    if (s.own_pools.size() == 1) {
      PoolFill fill{s.plan.data(), std::nullopt};
      rte_mempool_obj_iter(s.pool, fill_template, &fill);
      continue;
    }
    s.sized_lanes = NumaArray<fast::SizedLane>::make(s.cfg.lanes, socket);
    if (!s.sized_lanes.ok())
      return make_error(Errc::kNoMemory, fmt::format("stream '{}': its lanes' stashes", s.cfg.name));
    for (size_t k = 0; k < s.own_pools.size(); ++k) {
      for (size_t lane = 0; lane < s.sized_lanes.size(); ++lane) s.sized_lanes[lane].pools[k] = s.own_pools[k].get();
      PoolFill fill{s.plan.data(), static_cast<uint32_t>(k)};
      rte_mempool_obj_iter(s.own_pools[k].get(), fill_template, &fill);
    }
  }
  return {};
}

// [run] timeline: bins enough for the span asked, else for the longest stream and the
// drain (a second more for a late start), else a minute.
void set_timeline_bins(RunState& run, const RunInputs& in) {
  const api::RunSpec& cfg = in.profile.run;
  if (cfg.timeline_bin_ns == 0) return;
  uint64_t span = cfg.timeline_span_ns;
  if (span == 0) {
    bool unlimited = false;
    for (const StreamState& s : run.streams) {
      if (s.cfg.duration_ns != 0) span = std::max(span, s.cfg.start_after_ns + s.cfg.duration_ns);
      else if (s.cfg.count != 0 && s.pacing.pps > 0)
        span = std::max(span, s.cfg.start_after_ns + static_cast<uint64_t>(s.cfg.count / s.pacing.pps * 1e9));
      else unlimited = true;
    }
    span = unlimited ? 60'000'000'000 : span + cfg.drain_ns + 1'000'000'000;
  }
  run.timeline_bin_ns = cfg.timeline_bin_ns;
  run.timeline_bins = static_cast<uint32_t>(
      std::min<uint64_t>((span + cfg.timeline_bin_ns - 1) / cfg.timeline_bin_ns, api::kMaxTimelineBins));
}

// The lcore's timelines in one array on its socket: each RX stream's, each lane's, each
// RX queue's (MAC Control frames), n + 1 bins apiece.
Result<void> build_timelines(LcoreState& l, const RunState& run, const RunInputs& in) {
  const uint32_t n = run.timeline_bins;
  if (n == 0) return {};
  const size_t timelines = l.streams.size() + l.lanes.size() + l.rxqs.size();
  l.timeline_bins = NumaArray<uint64_t>::make(timelines * (n + size_t{1}), l.socket);
  if (!l.timeline_bins.ok())
    return make_error(Errc::kNoMemory, fmt::format("lcore {}: {} timelines of {} bins", l.lcore_id, timelines, n + 1));
  uint64_t* next = l.timeline_bins.data();
  const auto take = [&] {
    const fast::TimelineBins t{next, n};
    next += n + size_t{1};
    return t;
  };
  for (size_t s = 0; s < l.streams.size(); ++s) {
    l.streams[s].timeline = take();
    if (l.streams[s].enabled()) l.streams[s].inspect |= fast::RxStream::kInspectTimeline;
  }
  const uint64_t q64 = fast::timeline_bins_per_tsc_q64(in.tsc_hz, run.timeline_bin_ns);
  for (size_t i = 0; i < l.lanes.size(); ++i) {
    l.lanes[i].timeline = take();
    l.lanes[i].timeline_bins_per_tsc_q64 = q64;
  }
  for (size_t i = 0; i < l.rxqs.size(); ++i) l.rxqs[i].mac_control_timeline = take();
  l.ctx[0].timeline_clock.bins_per_tsc_q64 = q64;
  return {};
}

// The (stream, lane) pairs whose TX queue `lcore_id` serves.
std::vector<std::pair<uint32_t, uint16_t>> lanes_of_lcore(const RunState& run, unsigned lcore_id) {
  std::vector<std::pair<uint32_t, uint16_t>> lanes;
  for (uint32_t s = 0; s < run.streams.size(); ++s)
    for (size_t lane = 0; lane < run.streams[s].lanes.size(); ++lane)  // at most 65,535 lanes (their ids are 16-bit)
      if (run.streams[s].lanes[lane].second == lcore_id) lanes.emplace_back(s, static_cast<uint16_t>(lane));
  return lanes;
}

// The RX queues `lcore_id` polls.
std::vector<const QueueAssignment*> rx_queues_of_lcore(const RunInputs& in, unsigned lcore_id) {
  std::vector<const QueueAssignment*> rxqs;
  for (const QueueAssignment& a : in.lcore_plan.rx)
    if (a.lcore_id == lcore_id && rx_not_polled_reason(in.ports[a.port_index], in.streams).empty()) rxqs.push_back(&a);
  return rxqs;
}

// The lcore's arrays on its socket, sized for its lanes and RX queues.
Result<void> allocate_lcore(LcoreState& l, const RunState& run, const RunInputs& in, size_t n_lanes,
                            const std::vector<const QueueAssignment*>& rxqs) {
  size_t n_reactions = 0;
  for (const QueueAssignment* a : rxqs) n_reactions += in.ports[a->port_index].cfg().pfc_honour ? 1 : 0;
  size_t n_trackers = 0;
  for (const StreamState& s : run.streams) n_trackers += s.cfg.lanes;
  l.ctx = NumaArray<fast::LcoreCtx>::make(1, l.socket);
  l.lanes = NumaArray<fast::TxLane>::make(n_lanes, l.socket);
  l.rxqs = NumaArray<fast::RxQueue>::make(rxqs.size(), l.socket);
  l.streams = NumaArray<fast::RxStream>::make(run.streams.size(), l.socket);
  if (!rxqs.empty()) l.trackers = NumaArray<fast::SeqTracker>::make(n_trackers, l.socket);
  l.pause_reactions = NumaArray<fast::PauseReaction>::make(n_reactions, l.socket);
  if (!l.ctx.ok() || !l.lanes.ok() || !l.rxqs.ok() || !l.streams.ok() || !l.trackers.ok() || !l.pause_reactions.ok())
    return make_error(Errc::kNoMemory, fmt::format("lcore {}: per-lcore state", l.lcore_id));
  return {};
}

// Lane `lane` of `stream`: where it sends, how much, and its pacing (the stream's rate
// converted once, in build_streams: plan::stream_pacing).
void plan_tx_lane(fast::TxLane& t, RunState& run, const StreamState& stream, uint16_t lane, const RunInputs& in) {
  const api::StreamSpec& cfg = stream.cfg;
  t.plan = stream.plan.data();
  t.pool = stream.pool;
  t.port_id = in.ports[stream.tx_port].port_id();
  if (cfg.kind != api::StreamKind::kUdp && run.netdev_senders[stream.tx_port] != nullptr)
    t.port_id = run.netdev_senders[stream.tx_port]->sink_port_id();  // to the kernel netdev
  t.queue_id = stream.lanes[lane].first;
  t.lane = static_cast<uint8_t>(lane);
  if (stream.sized_lanes.size() != 0) t.sized = &stream.sized_lanes[lane];
  t.fill = stream.own_pools.empty()                ? fast::TxFill::kCopied
           : stream.sized_lanes.size() != 0        ? fast::TxFill::kSized
           : fast::headers_fixed(stream.plan[0])   ? fast::TxFill::kFixed
           : fast::one_size_varied(stream.plan[0]) ? fast::TxFill::kVaried
                                                   : fast::TxFill::kWhole;
  t.cursor = fast::cursor_at(stream.plan[0], 0);
  t.lag_window_fp = cfg.catch_up ? fast::lag_window_fp(in.tsc_hz) : 0;
  // MAC Control frames are never held: a paused port still sends them.
  if (const api::PortSpec& port = in.ports[stream.tx_port].cfg(); port.pfc_honour && cfg.kind == api::StreamKind::kUdp) {
    t.pause.port = &run.port_pauses[stream.tx_port];
    t.pause.pause_class = profile::stream_priority(cfg, port).value_or(fast::kLinkPauseClass);
  }
  if (cfg.count != 0) t.remaining = cfg.count / cfg.lanes + (lane < cfg.count % cfg.lanes ? 1 : 0);
  t.duration_tsc = plan::ns_to_tsc(cfg.duration_ns, in.tsc_hz);
  t.start_after_tsc = plan::ns_to_tsc(cfg.start_after_ns, in.tsc_hz);
  if (const uint64_t interval_fp = stream.pacing.lane_interval_fp; interval_fp != 0) {
    t.pacer = fast::Pacer::paced(interval_fp, 0, fast::pacer_max_lag(interval_fp, t.lag_window_fp));
    t.requested_interval_fp.store(interval_fp, std::memory_order_relaxed);  // before launch: no race
    t.applied_interval_fp = interval_fp;
  }
  if (cfg.burst) {
    const uint32_t packets = cfg.burst->packets / cfg.lanes + (lane < cfg.burst->packets % cfg.lanes ? 1 : 0);
    const uint64_t interval = plan::ns_to_tsc(cfg.burst->interval_ns, in.tsc_hz);
    t.pacer.set_bursts(std::max<uint32_t>(packets, 1), std::max<uint64_t>(interval, 1));
  }
}

// The lcore's RX queues, and the pause reaction of each on a port that honours PFC.
void plan_rx_queues(LcoreState& l, RunState& run, const std::vector<const QueueAssignment*>& rxqs, const RunInputs& in) {
  size_t reaction = 0;
  for (size_t i = 0; i < rxqs.size(); ++i) {
    const size_t port_index = rxqs[i]->port_index;
    l.rxqs[i].port_id = in.ports[port_index].port_id();
    l.rxqs[i].queue_id = rxqs[i]->queue_id;
    const api::PortSpec& port = in.ports[port_index].cfg();
    if (!port.pfc_honour) continue;
    fast::PauseReaction& r = l.pause_reactions[reaction++];
    r.port = &run.port_pauses[port_index];
    r.quantum_tsc_q16 = fast::quantum_tsc_q16(in.ports[port_index].speed_bps(), in.tsc_hz);
    r.delay_tsc = port.pfc_reaction_delay_quanta ? (uint64_t{*port.pfc_reaction_delay_quanta} * r.quantum_tsc_q16) >> 16
                                                 : plan::ns_to_tsc(port.pfc_reaction_delay_ns, in.tsc_hz);
    l.rxqs[i].pause_reaction = &r;
  }
}

// What the lcore looks for in each stream's frames, and where its trackers start.
void plan_rx_streams(LcoreState& l, const RunState& run, const RunInputs& in) {
  size_t tracker = 0;
  for (size_t s = 0; s < run.streams.size(); ++s) {
    const api::StreamSpec& cfg = run.streams[s].cfg;
    fast::RxStream& rx = l.streams[s];
    rx.late_ns = static_cast<uint32_t>(std::min<uint64_t>(cfg.late_ns, UINT32_MAX));
    rx.latency_shift_ns = static_cast<uint32_t>(cfg.latency_shift_ns.value_or(0));  // mod 2^32, as the stamps
    // A device marks CE only on ECN-capable frames (RFC 3168 5): nothing to count otherwise.
    if (cfg.kind != api::StreamKind::kUdp) rx.inspect |= fast::RxStream::kInspectMacControl;
    else if ((cfg.ip_version == api::IpVersion::kV4 ? cfg.ipv4.ecn : cfg.ipv6.ecn) != 0)
      rx.inspect |= fast::RxStream::kInspectEcn;
    if (cfg.rx_port && l.trackers.size() != 0) {
      rx.n_lanes = static_cast<uint8_t>(cfg.lanes);  // enabled(); lanes are 1 to 64
      for (const EthdevPort& p : in.ports)
        if (p.name() == *cfg.rx_port) rx.rx_port_id = p.port_id();
    }
    rx.first_tracker = static_cast<uint32_t>(tracker);
    tracker += cfg.lanes;
  }
}

Result<void> build_lcores(RunState& run, const RunInputs& in) {
  for (const WorkerLcore& w : in.workers) {
    LcoreState& l = run.lcores.emplace_back();
    l.lcore_id = w.lcore_id;
    l.socket = w.socket;
    const std::vector<std::pair<uint32_t, uint16_t>> lanes = lanes_of_lcore(run, l.lcore_id);
    const std::vector<const QueueAssignment*> rxqs = rx_queues_of_lcore(in, l.lcore_id);
    if (auto ok = allocate_lcore(l, run, in, lanes.size(), rxqs); !ok) return ok;
    for (size_t i = 0; i < lanes.size(); ++i) {
      l.lane_refs.push_back({lanes[i].first});
      plan_tx_lane(l.lanes[i], run, run.streams[lanes[i].first], lanes[i].second, in);
    }
    plan_rx_queues(l, run, rxqs, in);
    plan_rx_streams(l, run, in);
    fast::LcoreCtx& ctx = l.ctx[0];
    // A lane PFC holds is looked at every iteration (its pause ends at a time the schedule
    // does not know), so the lcore scans them all.
    const bool paused = std::any_of(l.lanes.data(), l.lanes.data() + l.lanes.size(),
                                    [](const fast::TxLane& t) { return t.pause.port != nullptr; });
    if (l.lanes.size() > fast::kScannedLanes && !paused) {
      l.lane_schedule = NumaArray<fast::LaneDue>::make(l.lanes.size(), l.socket);
      if (!l.lane_schedule.ok())
        return make_error(Errc::kNoMemory,
                          fmt::format("lcore {}: the schedule of {} lanes", l.lcore_id, l.lanes.size()));
      ctx.lane_schedule = l.lane_schedule.data();
      ctx.max_ahead_tsc = fast::lag_window_fp(in.tsc_hz) >> fast::Pacer::kFracBits;
    }
    ctx.lcore_id = l.lcore_id;
    ctx.tx_lanes = l.lanes.data();
    ctx.n_tx_lanes = static_cast<uint32_t>(l.lanes.size());
    ctx.rx_queues = l.rxqs.data();
    ctx.n_rx_queues = static_cast<uint32_t>(l.rxqs.size());
    ctx.rx_streams = l.streams.data();
    ctx.n_streams = static_cast<uint32_t>(l.streams.size());
    ctx.rx_trackers = l.trackers.data();
    ctx.ns_per_tsc_q32 = fast::tsc_ns_multiplier(in.tsc_hz);
    if (auto ok = build_timelines(l, run, in); !ok) return ok;
  }
  return {};
}

}  // namespace

uint64_t RunState::tx_mbufs_out() const noexcept {
  uint64_t out = 0;
  for (const StreamState& s : streams)
    for (const MempoolPtr& pool : s.own_pools) out += pool->size - rte_mempool_avail_count(pool.get());
  for (const MempoolPtr& pool : shared_pools)
    if (pool != nullptr) out += pool->size - rte_mempool_avail_count(pool.get());
  return out;
}

std::string rx_not_polled_reason(const EthdevPort& port, const std::vector<api::StreamSpec>& streams) {
  if (port.info().driver != "net_null") return "";
  for (const api::StreamSpec& s : streams)
    if (s.rx_port == port.name()) return "";
  return "not polled: no stream receives here, and net_null's RX is an endless source of empty frames";
}

Result<void> build_run(RunState& run, const RunInputs& in) {
  for (size_t p = 0; p < in.ports.size(); ++p)
    if (in.ports[p].cfg().pfc_honour && in.ports[p].speed_bps() == 0)
      return make_error(Errc::kInvalid, fmt::format("port '{}': pfc_honour needs the port's speed to time pauses, and "
                                                    "the link reports none: set `speed`", in.ports[p].name()));
  run.port_pauses = NumaArray<fast::PortPause>::make(in.ports.size(), SOCKET_ID_ANY);
  if (!run.port_pauses.ok()) return make_error(Errc::kNoMemory, "the ports' pause state");
  run.netdev_senders.resize(in.ports.size());
  if (auto ok = build_streams(run, in); !ok) return ok;
  if (auto ok = build_tx_buffers(run, in); !ok) return ok;
  std::vector<plan::PortLoad> loads;
  for (const StreamState& s : run.streams) {
    if (s.cfg.receive_only) continue;  // sent by another data plane: no load on ours
    const EthdevPort& tx = in.ports[s.tx_port];
    loads.push_back({s.cfg.name, tx.name(), tx.speed_bps(), s.pacing.pps, s.cfg.frame.mean()});
  }
  auto warnings = plan::check_port_loads(loads);
  if (!warnings) return std::unexpected(warnings.error());
  run.warnings = std::move(*warnings);
  for (const StreamState& s : run.streams)
    if (std::string roce = plan::roce_port_warning(s.cfg); !roce.empty()) run.warnings.push_back(std::move(roce));
  set_timeline_bins(run, in);
  return build_lcores(run, in);
}

}  // namespace lr::dp
