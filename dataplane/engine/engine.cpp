// Over 500 lines, for a known reason: this file still does five jobs (port bring-up,
// the run plan and its pools, lcore launch, live statistics, the end of a run). Its split
// along those seams (a port owner, a run-plan builder in plan/, the run) is open work in
// the engine-seams issue; the hot path it feeds already sits below it in wire/ and fastpath/.
#include "dataplane/engine/engine.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <bit>
#include <chrono>
#include <cstring>
#include <deque>
#include <map>
#include <thread>

#include "dataplane/common/check.hpp"
#include "dataplane/common/line_rate.hpp"
#include "dataplane/eal/lcore_plan.hpp"
#include "dataplane/eal/numa_alloc.hpp"
#include "dataplane/fastpath/counters.hpp"
#include "dataplane/fastpath/lcore_ctx.hpp"
#include "dataplane/fastpath/worker.hpp"
#include "dataplane/plan/rate.hpp"
#include "dataplane/plan/stream_builder.hpp"
#include "dataplane/port/ethdev_port.hpp"
#include "dataplane/port/port.hpp"
#include "dataplane/port/port_controls.hpp"
#include "dataplane/profile/load_toml.hpp"

#include <rte_pause.h>

namespace lr::dp {

using fast::counter_read;

namespace {

// Per-lcore mempool cache: DPDK's usual 256 keeps alloc/free off the shared ring.
constexpr unsigned kPoolCache = 256;
// Frames in flight beyond the descriptor rings (vdev rings, lcore caches, bursts).
constexpr unsigned kPoolSlack = 8192;
constexpr uint32_t kLinkWaitMs = 5000;

unsigned pool_size(uint64_t needed) {
  return static_cast<unsigned>(std::bit_ceil(needed + 1) - 1);  // rings are 2^n, one slot kept empty
}

std::string now_iso8601() {
  const auto now = std::chrono::system_clock::now();
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", std::chrono::floor<std::chrono::seconds>(now));
}

// Writes the stream's template into every mbuf once, when the pool is made: the TX
// loop then touches only the signature and the varying fields.
void fill_template(rte_mempool* /*pool*/, void* opaque, void* obj, unsigned /*index*/) {
  const auto* plan = static_cast<const wire::TxStreamPlan*>(opaque);
  auto* m = static_cast<rte_mbuf*>(obj);
  std::memcpy(static_cast<uint8_t*>(m->buf_addr) + RTE_PKTMBUF_HEADROOM, plan->template_bytes.data(),
              plan->template_bytes.size());
  *static_cast<uint16_t*>(rte_mbuf_to_priv(m)) = 0;  // no signature written yet
}

}  // namespace

struct LaneRef {
  uint32_t stream = 0;
};

// kLive: the lcores are running: a lane still sending has run until now, and `lost`
// (which then includes frames in flight) is never shown negative. kFinal: the lcores have
// returned and every count is exact.
enum class Reading : uint8_t { kLive, kFinal };

namespace {

// What one lcore counted of one stream's reception.
struct RxCounts {
  uint64_t received = 0;
  uint64_t duplicate = 0;
  uint64_t out_of_order = 0;
  uint64_t beyond_window = 0;
  uint64_t rx_bytes = 0;
  uint64_t late = 0;
  uint64_t misdelivered = 0;
};

// Reads what one lcore counted of one stream's reception: the counters under the
// lcore's seqcount, retried until no RX burst overlapped the read (bounded: a read that
// never finds a quiet moment keeps its last attempt, a burst's worth apart at most); the
// histogram buckets after it. Once the lcore has returned the count is even and still,
// so the first attempt is exact.
RxCounts read_rx(const fast::LcoreCtx& ctx, const fast::RxStream& rx, fast::LatencyHist& latency) {
  RxCounts c;
  for (int attempt = 0; attempt < 10000; ++attempt) {
    const uint64_t before = ctx.rx_seq.load(std::memory_order_acquire);
    if ((before & 1) != 0) {
      rte_pause();
      continue;
    }
    c = RxCounts{};
    for (uint16_t lane = 0; lane < rx.n_lanes; ++lane) {
      const fast::SeqTracker::Counts t = rx.lanes[lane].counts_relaxed();
      c.received += t.received;
      c.duplicate += t.duplicate;
      c.out_of_order += t.out_of_order;
      c.beyond_window += t.beyond_window;
    }
    c.rx_bytes = __atomic_load_n(&rx.rx_bytes, __ATOMIC_RELAXED);
    c.late = __atomic_load_n(&rx.late, __ATOMIC_RELAXED);
    c.misdelivered = __atomic_load_n(&rx.misdelivered, __ATOMIC_RELAXED);
    latency.load_summary_relaxed(rx.latency);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (ctx.rx_seq.load(std::memory_order_relaxed) == before) break;
  }
  latency.load_buckets_relaxed(rx.latency);
  return c;
}

}  // namespace

// One worker lcore's state for a run, on the lcore's socket; freed with the run (RAII).
struct LcoreState {
  unsigned lcore_id = 0;
  int socket = 0;
  NumaArray<fast::LcoreCtx> ctx;  ///< one
  std::vector<LaneRef> lane_refs;
  NumaArray<fast::TxLane> lanes;
  NumaArray<fast::RxQueue> rxqs;
  NumaArray<fast::RxStream> streams;
  NumaArray<fast::SeqTracker> trackers;
};

struct StreamState {
  profile::StreamCfg cfg;
  // The plan its lanes read, in memory on the TX port's socket like the lanes themselves
  // (the lcore plan keeps a port's lanes on its socket). `memory` outlives `plan`.
  std::unique_ptr<NumaMemory> memory;
  NumaArray<wire::TxStreamPlan> plan;  ///< one
  rte_mempool* pool = nullptr;
  uint16_t tx_port = 0;  ///< index into ports
  double pps = 0;        ///< 0: unpaced
  std::vector<std::pair<uint16_t, unsigned>> lanes;  ///< (tx queue, lcore) per lane
};

struct Engine::State {
  profile::Profile profile;
  std::deque<EthdevPort> ports;           ///< the profile's, in order; deque: PortControl points at them
  std::unique_ptr<KernelIo> kernel_io;      ///< until the port controls take it
  std::unique_ptr<PortControls> controls;  ///< one per port, made once the ports are up
  std::vector<StreamState> streams;
  std::vector<LcoreState> lcores;
  LcorePlan lcore_plan;
  std::vector<std::string> warnings;
  uint64_t tsc_hz = 0;
  uint64_t start_tsc = 0;
  bool launched = false;
  bool finished = false;
  std::chrono::steady_clock::time_point started;
  std::string started_at;

