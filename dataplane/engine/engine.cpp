// The engine's lifecycle: the ports brought up, a run built (plan/run_state), launched,
// its rates changed, ended and reported. Reading its counters is run_stats.cpp.
#include "dataplane/engine/engine.hpp"
#include "dataplane/engine/engine_state.hpp"

#include <fmt/format.h>
#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mempool.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "lib/api/missed_target.hpp"
#include "lib/common/check.hpp"
#include "lib/common/line_rate.hpp"
#include "lib/common/utc_time.hpp"
#include "dataplane/fastpath/lcore_ctx.hpp"
#include "dataplane/fastpath/stall_report.hpp"
#include "dataplane/fastpath/worker.hpp"
#include "dataplane/plan/mac_control_path.hpp"
#include "dataplane/plan/rate.hpp"
#include "dataplane/plan/run_state.hpp"
#include "lib/frames/stream_builder.hpp"
#include "dataplane/port/cable.hpp"
#include "dataplane/port/ethdev_port.hpp"
#include "dataplane/port/port_controls.hpp"
#include "lib/profile/load_toml.hpp"

namespace lr::dp {

namespace {

constexpr uint32_t kLinkWaitMs = 5000;

// A switch that lost lossless frames while its own lcore was held up says so: the loss
// may be the emulation's (no hardware switch stops forwarding and sending PFC), not the
// test's. 100 us at 10G is 125 KB, more than most headroom.
std::string switch_stall_warning(const api::SwitchReport& sw) {
  uint64_t lossless_drops = 0;
  for (const api::SwitchPortReport& p : sw.ports)
    for (const api::SwitchPriorityReport& c : p.priorities) lossless_drops += c.drop_headroom;
  if (lossless_drops == 0 || sw.longest_stall_us < 100) return {};
  return fmt::format("switch '{}' dropped {} lossless frames past its headroom, and its lcore {} was held up {} times "
                     "(longest {:.0f} us) while neither forwarding nor sending PFC: the loss may be the emulation's; "
                     "give that lcore a CPU of its own, or more headroom",
                     sw.name, lossless_drops, sw.lcore, sw.stalls, sw.longest_stall_us);
}

// An instant a synchronised start can keep: ahead of this data plane's clock, and not so
// far that its lanes would spin for long.
Result<void> check_start_instant(int64_t at_utc_ns, const TscUtcMap& now) {
  const int64_t ahead = at_utc_ns - now.utc_ns;
  if (ahead <= 0)
    return make_error(Errc::kInvalid, fmt::format("at_utc_ns {} is {:.3f} ms past on this data plane's clock ({}): a "
                                                  "synchronised start is asked for an instant ahead of every data "
                                                  "plane's clock",
                                                  at_utc_ns, static_cast<double>(-ahead) / 1e6, now.utc_ns));
  if (ahead > Engine::kMaxStartAheadNs)
    return make_error(Errc::kInvalid, fmt::format("at_utc_ns {} is {:.1f} s ahead of this data plane's clock; at most "
                                                  "{} s (its lanes spin until then)",
                                                  at_utc_ns, static_cast<double>(ahead) / 1e9,
                                                  Engine::kMaxStartAheadNs / 1'000'000'000));
  return {};
}

// A warning for each stream that sent below the targets it had while it sent (each
// change counted from its moment); none for one that sent nothing.
void add_missed_targets(RunReport& report) {
  for (const StreamReport& r : report.streams) {
    if (r.tx_packets == 0 || r.tx_pps_achieved <= 0) continue;  // nothing sent: no rate to hold it to
    const double active_s = static_cast<double>(r.tx_packets) / r.tx_pps_achieved;
    const double target = plan::mean_target_pps(r.rate_changes, active_s);
    const double held = static_cast<double>(r.paused_ns.value_or(0)) / 1e9 / active_s;
    if (std::string missed =
            api::missed_target(r.name, target, r.tx_pps_achieved, r.tx_queue_full, held, report.lcores, active_s);
        !missed.empty())
      report.warnings.push_back(std::move(missed));
  }
}

}  // namespace

Engine::State::~State() {
  if (hosts) hosts->stop();  // sends nothing more to ports about to close
  stop_lcores();
  switches.clear();  // their queues and ports first: they hold the stream pools' mbufs
  for (EthdevPort& p : ports) p.set_in_run(false);
  if (controls) controls->restore_settings();  // a no-op for what finish or the caller put back
  controls.reset();
  for (EthdevPort& p : ports) p.close();  // before the stream pools go: TX queues hold their mbufs
  run.reset();
  hosts.reset();
}

std::string Engine::State::kernel_netdev(size_t port) const {
  const PortControl* control = controls ? controls->find(ports[port].name()) : nullptr;
  return control != nullptr ? control->netdev_name() : std::string();
}

std::vector<std::string> Engine::State::kernel_netdevs() const {
  std::vector<std::string> names;
  for (size_t p = 0; p < ports.size(); ++p) names.push_back(kernel_netdev(p));
  return names;
}

std::string Engine::State::mac_control_tx(size_t port) const {
  const EthdevPort& p = ports[port];
  return plan::mac_control_path(p.cfg().mac_control_tx, p.info().driver, kernel_netdev(port)).describe();
}

Result<void> Engine::State::build_run_state() {
  run.reset();  // the old one first: its pools and arrays go before new ones are made
  auto ok = build_run(run, RunInputs{profile.streams, profile, ports, lcore_plan, workers, tsc_hz, kernel_netdevs()});
  if (!ok) run.reset();
  attach_captures();
  return ok;
}

void Engine::State::stop_lcores() {
  if (!launched) return;
  for (LcoreState& l : run.lcores) {
    l.ctx[0].stop_tx.store(true, std::memory_order_release);
    l.ctx[0].stop_rx.store(true, std::memory_order_release);
  }
  for (auto& sw : switches) sw->request_stop();
  rte_eal_mp_wait_lcore();
  launched = false;
}

StreamState* Engine::State::find_stream(const std::string& name) {
  for (StreamState& s : run.streams)
    if (s.cfg.name == name) return &s;
  return nullptr;
}


Result<std::vector<unsigned>> Engine::State::reserve_switch_lcores() {
  std::vector<unsigned> taken;
  for (const api::SwitchSpec& sw : profile.switches) {
    auto it = sw.lcore ? std::find_if(workers.begin(), workers.end(), [&](const WorkerLcore& w) { return w.lcore_id == *sw.lcore; })
                       : (workers.empty() ? workers.end() : workers.end() - 1);
    if (sw.lcore && it == workers.end())
      return make_error(Errc::kInvalid, fmt::format("switch '{}': lcore {} is not a worker lcore of [eal] lcores = \"{}\" "
                                                    "(or another switch has it)", sw.name, *sw.lcore, profile.eal.lcores));
    // The tester needs a worker of its own only when it has ports (a switch may run alone).
    if (it == workers.end() || (workers.size() == 1 && !profile.ports.empty()))
      return make_error(Errc::kInvalid,
                        fmt::format("switch '{}' needs an lcore of its own beside the tester's: [eal] lcores = \"{}\" "
                                    "leaves none; add one, e.g. lcores = \"0@0,1@1,2@0\" (lcore 2 shares CPU 0 with "
                                    "the main lcore, which mostly sleeps)", sw.name, profile.eal.lcores));
    taken.push_back(it->lcore_id);
    workers.erase(it);
  }
  return taken;
}

Result<void> Engine::State::build_switches(const std::vector<unsigned>& lcores) {
  for (size_t i = 0; i < profile.switches.size(); ++i) {
    auto sw = SoftwareSwitch::create(profile.switches[i], lcores[i], tsc_hz, static_cast<unsigned>(i));
    if (!sw) return std::unexpected(sw.error());
    switches.push_back(std::move(*sw));
  }
  return {};
}

Result<void> Engine::State::build_ports() {
  unsigned lcore_id;
  RTE_LCORE_FOREACH_WORKER(lcore_id) {
    workers.push_back({lcore_id, static_cast<int>(rte_lcore_to_socket_id(lcore_id))});
  }
  std::vector<CableEnd> cable_ends;
  for (const api::PortSpec& cfg : profile.ports)
    if (auto cable = profile::cable_name(cfg.device)) cable_ends.push_back({cfg.name, *cable});
  for (const api::SwitchSpec& sw : profile.switches)
    for (const api::SwitchPortSpec& cfg : sw.ports)
      if (auto cable = profile::cable_name(cfg.device)) cable_ends.push_back({cfg.name, *cable});
  if (auto ok = make_cables(cable_ends); !ok) return ok;
  auto switch_lcores = reserve_switch_lcores();
  if (!switch_lcores) return std::unexpected(switch_lcores.error());
  switch_lcore_ids = std::move(*switch_lcores);
  std::vector<PortQueues> queues;
  for (const api::PortSpec& cfg : profile.ports) {
    auto info = find_port(cfg);
    if (!info) return std::unexpected(info.error());
    queues.push_back({cfg.name, info->socket, cfg.rx_queues, cfg.tx_queues, cfg.rx_lcores, cfg.tx_lcores});
    ports.emplace_back(cfg, std::move(*info));
    // The hosts' TX queue configured with the others (added later, the port would flap).
    if (std::any_of(profile.devices.begin(), profile.devices.end(),
                    [&](const api::DeviceSpec& d) { return d.first.port == cfg.name; }))
      if (auto queue = ports.back().add_host_tx_queue(); !queue) return std::unexpected(queue.error());
  }
  auto planned = plan_lcores(workers, queues, profile.eal.allow_cross_numa);
  if (!planned) return std::unexpected(planned.error());
  lcore_plan = std::move(*planned);
  warnings.insert(warnings.end(), lcore_plan.warnings.begin(), lcore_plan.warnings.end());
  return {};
}

Result<void> Engine::State::bring_up_ports() {
  for (size_t i = 0; i < ports.size(); ++i) {
    const api::PortSpec& cfg = ports[i].cfg();
    const uint64_t needed = uint64_t{cfg.rx_queues} * cfg.rx_descriptors + workers.size() * (kPoolCache + fast::kRxBurst) + 1024;
    auto setup = ports[i].bring_up(fmt::format("lr_rx_p{}", i), pool_size(needed), kPoolCache, kLinkWaitMs);
    if (!setup) return std::unexpected(setup.error());
    if (!setup->warning.empty()) warnings.push_back(setup->warning);
  }
  return {};
}

Result<void> Engine::State::build() {
  tsc_hz = tsc_hz_against_utc(rte_get_tsc_hz());
  if (auto ok = build_ports(); !ok) return ok;
  controls = std::make_unique<PortControls>(ports, std::move(kernel_io));
  controls->before_bring_up(profile);  // what the host had, to put back at exit
  const auto brought_up = bring_up_ports();
  controls->after_bring_up(profile);    // also after a failure: what did change is put back
  if (!brought_up) return brought_up;
  controls->poll_links();
  controls->mark_baselines();
  if (auto ok = build_switches(switch_lcore_ids); !ok) return ok;
  return build_run_state();
}

Result<void> Engine::set_streams(const std::vector<lr::api::StreamSpec>& streams,
                                 const std::optional<lr::api::RunSpec>& run) {
  State& st = *state_;
  if (st.launched) return make_error(Errc::kBusy, "traffic is running: stop it before changing the set of streams");
  lr::profile::Profile candidate = st.profile;
  candidate.streams = streams;
  if (run) candidate.run = *run;
  try {
    lr::profile::validate_profile(candidate);
  } catch (const lr::profile::ConfigError& error) {
    return make_error(Errc::kInvalid, error.reason());
  }
  st.profile.streams = streams;
  if (run) st.profile.run = *run;
  if (auto ok = st.build_run_state(); !ok) return ok;
  st.finished = false;
  return {};
}

const lr::profile::Profile& Engine::profile() const noexcept { return state_->profile; }

bool Engine::running() const noexcept { return state_->launched; }
uint64_t Engine::tsc_hz() const noexcept { return state_->tsc_hz; }

Engine::Engine(std::unique_ptr<State> state) : state_(std::move(state)) {}
Engine::~Engine() = default;

Result<std::unique_ptr<Engine>> Engine::create(const profile::Profile& profile, std::unique_ptr<KernelIo> kernel_io) {
  auto state = std::make_unique<State>();
  state->profile = profile;
  state->kernel_io = kernel_io ? std::move(kernel_io) : system_kernel_io();
  if (auto ok = state->build(); !ok) return std::unexpected(ok.error());  // ~State closes what was opened
  std::unique_ptr<Engine> engine(new Engine(std::move(state)));
  if (!profile.devices.empty())
    if (auto hosts = engine->set_devices(profile.devices); !hosts) return std::unexpected(hosts.error());
  return engine;
}

std::vector<std::string> Engine::warnings() const {
  std::vector<std::string> all = state_->warnings;
  all.insert(all.end(), state_->run.warnings.begin(), state_->run.warnings.end());
  return all;
}

api::RunPlan Engine::plan() const {
  const State& st = *state_;
  api::RunPlan out;
  for (size_t p = 0; p < st.ports.size(); ++p) {
    const EthdevPort& port = st.ports[p];
    api::PortPlan pp{port.port_id(), port.name(), port.cfg().device, port.info().driver, port.info().socket,
                     port.tx_checksum_offload(), port.link().up, port.speed_bps(), port.cfg().speed_bps != 0, {}, {}, {}};
    for (const QueueAssignment& a : st.lcore_plan.rx)
      if (a.port_index == p) pp.rx_queues.push_back({a.queue_id, a.lcore_id, a.cross_numa});
    for (const QueueAssignment& a : st.lcore_plan.tx)
      if (a.port_index == p) pp.tx_queues.push_back({a.queue_id, a.lcore_id, a.cross_numa});
    pp.rx_not_polled = rx_not_polled_reason(port, st.profile.streams);
    pp.mac_control_tx = st.mac_control_tx(p);
    if (st.hosts && st.hosts->has_hosts(port.name())) pp.hosts_tx_queue = port.host_tx_queue();
    out.ports.push_back(std::move(pp));
  }
  for (const StreamState& s : st.run.streams) {
    api::StreamPlan sp{s.cfg.name, s.cfg.tx_port, s.cfg.rx_port, s.cfg.frame.mean(), s.pacing.pps, s.cfg.count,
                       s.cfg.duration_ns, {}};
    sp.receive_only = s.cfg.receive_only;
    for (const auto& [queue, lcore] : s.lanes) sp.lanes.push_back({queue, lcore, false});
    if (s.cfg.roce) {
      sp.kind = "roce";
      sp.roce = plan::describe_roce(*s.cfg.roce);
    }
    if (s.cfg.kind != api::StreamKind::kUdp) {
      sp.kind = s.cfg.kind == api::StreamKind::kPfc ? "pfc" : "pause";
      sp.pause_ns = plan::pause_ns(s.cfg.mac_control.max_quanta(), st.ports[s.tx_port].speed_bps());
    }
    if (const api::PortSpec& tx = st.ports[s.tx_port].cfg(); tx.pfc_honour && s.cfg.kind == api::StreamKind::kUdp) {
      sp.pfc_honoured = true;
      if (const auto priority = profile::stream_priority(s.cfg, tx)) sp.pfc_priority = *priority;
    }
    out.streams.push_back(std::move(sp));
  }
  for (const auto& sw : state_->switches) out.switches.push_back(sw->plan());
  out.warnings = warnings();
  if (!st.run.streams.empty()) {
    out.tx_buffers = std::string(api::tx_buffers_name(st.run.tx_buffers));
    out.tx_buffers_why = st.run.tx_buffers_why;
  }
  for (const LcoreState& l : st.run.lcores)
    if (l.lane_schedule.size() != 0) out.scheduled_lcores.push_back(l.lcore_id);
  return out;
}

Result<void> Engine::start(const std::vector<std::string>& only_streams, std::optional<int64_t> at_utc_ns) {
  State& st = *state_;
  if (st.launched) return make_error(Errc::kBusy, "traffic is already running");
  st.start_map = measure_tsc_utc(st.tsc_hz);
  if (at_utc_ns)
    if (auto ok = check_start_instant(*at_utc_ns, st.start_map); !ok) return ok;
  st.start_asked_utc_ns = at_utc_ns;
  for (const std::string& name : only_streams)
    if (st.find_stream(name) == nullptr) return make_error(Errc::kInvalid, fmt::format("no stream is named '{}'", name));
  if (st.finished) {
    // A new run of the same streams: fresh counters, pools and trackers.
    if (auto ok = set_streams(st.profile.streams); !ok) return ok;
  }
  for (EthdevPort& p : st.ports)
    if (auto ok = p.set_started(true); !ok) return ok;
  // On started ports: a port stopped after the last run resolves nothing.
  if (auto ok = st.resolve_auto_streams(only_streams); !ok) return ok;
  // One baseline per port and run, kept by its port control: the port's own counters
  // and the merged view (xstats, the kernel's).
  for (EthdevPort& p : st.ports) {
    p.clear_rx_after_drain();
    p.set_in_run(true);
  }
  st.controls->mark_baselines();
  for (auto& sw : st.switches)
    if (auto ok = sw->prepare(); !ok) return ok;
  // Common start a little ahead, so every lane begins on the same TSC; or the instant asked.
  st.start_tsc = at_utc_ns ? st.start_map.tsc_at(*at_utc_ns) : rte_rdtsc() + st.tsc_hz / 100;
  for (StreamState& s : st.run.streams) s.rate_changes = {{0.0, s.pacing.pps}};
  for (LcoreState& l : st.run.lcores) {
    LR_CHECK(l.ctx.size() == 1);
    l.ctx[0].start_tsc = st.start_tsc;
    l.ctx[0].timeline_clock.start_tsc = st.start_tsc;
    l.ctx[0].stalls = fast::StallLog{};
    l.ctx[0].began_tsc.store(0, std::memory_order_relaxed);
    l.ctx[0].stalls.threshold_tsc = fast::stall_threshold_tsc(st.tsc_hz);
    for (size_t i = 0; i < l.lanes.size(); ++i) {
      fast::TxLane& lane = l.lanes[i];
      lane.start_tsc = st.start_tsc;  // before launch: no race
      // Streams left out of this run end at their first iteration, having sent nothing.
      const api::StreamSpec& cfg = st.run.streams[l.lane_refs[i].stream].cfg;
      // A stream another data plane sends is only received here: its lanes never send.
      const bool selected =
          !cfg.receive_only &&
          (only_streams.empty() || std::find(only_streams.begin(), only_streams.end(), cfg.name) != only_streams.end());
      lane.stop_request.store(!selected, std::memory_order_relaxed);
      lane.hold_request.store(false, std::memory_order_relaxed);  // each run starts released
      lane.held = false;
    }
  }
  st.hand_rx_to_workers();
  for (LcoreState& l : st.run.lcores) {
    if (!l.has_queues()) continue;  // stays parked
    if (int rc = rte_eal_remote_launch(fast::run_worker, l.ctx.data(), l.lcore_id); rc != 0) {
      st.launched = true;  // the ones already launched must be stopped
      return make_error(Errc::kBusy, fmt::format("launching lcore {}", l.lcore_id), -rc);
    }
  }
  // The switches last: a switch's lcore may share the main lcore's CPU, and runs ahead of
  // it (kSwitchNice), so the main lcore would launch the workers only when the switch let
  // it (measured: 40 ms late, the senders' first frames with them).
  for (auto& sw : st.switches) {
    if (auto ok = sw->launch(st.start_tsc); !ok) {
      st.launched = true;  // the lcores already launched must be stopped
      return ok;
    }
  }
  st.launched = true;
  st.started = std::chrono::steady_clock::now();
  st.started_at = utc_now_iso8601();
  return {};
}

bool Engine::tx_finished() const {
  for (const LcoreState& l : state_->run.lcores)
    for (size_t i = 0; i < l.lanes.size(); ++i)
      if (!l.lanes[i].done.load(std::memory_order_acquire)) return false;
  return true;
}

Result<double> Engine::set_stream_rate(const std::string& name, const api::Rate& rate) {
  State& st = *state_;
  StreamState* stream = st.find_stream(name);
  if (stream == nullptr) return make_error(Errc::kInvalid, fmt::format("no stream is named '{}'", name));
  api::StreamSpec cfg = stream->cfg;
  cfg.rate = rate;
  const EthdevPort& tx = st.ports[stream->tx_port];
  auto pacing = plan::stream_pacing(cfg, tx.speed_bps(), tx.name(), st.tsc_hz);
  if (!pacing) return std::unexpected(pacing.error());
  const auto index = static_cast<uint32_t>(stream - st.run.streams.data());
  for (LcoreState& l : st.run.lcores) {
    for (size_t i = 0; i < l.lanes.size(); ++i) {
      if (l.lane_refs[i].stream != index) continue;
      // One word, nothing else published with it: relaxed suffices.
      l.lanes[i].requested_interval_fp.store(pacing->lane_interval_fp, std::memory_order_relaxed);
    }
    l.ctx[0].lane_requests.fetch_add(1, std::memory_order_release);  // a scheduling lcore looks
  }
  stream->cfg.rate = rate;
  stream->pacing = *pacing;
  if (st.launched) {
    const uint64_t now = rte_rdtsc();  // the lanes start at start_tsc, a little after start()
    stream->rate_changes.push_back(
        {now > st.start_tsc ? static_cast<double>(now - st.start_tsc) / static_cast<double>(st.tsc_hz) : 0.0, pacing->pps});
  }
  for (lr::api::StreamSpec& s : st.profile.streams)
    if (s.name == name) s.rate = rate;  // the next run keeps it
  return pacing->pps;
}

// Sets one flag on every TX lane of the stream named `name`.
Result<void> Engine::State::signal_lanes(const std::string& name, std::atomic<bool> fast::TxLane::*flag, bool value) {
  const StreamState* stream = find_stream(name);
  if (stream == nullptr) return make_error(Errc::kInvalid, fmt::format("no stream is named '{}'", name));
  const auto index = static_cast<uint32_t>(stream - run.streams.data());
  for (LcoreState& l : run.lcores) {
    for (size_t i = 0; i < l.lanes.size(); ++i)
      if (l.lane_refs[i].stream == index) (l.lanes[i].*flag).store(value, std::memory_order_relaxed);
    l.ctx[0].lane_requests.fetch_add(1, std::memory_order_release);  // a scheduling lcore looks
  }
  return {};
}

Result<void> Engine::hold_stream(const std::string& name, bool held) {
  return state_->signal_lanes(name, &fast::TxLane::hold_request, held);
}

Result<void> Engine::stop_stream(const std::string& name) {
  return state_->signal_lanes(name, &fast::TxLane::stop_request, true);
}

Result<EthdevPort*> Engine::State::port_named(const std::string& name) {
  for (EthdevPort& p : ports)
    if (p.name() == name) return &p;
  return make_error(Errc::kInvalid, fmt::format("no port is named '{}'", name));
}

Result<EthdevPort*> Engine::port(const std::string& name) { return state_->port_named(name); }

PortControls& Engine::port_controls() noexcept { return *state_->controls; }

Result<void> Engine::set_mtu(const std::string& port, uint16_t mtu, bool keep) {
  State& st = *state_;
  auto found = st.port_named(port);
  if (!found) return std::unexpected(found.error());
  for (const StreamState& s : st.run.streams) {
    const uint32_t max_frame = mtu + 14u + kFcsBytes + (s.cfg.vlan ? 4u : 0u);
    if (s.cfg.tx_port == port && s.cfg.frame.largest() > max_frame)
      return make_error(Errc::kInvalid, fmt::format("stream '{}' sends {}-byte frames, which MTU {} cannot carry",
                                                    s.cfg.name, s.cfg.frame.largest(), mtu));
  }
  if (auto ok = st.controls->find(port)->set_mtu(mtu, keep); !ok) return ok;
  for (lr::api::PortSpec& cfg : st.profile.ports)
    if (cfg.name == port) cfg.mtu = mtu;
  return {};
}

Result<void> Engine::set_pfc_reaction_delay(const std::string& port, std::optional<uint32_t> quanta, uint64_t ns) {
  State& st = *state_;
  auto found = st.port_named(port);
  if (!found) return std::unexpected(found.error());
  if (running()) return make_error(Errc::kBusy, fmt::format("port '{}': traffic is running; change its PFC reaction "
                                                            "between runs", port));
  EthdevPort& p = **found;
  if (!p.cfg().pfc_honour)
    return make_error(Errc::kInvalid, fmt::format("port '{}' does not obey PFC itself (pfc_honour = false): it has no "
                                                  "reaction to delay", port));
  p.set_pfc_reaction_delay(quanta, ns);
  for (lr::api::PortSpec& cfg : st.profile.ports)
    if (cfg.name == port) {
      cfg.pfc_reaction_delay_quanta = quanta;
      cfg.pfc_reaction_delay_ns = ns;
    }
  return {};
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
  report.warnings = warnings();
  const bool ran = st.launched;
  if (st.launched) {
    // The lanes have stopped (stop_tx, then tx_finished): the lcores now only receive,
    // and return within one loop iteration of stop_rx.
    st.stop_lcores();
  }
  for (const auto& c : st.captures) report.captures.push_back(c->report());
  st.attach_captures();  // the ended ones go, now that no worker holds their taps
  st.finished = true;
  for (const LcoreState& l : st.run.lcores)
    if (ran && l.has_queues())  // it was launched
      report.lcores.push_back(fast::read_stalls(l.ctx[0].stalls, l.lcore_id, st.start_tsc, st.tsc_hz));
  // The switches stopped with the lcores: their counters, and the frames still queued freed.
  for (auto& sw : st.switches) {
    report.switches.push_back(sw->finish());
    if (std::string held = switch_stall_warning(report.switches.back()); !held.empty())
      report.warnings.push_back(std::move(held));
  }
  const auto wall = std::chrono::steady_clock::now() - st.started;
  report.duration_s = std::chrono::duration<double>(wall).count();
  report.started_at = st.started_at;
  if (ran) report.start = st.run_start();

  // Frames still queued after the drain: freed here (so mbufs return), counted apart.
  for (EthdevPort& p : st.ports)
    if (rx_not_polled_reason(p, st.profile.streams).empty()) p.drain_rx_queues(kPoolSlack, fast::kRxBurst);
  if (st.hosts) {
    report.neighbors = st.hosts->neighbors();
    if (after == AfterRun::kClosePorts) st.hosts->stop();  // before the ports close
  }

  for (size_t s = 0; s < st.run.streams.size(); ++s) report.streams.push_back(st.collect_stream(s, Reading::kFinal));
  add_missed_targets(report);
  for (size_t p = 0; p < st.ports.size(); ++p) report.ports.push_back(st.collect_port(p));
  for (EthdevPort& p : st.ports) p.set_in_run(false);
  // Closing the ports ends the data plane's hold on them: put back what it changed.
  if (after == AfterRun::kClosePorts) st.controls->restore_settings();
  // The ports' merged counters for this run, their link history and settings changed:
  // the last moment they can be read, before the ports stop or close.
  st.controls->fill_report(report.ports, ran ? std::optional(RunClock{st.start_tsc, st.tsc_hz}) : std::nullopt);

  if (after == AfterRun::kClosePorts) {
    // Closing a port makes its queues give back every mbuf they hold, RX included.
    for (auto& sw : st.switches) sw->close();
    for (EthdevPort& p : st.ports) {
      p.close();
      report.mbufs_not_returned += p.rx_pool()->size - rte_mempool_avail_count(p.rx_pool());
    }
  } else {
    // A service keeps its ports started between runs: stopping one drops its link, which
    // the device under test sees as a flap in every test. The stream pools (rebuilt by
    // the next run) need their mbufs back from the TX queues: the PMD frees what it has
    // sent, and only a PMD that still holds some has its ports stopped, saying so.
    for (EthdevPort& p : st.ports) p.release_sent_mbufs();
    if (const uint64_t held = st.run.tx_mbufs_out(); held != 0) {
      for (EthdevPort& p : st.ports) p.stop();
      report.warnings.push_back(fmt::format("the ports were stopped after the run to take back {} stream mbufs their "
                                            "TX queues held (their PMD does not free sent mbufs on request): each link "
                                            "went down and comes up at the next start", held));
    }
  }
  report.mbufs_not_returned += st.run.tx_mbufs_out();
  if (st.hosts) st.hosts->take_rx_back();  // the ports as the service keeps them from here
  return report;
}

}  // namespace lr::dp
