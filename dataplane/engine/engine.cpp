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
#include "dataplane/plan/run_state.hpp"
#include "dataplane/plan/stream_builder.hpp"
#include "dataplane/port/ethdev_port.hpp"
#include "dataplane/port/port.hpp"
#include "dataplane/port/port_controls.hpp"
#include "dataplane/profile/load_toml.hpp"

#include <rte_pause.h>

namespace lr::dp {

using fast::counter_read;

namespace {

constexpr uint32_t kLinkWaitMs = 5000;

std::string now_iso8601() {
  const auto now = std::chrono::system_clock::now();
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", std::chrono::floor<std::chrono::seconds>(now));
}


}  // namespace


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

struct Engine::State {
  profile::Profile profile;
  std::deque<EthdevPort> ports;           ///< the profile's, in order; deque: PortControl points at them
  std::unique_ptr<KernelIo> kernel_io;      ///< until the port controls take it
  std::unique_ptr<PortControls> controls;  ///< one per port, made once the ports are up
  std::vector<WorkerLcore> workers;
  LcorePlan lcore_plan;
  RunState run;  ///< the current set of streams, built for the lcores
  std::vector<std::string> warnings;
  uint64_t tsc_hz = 0;
  uint64_t start_tsc = 0;
  bool launched = false;
  bool finished = false;
  std::chrono::steady_clock::time_point started;
  std::string started_at;