  ~State();
  Result<void> build();
  void free_run();
  Result<void> build_ports();
  Result<void> build_streams();
  Result<void> build_lcores();
  void stop_lcores();
  /// The port named `name`. Errors: kInvalid.
  Result<EthdevPort*> port_named(const std::string& name);
  StreamReport collect_stream(size_t s, Reading reading) const;
  PortReport collect_port(size_t p) const;
  StreamState* find_stream(const std::string& name);
};

Engine::State::~State() {
  stop_lcores();
  controls.reset();
  for (EthdevPort& p : ports) p.close();  // before the stream pools go: TX queues hold their mbufs
  free_run();
}

// Frees what one run of streams needs (stream pools, per-lcore state); the ports stay.
void Engine::State::free_run() {
  for (LcoreState& l : lcores) {
    LcoreState fresh;
    fresh.lcore_id = l.lcore_id;
    fresh.socket = l.socket;
    l = std::move(fresh);
  }
  for (StreamState& s : streams) rte_mempool_free(s.pool);
  streams.clear();
}

void Engine::State::stop_lcores() {
  if (!launched) return;
  for (LcoreState& l : lcores) {
    l.ctx[0].stop_tx.store(true, std::memory_order_release);
    l.ctx[0].stop_rx.store(true, std::memory_order_release);
  }
  rte_eal_mp_wait_lcore();
  launched = false;
}

StreamState* Engine::State::find_stream(const std::string& name) {
  for (StreamState& s : streams)
    if (s.cfg.name == name) return &s;
  return nullptr;
}

StreamReport Engine::State::collect_stream(size_t s, Reading reading) const {
  const StreamState& stream = streams[s];
  StreamReport r;
  r.name = stream.cfg.name;
  r.tx_port = stream.cfg.tx_port;
  r.rx_port = stream.cfg.rx_port;
  r.frame_bytes_mean = stream.cfg.frame.mean();
  r.target_pps = stream.pps;
  const bool live = reading == Reading::kLive;
  const uint64_t now_tsc = rte_rdtsc();
  // Receive side first: a frame counted as received was sent before, so while traffic
  // runs `lost` (tx - rx) is never negative; it includes the frames in flight.
  fast::LatencyHist latency;
  for (const LcoreState& l : lcores) {
    if (!stream.cfg.rx_port || l.streams.size() == 0 || !l.streams[s].enabled) continue;
    const fast::RxStream& rx = l.streams[s];
    fast::LatencyHist lcore_latency;
    const RxCounts c = read_rx(l.ctx[0], rx, lcore_latency);
    latency.merge(lcore_latency);
    r.rx_packets += c.received;
    r.duplicate += c.duplicate;
    r.out_of_order += c.out_of_order;
    r.beyond_window += c.beyond_window;
    r.rx_bytes += c.rx_bytes;
    r.late += c.late;
    r.misdelivered += c.misdelivered;
  }
  std::atomic_thread_fence(std::memory_order_acquire);
  for (const LcoreState& l : lcores) {
    for (size_t i = 0; i < l.lanes.size(); ++i) {
      if (l.lane_refs[i].stream != s) continue;
      const fast::TxLane& lane = l.lanes[i];
      const uint64_t tx_packets = fast::counter_read(lane.tx_packets);
      r.tx_packets += tx_packets;
      r.tx_bytes += fast::counter_read(lane.tx_bytes);
      r.tx_queue_full += fast::counter_read(lane.queue_full);
      // A lane still sending has run until now.
      const bool done = lane.done.load(std::memory_order_acquire);
      const uint64_t stop_tsc = done ? __atomic_load_n(&lane.stop_tsc, __ATOMIC_RELAXED) : (live ? now_tsc : 0);
      if (stop_tsc > lane.start_tsc && lane.start_tsc != 0)
        r.tx_pps_achieved += static_cast<double>(tx_packets) * static_cast<double>(tsc_hz) /
                             static_cast<double>(stop_tsc - lane.start_tsc);
    }
  }
  r.tx_l1_bps_achieved = api::l1_bps_of(r.tx_pps_achieved, r.tx_bytes, r.tx_packets);
  if (stream.cfg.rx_port) {
    r.lost = api::lost_frames(r.tx_packets, r.rx_packets, r.duplicate);
    // Live, a frame can be received before its TX lane has counted its burst.
    if (live && r.lost < 0) r.lost = 0;
    r.latency = LatencySummary{latency.count(),          latency.min(),           latency.mean(),
                               latency.percentile(0.50), latency.percentile(0.90), latency.percentile(0.99),
                               latency.percentile(0.999), latency.percentile(0.9999), latency.max(),
                               latency.jitter()};
  }
  return r;
}

PortReport Engine::State::collect_port(size_t index) const {
  const EthdevPort& p = ports[index];
  PortReport r;
  r.name = p.name();
  r.device = p.cfg().device;
  r.driver = p.info().driver;
  r.port_id = p.port_id();
  r.socket = p.info().socket;
  r.link_up = p.link().up;
  r.link_speed_bps = uint64_t{p.link().speed_mbps} * 1'000'000;
  if (auto counters = p.counters_this_run()) r.counters = *counters;
  for (const LcoreState& l : lcores)
    for (size_t i = 0; i < l.rxqs.size(); ++i)
      if (l.rxqs[i].port_id == p.port_id()) r.rx_no_signature += fast::counter_read(l.rxqs[i].no_signature);
  r.rx_after_drain = p.rx_after_drain();
  return r;
}

Result<void> Engine::State::build_ports() {
  std::vector<WorkerLcore> workers;
  unsigned lcore_id;
  RTE_LCORE_FOREACH_WORKER(lcore_id) {
    workers.push_back({lcore_id, static_cast<int>(rte_lcore_to_socket_id(lcore_id))});
  }
  std::vector<PortQueues> queues;
  for (const profile::PortCfg& cfg : profile.ports) {
    auto info = find_port(cfg);
    if (!info) return std::unexpected(info.error());
    queues.push_back({cfg.name, info->socket, cfg.rx_queues, cfg.tx_queues, cfg.rx_lcores, cfg.tx_lcores});
    ports.emplace_back(cfg, std::move(*info));
  }
  auto planned = plan_lcores(workers, queues, profile.eal.allow_cross_numa);
  if (!planned) return std::unexpected(planned.error());
  lcore_plan = std::move(*planned);
  warnings.insert(warnings.end(), lcore_plan.warnings.begin(), lcore_plan.warnings.end());
  for (const WorkerLcore& w : workers) {
    LcoreState l;
    l.lcore_id = w.lcore_id;
    l.socket = w.socket;
    lcores.push_back(std::move(l));
  }

  for (size_t i = 0; i < ports.size(); ++i) {
    const profile::PortCfg& cfg = ports[i].cfg();
    const uint64_t needed = uint64_t{cfg.rx_queues} * cfg.rx_descriptors + lcores.size() * (kPoolCache + fast::kRxBurst) + 1024;
    auto setup = ports[i].bring_up(fmt::format("lr_rx_p{}", i), pool_size(needed), kPoolCache, kLinkWaitMs);
    if (!setup) return std::unexpected(setup.error());
    if (!setup->warning.empty()) warnings.push_back(setup->warning);
  }
  return {};
}

Result<void> Engine::State::build_streams() {
  for (size_t i = 0; i < profile.streams.size(); ++i) {
    const profile::StreamCfg& cfg = profile.streams[i];
    StreamState s;
    s.cfg = cfg;
    for (size_t p = 0; p < ports.size(); ++p)
      if (ports[p].name() == cfg.tx_port) s.tx_port = static_cast<uint16_t>(p);
    const EthdevPort& tx = ports[s.tx_port];
    // The port must carry the largest frame: MTU + Ethernet header + FCS (+ tag).
    uint16_t mtu = 0;
    if (rte_eth_dev_get_mtu(tx.port_id(), &mtu) == 0) {
      const uint32_t max_frame = mtu + 14u + kFcsBytes + (cfg.vlan ? 4u : 0u);
      if (cfg.frame.largest() > max_frame)
        return make_error(Errc::kInvalid,
                          fmt::format("stream '{}' sends {}-byte frames but port '{}' has MTU {}, which carries at most "
                                      "{}-byte frames{}; set mtu = {} on the port",
                                      cfg.name, cfg.frame.largest(), tx.name(), mtu, max_frame,
                                      cfg.vlan ? " with a VLAN tag" : "",
                                      cfg.frame.largest() - 14 - kFcsBytes - (cfg.vlan ? 4 : 0)));
    }
    auto pps = plan::stream_pps(cfg, tx.speed_bps(), tx.name());
    if (!pps) return std::unexpected(pps.error());
    s.pps = *pps;
    const int socket = tx.info().socket < 0 ? SOCKET_ID_ANY : tx.info().socket;
    wire::TxStreamPlan built = plan::build_stream_plan(cfg, static_cast<uint16_t>(i));
    if (tx.tx_checksum_offload()) {
      wire::TxStreamPlan& p = built;
      p.hw_checksum = true;
      p.ol_flags = RTE_MBUF_F_TX_UDP_CKSUM | (p.ipv6 ? RTE_MBUF_F_TX_IPV6 : RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM);
      p.tx_offload = rte_mbuf_tx_offload(p.l3_offset, p.l4_offset - p.l3_offset, 8, 0, 0, 0, 0);
    }
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
      s.lanes.emplace_back(queue, lcore_plan.tx_lcore(s.tx_port, queue));
    }
    uint64_t needed = uint64_t{cfg.lanes} * tx.cfg().tx_descriptors + kPoolSlack + lcores.size() * kPoolCache;
    if (const profile::PortCfg* rx = cfg.rx_port ? profile.find_port(*cfg.rx_port) : nullptr)
      needed += uint64_t{rx->rx_queues} * rx->rx_descriptors;
    const auto data_room = static_cast<uint16_t>(RTE_PKTMBUF_HEADROOM + built.template_bytes.size());
    const std::string name = fmt::format("lr_tx_s{}", i);
    // 8 bytes of private area per mbuf: where its last signature was (see write_frame).
    s.pool = rte_pktmbuf_pool_create(name.c_str(), pool_size(needed), kPoolCache, 8, data_room, socket);
    if (s.pool == nullptr)
      return make_error(Errc::kNoMemory, fmt::format("stream '{}': TX mempool of {} mbufs", cfg.name, pool_size(needed)),
                        rte_errno);
    rte_mempool_obj_iter(s.pool, fill_template, s.plan.data());
    streams.push_back(std::move(s));
  }
  return {};
}

Result<void> Engine::State::build_lcores() {
  for (LcoreState& l : lcores) {
    const unsigned lcore_id = l.lcore_id;
    // Lanes of this lcore.
    std::vector<std::pair<uint32_t, uint16_t>> lanes;  // (stream, lane)
    for (uint32_t s = 0; s < streams.size(); ++s)
      for (uint16_t lane = 0; lane < streams[s].lanes.size(); ++lane)
        if (streams[s].lanes[lane].second == lcore_id) lanes.emplace_back(s, lane);
    std::vector<const QueueAssignment*> rxqs;
    for (const QueueAssignment& a : lcore_plan.rx)
      if (a.lcore_id == lcore_id) rxqs.push_back(&a);

    size_t n_trackers = 0;
    for (const StreamState& s : streams) n_trackers += s.cfg.lanes;
    l.ctx = NumaArray<fast::LcoreCtx>::make(1, l.socket);
    l.lanes = NumaArray<fast::TxLane>::make(lanes.size(), l.socket);
    l.rxqs = NumaArray<fast::RxQueue>::make(rxqs.size(), l.socket);
    l.streams = NumaArray<fast::RxStream>::make(streams.size(), l.socket);
    if (!rxqs.empty()) l.trackers = NumaArray<fast::SeqTracker>::make(n_trackers, l.socket);
    if (!l.ctx.ok() || !l.lanes.ok() || !l.rxqs.ok() || !l.streams.ok() || !l.trackers.ok())
      return make_error(Errc::kNoMemory, fmt::format("lcore {}: per-lcore state", lcore_id));

    for (size_t i = 0; i < lanes.size(); ++i) {
      const auto [s, lane] = lanes[i];
      const StreamState& stream = streams[s];
      const profile::StreamCfg& cfg = stream.cfg;
      fast::TxLane& t = l.lanes[i];
      l.lane_refs.push_back({s});
      t.plan = stream.plan.data();
      t.pool = stream.pool;
      t.port_id = ports[stream.tx_port].port_id();
      t.queue_id = stream.lanes[lane].first;
      t.lane = static_cast<uint8_t>(lane);
      t.cursor = fast::cursor_at(stream.plan[0], 0);
      t.lag_window_fp = fast::lag_window_fp(tsc_hz);
      if (cfg.count != 0) t.remaining = cfg.count / cfg.lanes + (lane < cfg.count % cfg.lanes ? 1 : 0);
      t.duration_tsc = static_cast<uint64_t>(static_cast<double>(cfg.duration_ns) * static_cast<double>(tsc_hz) / 1e9);
      if (stream.pps > 0) {
        const uint64_t interval_fp = fast::pacer_interval_fp(stream.pps / cfg.lanes, tsc_hz);
        t.pacer = fast::Pacer::paced(interval_fp, 0, fast::pacer_max_lag(interval_fp, t.lag_window_fp));
        t.requested_interval_fp.store(interval_fp, std::memory_order_relaxed);  // before launch: no race
        t.applied_interval_fp = interval_fp;
      }
      if (cfg.burst) {
        const uint32_t packets = cfg.burst->packets / cfg.lanes + (lane < cfg.burst->packets % cfg.lanes ? 1 : 0);
        const auto interval = static_cast<uint64_t>(static_cast<double>(cfg.burst->interval_ns) * static_cast<double>(tsc_hz) / 1e9);
        t.pacer.set_bursts(std::max<uint32_t>(packets, 1), std::max<uint64_t>(interval, 1));
      }
    }
    for (size_t i = 0; i < rxqs.size(); ++i) {
      l.rxqs[i].port_id = ports[rxqs[i]->port_index].port_id();
      l.rxqs[i].queue_id = rxqs[i]->queue_id;
    }
    size_t tracker = 0;
    for (size_t s = 0; s < streams.size(); ++s) {
      const profile::StreamCfg& cfg = streams[s].cfg;
      fast::RxStream& rx = l.streams[s];
      rx.n_lanes = cfg.lanes;
      rx.late_ns = static_cast<uint32_t>(std::min<uint64_t>(cfg.late_ns, UINT32_MAX));
      if (cfg.rx_port && l.trackers.size() != 0) {
        rx.enabled = true;
        for (const EthdevPort& p : ports)
          if (p.name() == *cfg.rx_port) rx.rx_port_id = p.port_id();
        rx.lanes = l.trackers.data() + tracker;
      }
      tracker += cfg.lanes;
    }
    fast::LcoreCtx& ctx = l.ctx[0];
    ctx.lcore_id = lcore_id;
    ctx.tx_lanes = l.lanes.data();
    ctx.n_tx_lanes = static_cast<uint32_t>(l.lanes.size());
    ctx.rx_queues = l.rxqs.data();
    ctx.n_rx_queues = static_cast<uint32_t>(l.rxqs.size());
    ctx.rx_streams = l.streams.data();
    ctx.n_streams = static_cast<uint32_t>(l.streams.size());
    ctx.ns_per_tsc_q32 = fast::tsc_ns_multiplier(tsc_hz);
  }
  return {};
}