  ~State();
  Result<void> build();
  Result<void> build_ports();
  /// A new RunState for the profile's streams. Errors: as build_run.
  Result<void> build_run_state();
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
  run = RunState{};
}

Result<void> Engine::State::build_run_state() {
  run = RunState{};  // the old one first: its pools and arrays go before new ones are made
  auto ok = build_run(run, RunInputs{profile.streams, profile, ports, lcore_plan, workers, tsc_hz});
  if (!ok) run = RunState{};
  return ok;
}

void Engine::State::stop_lcores() {
  if (!launched) return;
  for (LcoreState& l : run.lcores) {
    l.ctx[0].stop_tx.store(true, std::memory_order_release);
    l.ctx[0].stop_rx.store(true, std::memory_order_release);
  }
  rte_eal_mp_wait_lcore();
  launched = false;
}

StreamState* Engine::State::find_stream(const std::string& name) {
  for (StreamState& s : run.streams)
    if (s.cfg.name == name) return &s;
  return nullptr;
}

StreamReport Engine::State::collect_stream(size_t s, Reading reading) const {
  const StreamState& stream = run.streams[s];
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
  for (const LcoreState& l : run.lcores) {
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
  for (const LcoreState& l : run.lcores) {
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
  for (const LcoreState& l : run.lcores)
    for (size_t i = 0; i < l.rxqs.size(); ++i)
      if (l.rxqs[i].port_id == p.port_id()) r.rx_no_signature += fast::counter_read(l.rxqs[i].no_signature);
  r.rx_after_drain = p.rx_after_drain();
  return r;
}

Result<void> Engine::State::build_ports() {
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
  for (size_t i = 0; i < ports.size(); ++i) {
    const profile::PortCfg& cfg = ports[i].cfg();
    const uint64_t needed = uint64_t{cfg.rx_queues} * cfg.rx_descriptors + workers.size() * (kPoolCache + fast::kRxBurst) + 1024;
    auto setup = ports[i].bring_up(fmt::format("lr_rx_p{}", i), pool_size(needed), kPoolCache, kLinkWaitMs);
    if (!setup) return std::unexpected(setup.error());
    if (!setup->warning.empty()) warnings.push_back(setup->warning);
  }
  return {};
}

Result<void> Engine::State::build() {
  tsc_hz = rte_get_tsc_hz();
  if (auto ok = build_ports(); !ok) return ok;
  controls = std::make_unique<PortControls>(ports, std::move(kernel_io));
  return build_run_state();
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
  st.profile.streams = streams;
  if (auto ok = st.build_run_state(); !ok) return ok;
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
  for (const StreamState& s : st.run.streams) {
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
  for (LcoreState& l : st.run.lcores) {
    LR_CHECK(l.ctx.size() == 1);
    l.ctx[0].start_tsc = st.start_tsc;
    for (size_t i = 0; i < l.lanes.size(); ++i) {
      fast::TxLane& lane = l.lanes[i];
      lane.start_tsc = st.start_tsc;  // before launch: no race
      // Streams left out of this run end at their first iteration, having sent nothing.
      const std::string& name = st.run.streams[l.lane_refs[i].stream].cfg.name;
      const bool selected = only_streams.empty() ||
                            std::find(only_streams.begin(), only_streams.end(), name) != only_streams.end();
      lane.stop_request.store(!selected, std::memory_order_relaxed);
    }
  }
  for (LcoreState& l : st.run.lcores) {
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
  for (const LcoreState& l : state_->run.lcores)
    for (size_t i = 0; i < l.lanes.size(); ++i)
      if (!l.lanes[i].done.load(std::memory_order_acquire)) return false;
  return true;
}

std::vector<StreamReport> Engine::live_stream_stats() const {
  const State& st = *state_;
  std::vector<StreamReport> out;
  const Reading reading = st.launched ? Reading::kLive : Reading::kFinal;
  for (size_t s = 0; s < st.run.streams.size(); ++s) out.push_back(st.collect_stream(s, reading));
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
  const auto index = static_cast<uint32_t>(stream - st.run.streams.data());
  for (LcoreState& l : st.run.lcores) {
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
  const auto index = static_cast<uint32_t>(stream - st.run.streams.data());
  for (LcoreState& l : st.run.lcores)
    for (size_t i = 0; i < l.lanes.size(); ++i)
      if (l.lane_refs[i].stream == index) l.lanes[i].stop_request.store(true, std::memory_order_relaxed);
  return {};
}

std::vector<LcoreReport> Engine::lcore_reports() const {
  const State& st = *state_;
  std::vector<LcoreReport> out;
  for (const LcoreState& l : st.run.lcores) {
    LcoreReport r{l.lcore_id, l.socket, {}, {}};
    for (size_t i = 0; i < l.lanes.size(); ++i) {
      const fast::TxLane& lane = l.lanes[i];
      r.tx_lanes.push_back({st.run.streams[l.lane_refs[i].stream].cfg.name, lane.lane, lane.port_id, lane.queue_id,
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
  size_t index = st.run.streams.size();
  for (size_t i = 0; i < st.run.streams.size(); ++i)
    if (st.run.streams[i].cfg.name == name) index = i;
  if (index == st.run.streams.size()) return make_error(Errc::kInvalid, fmt::format("no stream is named '{}'", name));
  if (!st.run.streams[index].cfg.rx_port)
    return make_error(Errc::kInvalid, fmt::format("stream '{}' is transmit-only: it has no latency here", name));
  fast::LatencyHist merged;
  for (const LcoreState& l : st.run.lcores) {
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
  for (const StreamState& s : st.run.streams) {
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
    for (const LcoreState& l : st.run.lcores) {
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
  for (LcoreState& l : state_->run.lcores) l.ctx[0].stop_tx.store(true, std::memory_order_release);
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
    for (LcoreState& l : st.run.lcores) l.ctx[0].stop_tx.store(true, std::memory_order_release);
    for (LcoreState& l : st.run.lcores) l.ctx[0].stop_rx.store(true, std::memory_order_release);
    rte_eal_mp_wait_lcore();
    st.launched = false;
  }
  st.finished = true;
  const auto wall = std::chrono::steady_clock::now() - st.started;
  report.duration_s = std::chrono::duration<double>(wall).count();
  report.started_at = st.started_at;

  // Frames still queued after the drain: freed here (so mbufs return), counted apart.
  for (EthdevPort& p : st.ports) p.drain_rx_queues(kPoolSlack, fast::kRxBurst);

  for (size_t s = 0; s < st.run.streams.size(); ++s) report.streams.push_back(st.collect_stream(s, Reading::kFinal));
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
  for (const StreamState& s : st.run.streams) report.mbufs_not_returned += s.pool->size - rte_mempool_avail_count(s.pool.get());
  return report;
}

}  // namespace lr::dp