Result<void> Engine::State::build() {
  tsc_hz = rte_get_tsc_hz();
  if (auto ok = build_ports(); !ok) return ok;
  controls = std::make_unique<PortControls>(ports, std::move(kernel_io));
  if (auto ok = build_streams(); !ok) return ok;
  return build_lcores();
}

Result<void> Engine::set_streams(const std::vector<lr::profile::StreamCfg>& streams) {
  State& st = *state_;
  if (st.launched) return make_error(Errc::kBusy, "traffic is running: stop it before changing the set of streams");
  lr::profile::Profile candidate = st.profile;
  candidate.streams = streams;
  try {
    lr::profile::validate_profile(candidate);
  } catch (const lr::profile::ConfigError& error) {
    return make_error(Errc::kInvalid, error.reason());
  }
  st.free_run();
  st.profile.streams = streams;
  if (auto ok = st.build_streams(); !ok) {
    st.free_run();
    return ok;
  }
  if (auto ok = st.build_lcores(); !ok) {
    st.free_run();
    return ok;
  }
  st.finished = false;
  return {};
}

const lr::profile::Profile& Engine::profile() const noexcept { return state_->profile; }

bool Engine::running() const noexcept { return state_->launched; }

Engine::Engine(std::unique_ptr<State> state) : state_(std::move(state)) {}
Engine::~Engine() = default;

Result<std::unique_ptr<Engine>> Engine::create(const profile::Profile& profile, std::unique_ptr<KernelIo> kernel_io) {
  auto state = std::make_unique<State>();
  state->profile = profile;
  state->kernel_io = kernel_io ? std::move(kernel_io) : system_kernel_io();
  if (auto ok = state->build(); !ok) return std::unexpected(ok.error());  // ~State closes what was opened
  return std::unique_ptr<Engine>(new Engine(std::move(state)));
}

const std::vector<std::string>& Engine::warnings() const noexcept { return state_->warnings; }

api::RunPlan Engine::plan() const {
  const State& st = *state_;
  api::RunPlan out;
  for (size_t p = 0; p < st.ports.size(); ++p) {
    const EthdevPort& port = st.ports[p];
    api::PortPlan pp{port.port_id(), port.name(), port.cfg().device, port.info().driver, port.info().socket,
                     port.tx_checksum_offload(), port.link().up, port.speed_bps(), port.cfg().speed_bps != 0, {}, {}};
    for (const QueueAssignment& a : st.lcore_plan.rx)
      if (a.port_index == p) pp.rx_queues.push_back({a.queue_id, a.lcore_id, a.cross_numa});
    for (const QueueAssignment& a : st.lcore_plan.tx)
      if (a.port_index == p) pp.tx_queues.push_back({a.queue_id, a.lcore_id, a.cross_numa});
    out.ports.push_back(std::move(pp));
  }
  for (const StreamState& s : st.streams) {
    api::StreamPlan sp{s.cfg.name, s.cfg.tx_port, s.cfg.rx_port, s.cfg.frame.mean(), s.pps, s.cfg.count,
                       s.cfg.duration_ns, {}};
    for (const auto& [queue, lcore] : s.lanes) sp.lanes.push_back({queue, lcore, false});
    out.streams.push_back(std::move(sp));
  }
  return out;
}

Result<void> Engine::start(const std::vector<std::string>& only_streams) {
  State& st = *state_;
  if (st.launched) return make_error(Errc::kBusy, "traffic is already running");
  for (const std::string& name : only_streams)
    if (st.find_stream(name) == nullptr) return make_error(Errc::kInvalid, fmt::format("no stream is named '{}'", name));
  if (st.finished) {
    // A new run of the same streams: fresh counters, pools and trackers.
    if (auto ok = set_streams(st.profile.streams); !ok) return ok;
  }
  for (EthdevPort& p : st.ports)
    if (auto ok = p.set_started(true); !ok) return ok;
  // One baseline per port and run, taken at one moment: the port's own counters and
  // the merged view (xstats, the kernel's) that port control reports.
  for (EthdevPort& p : st.ports) {
    p.mark_baseline();
    p.set_in_run(true);
  }
  st.controls->mark_baselines();
  // Common start a little ahead, so every lane begins on the same TSC.
  st.start_tsc = rte_rdtsc() + st.tsc_hz / 100;
  for (LcoreState& l : st.lcores) {
    LR_CHECK(l.ctx.size() == 1);
    l.ctx[0].start_tsc = st.start_tsc;
    for (size_t i = 0; i < l.lanes.size(); ++i) {
      fast::TxLane& lane = l.lanes[i];
      lane.start_tsc = st.start_tsc;  // before launch: no race
      // Streams left out of this run end at their first iteration, having sent nothing.
      const std::string& name = st.streams[l.lane_refs[i].stream].cfg.name;
      const bool selected = only_streams.empty() ||
                            std::find(only_streams.begin(), only_streams.end(), name) != only_streams.end();
      lane.stop_request.store(!selected, std::memory_order_relaxed);
    }
  }
  for (LcoreState& l : st.lcores) {
    // An lcore with no queue stays parked: on a machine with fewer CPUs than lcores
    // it would only steal time from the busy ones.
    if (l.lanes.size() == 0 && l.rxqs.size() == 0) continue;
    if (int rc = rte_eal_remote_launch(fast::run_worker, l.ctx.data(), l.lcore_id); rc != 0) {
      st.launched = true;  // the ones already launched must be stopped
      return make_error(Errc::kBusy, fmt::format("launching lcore {}", l.lcore_id), -rc);
    }
  }
  st.launched = true;
  st.started = std::chrono::steady_clock::now();
  st.started_at = now_iso8601();
  return {};
}

bool Engine::tx_finished() const {
  for (const LcoreState& l : state_->lcores)
    for (size_t i = 0; i < l.lanes.size(); ++i)
      if (!l.lanes[i].done.load(std::memory_order_acquire)) return false;
  return true;
}

std::vector<StreamReport> Engine::live_stream_stats() const {
  const State& st = *state_;
  std::vector<StreamReport> out;
  const Reading reading = st.launched ? Reading::kLive : Reading::kFinal;
  for (size_t s = 0; s < st.streams.size(); ++s) out.push_back(st.collect_stream(s, reading));
  return out;
}

Result<double> Engine::set_stream_rate(const std::string& name, const profile::Rate& rate) {
  State& st = *state_;
  StreamState* stream = st.find_stream(name);
  if (stream == nullptr) return make_error(Errc::kInvalid, fmt::format("no stream is named '{}'", name));
  profile::StreamCfg cfg = stream->cfg;
  cfg.rate = rate;
  const EthdevPort& tx = st.ports[stream->tx_port];
  auto pps = plan::stream_pps(cfg, tx.speed_bps(), tx.name());
  if (!pps) return std::unexpected(pps.error());
  const uint64_t interval_fp = *pps > 0 ? fast::pacer_interval_fp(*pps / cfg.lanes, st.tsc_hz) : 0;
  const auto index = static_cast<uint32_t>(stream - st.streams.data());
  for (LcoreState& l : st.lcores) {
    for (size_t i = 0; i < l.lanes.size(); ++i) {
      if (l.lane_refs[i].stream != index) continue;
      // One word, nothing else published with it: relaxed suffices.
      l.lanes[i].requested_interval_fp.store(interval_fp, std::memory_order_relaxed);
    }
  }
  stream->cfg.rate = rate;
  stream->pps = *pps;
  for (lr::profile::StreamCfg& s : st.profile.streams)
    if (s.name == name) s.rate = rate;  // the next run keeps it
  return *pps;
}

Result<void> Engine::stop_stream(const std::string& name) {
  State& st = *state_;
  const StreamState* stream = st.find_stream(name);
  if (stream == nullptr) return make_error(Errc::kInvalid, fmt::format("no stream is named '{}'", name));
  const auto index = static_cast<uint32_t>(stream - st.streams.data());
  for (LcoreState& l : st.lcores)
    for (size_t i = 0; i < l.lanes.size(); ++i)
      if (l.lane_refs[i].stream == index) l.lanes[i].stop_request.store(true, std::memory_order_relaxed);
  return {};
}

std::vector<LcoreReport> Engine::lcore_reports() const {
  const State& st = *state_;
  std::vector<LcoreReport> out;
  for (const LcoreState& l : st.lcores) {
    LcoreReport r{l.lcore_id, l.socket, {}, {}};
    for (size_t i = 0; i < l.lanes.size(); ++i) {
      const fast::TxLane& lane = l.lanes[i];
      r.tx_lanes.push_back({st.streams[l.lane_refs[i].stream].cfg.name, lane.lane, lane.port_id, lane.queue_id,
                            fast::counter_read(lane.tx_packets), fast::counter_read(lane.queue_full),
                            fast::counter_read(lane.alloc_failures), lane.done.load(std::memory_order_acquire)});
    }
    for (size_t i = 0; i < l.rxqs.size(); ++i) {
      const fast::RxQueue& q = l.rxqs[i];
      r.rx_queues.push_back({q.port_id, q.queue_id, fast::counter_read(q.rx_packets), fast::counter_read(q.rx_bytes),
                             fast::counter_read(q.no_signature)});
    }
    out.push_back(std::move(r));
  }
  return out;
}

Result<LatencyHistogram> Engine::latency_histogram(const std::string& name) const {
  const State& st = *state_;
  size_t index = st.streams.size();
  for (size_t i = 0; i < st.streams.size(); ++i)
    if (st.streams[i].cfg.name == name) index = i;
  if (index == st.streams.size()) return make_error(Errc::kInvalid, fmt::format("no stream is named '{}'", name));
  if (!st.streams[index].cfg.rx_port)
    return make_error(Errc::kInvalid, fmt::format("stream '{}' is transmit-only: it has no latency here", name));
  fast::LatencyHist merged;
  for (const LcoreState& l : st.lcores) {
    if (l.streams.size() == 0 || !l.streams[index].enabled) continue;
    fast::LatencyHist copy;
    read_rx(l.ctx[0], l.streams[index], copy);
    merged.merge(copy);
  }
  LatencyHistogram h{name, merged.count(), {}};
  for (uint32_t b = 0; b < fast::LatencyHist::kBuckets; ++b) {
    const uint64_t count = merged.buckets()[b];
    if (count != 0) h.buckets.push_back({fast::LatencyHist::bucket_low(b), fast::LatencyHist::bucket_high(b), count});
  }
  return h;
}

Result<EthdevPort*> Engine::State::port_named(const std::string& name) {
  for (EthdevPort& p : ports)
    if (p.name() == name) return &p;
  return make_error(Errc::kInvalid, fmt::format("no port is named '{}'", name));
}

Result<EthdevPort*> Engine::port(const std::string& name) { return state_->port_named(name); }

PortControls& Engine::port_controls() noexcept { return *state_->controls; }

Result<void> Engine::set_mtu(const std::string& port, uint16_t mtu) {
  State& st = *state_;
  auto found = st.port_named(port);
  if (!found) return std::unexpected(found.error());
  for (const StreamState& s : st.streams) {
    const uint32_t max_frame = mtu + 14u + kFcsBytes + (s.cfg.vlan ? 4u : 0u);
    if (s.cfg.tx_port == port && s.cfg.frame.largest() > max_frame)
      return make_error(Errc::kInvalid, fmt::format("stream '{}' sends {}-byte frames, which MTU {} cannot carry",
                                                    s.cfg.name, s.cfg.frame.largest(), mtu));
  }
  if (auto ok = (*found)->set_mtu(mtu); !ok) return ok;
  for (lr::profile::PortCfg& cfg : st.profile.ports)
    if (cfg.name == port) cfg.mtu = mtu;
  return {};
}

std::vector<PortReport> Engine::port_reports() const {
  std::vector<PortReport> out;
  for (size_t p = 0; p < state_->ports.size(); ++p) out.push_back(state_->collect_port(p));
  return out;
}

std::vector<PortTraffic> Engine::live_counters() const {
  const State& st = *state_;
  std::vector<PortTraffic> out;
  for (const EthdevPort& p : st.ports) {
    PortTraffic c;
    c.name = p.name();
    for (const LcoreState& l : st.lcores) {
      for (size_t i = 0; i < l.lanes.size(); ++i) {
        if (l.lanes[i].port_id != p.port_id()) continue;
        c.tx_packets += counter_read(l.lanes[i].tx_packets);
        c.tx_bytes += counter_read(l.lanes[i].tx_bytes);
      }
      for (size_t i = 0; i < l.rxqs.size(); ++i) {
        if (l.rxqs[i].port_id != p.port_id()) continue;
        c.rx_packets += counter_read(l.rxqs[i].rx_packets);
        c.rx_bytes += counter_read(l.rxqs[i].rx_bytes);
      }
    }
    out.push_back(std::move(c));
  }
  return out;
}

void Engine::stop_tx() {
  if (!state_->launched) return;
  for (LcoreState& l : state_->lcores) l.ctx[0].stop_tx.store(true, std::memory_order_release);
}

std::chrono::nanoseconds Engine::drain_interval() const noexcept {
  return std::chrono::nanoseconds(state_->profile.run.drain_ns);
}

RunReport Engine::finish(bool interrupted, AfterRun after) {
  if (state_->launched) {
    stop_tx();
    // Every lane answers within one loop iteration.
    while (!tx_finished()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(drain_interval());
  }
  return finish_drained(interrupted, after);
}

RunReport Engine::finish_drained(bool interrupted, AfterRun after) {
  State& st = *state_;
  RunReport report;
  report.profile_path = st.profile.path;
  report.interrupted = interrupted;
  report.warnings = st.warnings;
  if (st.launched) {
    // The lanes have stopped (stop_tx, then tx_finished): the lcores now only receive,
    // and return within one loop iteration of stop_rx.
    for (LcoreState& l : st.lcores) l.ctx[0].stop_tx.store(true, std::memory_order_release);
    for (LcoreState& l : st.lcores) l.ctx[0].stop_rx.store(true, std::memory_order_release);
    rte_eal_mp_wait_lcore();
    st.launched = false;
  }
  st.finished = true;
  const auto wall = std::chrono::steady_clock::now() - st.started;
  report.duration_s = std::chrono::duration<double>(wall).count();
  report.started_at = st.started_at;

  // Frames still queued after the drain: freed here (so mbufs return), counted apart.
  for (EthdevPort& p : st.ports) p.drain_rx_queues(kPoolSlack, fast::kRxBurst);

  for (size_t s = 0; s < st.streams.size(); ++s) report.streams.push_back(st.collect_stream(s, Reading::kFinal));
  for (size_t p = 0; p < st.ports.size(); ++p) report.ports.push_back(st.collect_port(p));
  // The ports' merged counters for this run and their link history: the last moment
  // they can be read, before the ports stop or close.
  st.controls->fill_report(report.ports);

  // Stopping a port makes its TX queues give back the stream mbufs they hold; closing
  // it also releases the RX queues' mbufs (some PMDs keep them while stopped).
  for (EthdevPort& p : st.ports) {
    p.set_in_run(false);
    if (after == AfterRun::kClosePorts) {
      p.close();
      report.mbufs_not_returned += p.rx_pool()->size - rte_mempool_avail_count(p.rx_pool());
    } else {
      p.stop();
    }
  }
  for (const StreamState& s : st.streams) report.mbufs_not_returned += s.pool->size - rte_mempool_avail_count(s.pool);
  return report;
}

}  // namespace lr::dp
