#include "dataplane/switch/software_switch.hpp"

#include <fmt/format.h>
#include <rte_errno.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_mbuf.h>

#include <algorithm>

#include "dataplane/fastpath/stall_report.hpp"
#include "dataplane/port/port.hpp"

namespace lr::dp {

namespace {

constexpr uint32_t kSwitchLinkWaitMs = 1000;
constexpr unsigned kPfcPoolSize = 511;
constexpr unsigned kCopyPoolSize = 8191;
constexpr unsigned kPoolCache = 32;
// The switch's lcore before other threads on its CPU (the main lcore, EAL's control
// threads, the rest of the host): a device under test that pauses is a broken one.
constexpr int kSwitchNice = -15;

// The mbufs a port's loop still holds outside the model: not yet sent, or not yet arrived.
void release_held(sw::SwitchPortIo& io) {
  for (uint16_t k = 0; k < io.n_out; ++k) rte_pktmbuf_free(io.out[k]);
  io.n_out = io.n_fresh = 0;
  for (uint32_t k = io.next_staged; k < io.n_staged; ++k) rte_pktmbuf_free(io.staged[k]);
  io.n_staged = io.next_staged = 0;
}

// Signed: on a VM the switch's CPU may read the TSC tens of us behind the sender's, and a
// frame sent at the start then arrives "before" it. Clamped to 0, such a time would move
// every interval measured from it (the watchdog's detection looked 51 us early).
double tsc_to_s(uint64_t tsc, uint64_t start, uint64_t hz) {
  return tsc == 0 ? -1 : static_cast<double>(static_cast<int64_t>(tsc - start)) / static_cast<double>(hz);
}

}  // namespace

Result<std::unique_ptr<SoftwareSwitch>> SoftwareSwitch::create(const api::SwitchSpec& cfg, unsigned lcore,
                                                                uint64_t tsc_hz, unsigned index) {
  std::unique_ptr<SoftwareSwitch> sw(new SoftwareSwitch(cfg, lcore, tsc_hz));
  if (auto ok = sw->bring_up(index); !ok) return std::unexpected(ok.error());
  return sw;
}

SoftwareSwitch::~SoftwareSwitch() {
  close();
  rte_mempool_free(pfc_pool_);
  rte_mempool_free(copy_pool_);
}

Result<void> SoftwareSwitch::bring_up(unsigned index) {
  for (size_t i = 0; i < cfg_.ports.size(); ++i) {
    const api::SwitchPortSpec& sp = cfg_.ports[i];
    api::PortSpec pc;
    pc.name = sp.name;
    pc.device = sp.device;
    pc.speed_bps = sp.speed_bps;
    pc.checksum_offload = false;  // it forwards frames as they are
    pc.loc = sp.loc;
    auto info = find_port(pc);
    if (!info) return std::unexpected(info.error());
    EthdevPort& port = ports_.emplace_back(pc, std::move(*info));
    // A switch port's peer may come later (a memif client, a cable plugged in by the tester).
    auto setup = port.bring_up(fmt::format("lr_sw{}_rx{}", index, i), 2047, kPoolCache, kSwitchLinkWaitMs,
                               EthdevPort::LinkAtStart::kMayComeLater);
    if (!setup) return std::unexpected(setup.error());
    if (port.speed_bps() == 0)
      return make_error(Errc::kInvalid, fmt::format("switch '{}' port '{}': its link speed is unknown (link down, or "
                                                    "not reported): set its speed",
                                                    cfg_.name, sp.name));
    uint64_t shape = port.speed_bps();
    if (sp.shape) {
      shape = sp.shape->kind == api::RateKind::kPercentOfLine
                  ? static_cast<uint64_t>(static_cast<double>(port.speed_bps()) * sp.shape->value / 100.0)
                  : static_cast<uint64_t>(sp.shape->value);
      if (shape > port.speed_bps())
        return make_error(Errc::kInvalid, fmt::format("switch '{}' port '{}': shape {} bit/s is above its speed ({})",
                                                      cfg_.name, sp.name, shape, port.speed_bps()));
    }
    shape_bps_.push_back(shape);
  }
  pfc_pool_ = rte_pktmbuf_pool_create(fmt::format("lr_sw{}_pfc", index).c_str(), kPfcPoolSize, kPoolCache, 0,
                                      RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
  copy_pool_ = rte_pktmbuf_pool_create(fmt::format("lr_sw{}_ecn", index).c_str(), kCopyPoolSize, kPoolCache, 0,
                                       RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
  if (pfc_pool_ == nullptr || copy_pool_ == nullptr)
    return make_error(Errc::kNoMemory, fmt::format("switch '{}': its mempools", cfg_.name), rte_errno);
  return {};
}

sw::ModelParams SoftwareSwitch::model_params() const {
  sw::ModelParams p;
  p.tsc_hz = tsc_hz_;
  for (const EthdevPort& port : ports_) p.port_speed_bps.push_back(port.speed_bps());
  p.shape_bps = shape_bps_;
  p.lossless = cfg_.lossless;
  p.buffer_bytes = cfg_.buffer_bytes;
  p.queue_limit_bytes = cfg_.queue_limit_bytes;
  p.xoff_bytes = cfg_.xoff_bytes;
  p.xon_bytes = cfg_.xon_bytes;
  p.headroom_bytes = cfg_.headroom_bytes;
  p.pfc_quanta = cfg_.pfc_quanta;
  const auto ns_to_tsc = [&](uint64_t ns) {
    return static_cast<uint64_t>(static_cast<__uint128_t>(ns) * tsc_hz_ / 1'000'000'000);
  };
  p.pfc_refresh_tsc = ns_to_tsc(cfg_.pfc_refresh_ns);
  p.ecn = cfg_.ecn;
  p.ecn_kmin_bytes = cfg_.ecn_kmin_bytes;
  p.ecn_kmax_bytes = cfg_.ecn_kmax_bytes;
  p.ecn_pmax = cfg_.ecn_pmax;
  p.seed = cfg_.seed;
  p.watchdog = cfg_.watchdog;
  p.watchdog_detect_tsc = ns_to_tsc(cfg_.watchdog_detect_ns);
  p.watchdog_restore_tsc = ns_to_tsc(cfg_.watchdog_restore_ns);
  p.watchdog_action = cfg_.watchdog_forward ? sw::WatchdogAction::kForward : sw::WatchdogAction::kDrop;
  // After the lcore was held up (the CPU it shares with mgmt), a backlogged egress
  // catches up by at most this much and the ingress wires deliver what waited: a burst
  // instead of a lost share of the rate. An idle egress saves up nothing.
  p.burst_tsc = ns_to_tsc(cfg_.catch_up_ns);
  p.pfc_obeyed = cfg_.pfc_honour.value_or(cfg_.lossless != 0 ? cfg_.lossless : uint8_t{0xFF});
  p.pause_obeyed = cfg_.pause_honour.value_or(cfg_.lossless == 0);
  p.pause_reaction_tsc = ns_to_tsc(cfg_.pause_reaction_ns);
  p.input_queued = cfg_.input_queued;
  return p;
}

Result<void> SoftwareSwitch::prepare() {
  if (launched_) return make_error(Errc::kBusy, fmt::format("switch '{}' is already running", cfg_.name));
  for (EthdevPort& port : ports_)
    if (auto ok = port.set_started(true); !ok) return ok;
  model_ = std::make_unique<sw::SwitchModel>(model_params());
  loop_ = std::make_unique<sw::SwitchLoop>();
  loop_->model = model_.get();
  loop_->pfc_pool = pfc_pool_;
  loop_->copy_pool = copy_pool_;
  loop_->classify_dscp = cfg_.classify == api::SwitchClassify::kDscp;
  loop_->learn = cfg_.learn;
  if (cfg_.learn) {
    // One table for the switch's life, as a device keeps its own: what the previous run
    // taught it stays until it ages (RFC 2889 waits the aging time between trials).
    if (!macs_) {
      sw::MacTableParams mp;
      mp.capacity = cfg_.mac_table_size;
      mp.age_tsc = static_cast<uint64_t>(static_cast<__uint128_t>(cfg_.mac_age_ns) * tsc_hz_ / 1'000'000'000);
      mp.learn_interval_tsc = cfg_.learn_rate == 0 ? 0 : std::max<uint64_t>(1, tsc_hz_ / cfg_.learn_rate);
      macs_ = std::make_unique<sw::MacTable>(mp);
    }
    macs_->sweep_all(rte_rdtsc());
    macs_->reset_counters();
    loop_->macs = macs_.get();
  }
  loop_->max_frame_bytes = cfg_.max_frame_bytes;
  loop_->nice = kSwitchNice;
  for (const auto& [dscp, prio] : cfg_.dscp_to_priority) loop_->dscp_priority[dscp] = prio;
  loop_->wire_burst_tsc = model_->params().burst_tsc;
  loop_->stalls.threshold_tsc = fast::stall_threshold_tsc(tsc_hz_);
  loop_->ports.resize(ports_.size());
  for (size_t i = 0; i < ports_.size(); ++i) {
    sw::SwitchPortIo& io = loop_->ports[i];
    io.port_id = ports_[i].port_id();
    io.wire_cycles_per_byte_q16 =
        static_cast<uint64_t>((static_cast<__uint128_t>(tsc_hz_) * 8 << 16) / ports_[i].speed_bps());
    rte_eth_macaddr_get(io.port_id, &io.mac);
    if (const auto it = cfg_.forward.find(cfg_.ports[i].name); it != cfg_.forward.end()) {
      for (size_t e = 0; e < cfg_.ports.size(); ++e)
        if (cfg_.ports[e].name == it->second) io.egress = static_cast<int16_t>(e);
    }
  }
  return {};
}

Result<void> SoftwareSwitch::launch(uint64_t start_tsc) {
  if (launched_ || !loop_) return make_error(Errc::kBusy, fmt::format("switch '{}' is running or not prepared", cfg_.name));
  start_tsc_ = start_tsc;
  loop_->run_start_tsc = start_tsc;
  if (int rc = rte_eal_remote_launch(sw::run_switch, loop_.get(), lcore_); rc != 0)
    return make_error(Errc::kBusy, fmt::format("switch '{}': launching lcore {}", cfg_.name, lcore_), -rc);
  launched_ = true;
  return {};
}

void SoftwareSwitch::request_stop() noexcept {
  if (loop_) loop_->stop.store(true, std::memory_order_release);
}

api::SwitchReport SoftwareSwitch::report(Reading reading) const {
  using fast::counter_read;
  api::SwitchReport r;
  r.name = cfg_.name;
  r.lcore = lcore_;
  r.buffer_bytes = cfg_.buffer_bytes;
  r.input_queued = cfg_.input_queued;
  r.catch_up_us = static_cast<double>(cfg_.catch_up_ns) / 1e3;
  if (!model_) return r;
  const auto seconds = [&](uint64_t tsc) { return static_cast<double>(tsc) / static_cast<double>(tsc_hz_); };
  for (size_t i = 0; i < ports_.size(); ++i) {
    const auto port = static_cast<uint16_t>(i);
    const sw::SwitchPortIo& io = loop_->ports[i];
    api::SwitchPortReport p;
    p.name = cfg_.ports[i].name;
    p.device = cfg_.ports[i].device;
    p.speed_bps = ports_[i].speed_bps();
    p.shape_bps = shape_bps_[i];
    p.rx_frames = counter_read(io.rx_frames);
    p.rx_mac_control = counter_read(io.rx_mac_control);
    p.rx_unroutable = counter_read(io.rx_unroutable);
    p.tx_pfc_frames = counter_read(io.tx_pfc_frames);
    p.ecn_copy_failures = counter_read(io.ecn_copy_failures);
    p.tx_refused = counter_read(io.tx_refused);
    p.rx_flooded = counter_read(io.rx_flooded);
    p.pause_first_s = tsc_to_s(counter_read(io.pause_first_tsc), start_tsc_, tsc_hz_);
    p.pause_last_s = tsc_to_s(counter_read(io.pause_last_tsc), start_tsc_, tsc_hz_);
    p.rx_filtered = counter_read(io.rx_filtered);
    p.rx_oversize = counter_read(io.rx_oversize);
    // Live: the spells of sending that ended; final: the one still open too.
    p.egress_busy_s = seconds(reading == Reading::kFinal ? model_->egress_busy_tsc(port, rte_rdtsc())
                                                         : counter_read(model_->egress_busy_ended_tsc(port)));
    p.egress_lost_us = seconds(counter_read(model_->egress_lost_tsc(port))) * 1e6;
    for (uint8_t prio = 0; prio < sw::kPriorities; ++prio) {
      const sw::PriorityCounters& c = model_->counters(port, prio);
      api::SwitchPriorityReport pr;
      pr.priority = prio;
      pr.lossless = (cfg_.lossless >> prio) & 1;
      pr.rx_frames = counter_read(c.rx_frames);
      pr.rx_bytes = counter_read(c.rx_bytes);
      pr.tx_frames = counter_read(c.tx_frames);
      pr.tx_bytes = counter_read(c.tx_bytes);
      pr.drop_tail = counter_read(c.drop_tail);
      pr.drop_headroom = counter_read(c.drop_headroom);
      pr.drop_watchdog = counter_read(c.drop_watchdog);
      pr.pfc_xoff_sent = counter_read(c.pfc_xoff_sent);
      pr.pfc_xon_sent = counter_read(c.pfc_xon_sent);
      pr.pfc_xoff_received = counter_read(c.pfc_xoff_received);
      pr.pfc_xon_received = counter_read(c.pfc_xon_received);
      pr.ecn_marked = counter_read(c.ecn_marked);
      pr.queue_watermark_bytes = counter_read(c.watermark_bytes);
      pr.group_watermark_bytes = counter_read(c.pg_watermark_bytes);
      pr.paused_ns = static_cast<uint64_t>(seconds(counter_read(c.paused_tsc)) * 1e9);
      pr.storms = counter_read(c.storms);
      pr.restorations = counter_read(c.restorations);
      pr.storm_detected_s = tsc_to_s(counter_read(c.storm_detected_tsc), start_tsc_, tsc_hz_);
      pr.storm_restored_s = tsc_to_s(counter_read(c.storm_restored_tsc), start_tsc_, tsc_hz_);
      const bool any = pr.rx_frames != 0 || pr.tx_frames != 0 || pr.drop_tail != 0 || pr.drop_headroom != 0 ||
                       pr.drop_watchdog != 0 || pr.pfc_xoff_received != 0 || pr.pfc_xon_received != 0 ||
                       pr.pfc_xoff_sent != 0;
      if (any || pr.lossless) p.priorities.push_back(pr);
    }
    r.ports.push_back(std::move(p));
  }
  r.buffer_watermark_bytes = counter_read(model_->shared_watermark_bytes());
  if (cfg_.learn && macs_) {
    r.mac_learned = counter_read(macs_->learned());
    r.mac_table_full = counter_read(macs_->full());
    r.mac_entries = counter_read(macs_->entries());
    r.mac_learn_limited = counter_read(macs_->rate_limited());
    r.mac_aged = counter_read(macs_->aged());
  }
  api::LcoreStalls held = fast::read_stalls(loop_->stalls, lcore_, start_tsc_, tsc_hz_);
  r.stalls = held.stalls;
  r.longest_stall_us = held.longest_stall_us;
  r.stalled_us = held.stalled_us;
  r.longest_stalls = std::move(held.longest_stalls);
  return r;
}

void SoftwareSwitch::stop_loop() {
  if (!launched_) return;
  request_stop();
  rte_eal_wait_lcore(lcore_);
  launched_ = false;
}

uint64_t SoftwareSwitch::release_frames() {
  uint64_t freed = 0;
  if (loop_) {
    for (sw::SwitchPortIo& io : loop_->ports) {
      freed += io.n_out + (io.n_staged - io.next_staged);
      release_held(io);
    }
  }
  if (model_) {
    model_->flush([&freed](uintptr_t handle) {
      ++freed;
      rte_pktmbuf_free(reinterpret_cast<rte_mbuf*>(handle));
    });
  }
  return freed;
}

api::SwitchReport SoftwareSwitch::finish() {
  stop_loop();
  api::SwitchReport r = report(Reading::kFinal);
  if (!model_) return r;
  // Frames the TX queues refused at the end, those still arriving, and those queued:
  // never sent.
  r.left_in_queues += release_frames();
  // What the ports' RX rings still hold goes back to its pools before the ports stop.
  for (EthdevPort& port : ports_) port.drain_rx_queues(8192, sw::kSwitchBurst);
  last_ = r;
  return r;
}

api::SwitchPlan SoftwareSwitch::plan() const {
  api::SwitchPlan plan;
  plan.name = cfg_.name;
  plan.lcore = lcore_;
  plan.learn = cfg_.learn;
  for (int prio = 0; prio < static_cast<int>(sw::kPriorities); ++prio)
    if ((cfg_.lossless >> prio) & 1) plan.lossless.push_back(prio);
  for (size_t i = 0; i < ports_.size(); ++i) {
    api::SwitchPortPlan p;
    p.name = cfg_.ports[i].name;
    p.device = cfg_.ports[i].device;
    p.link_up = ports_[i].link().up;
    p.speed_bps = ports_[i].speed_bps();
    p.shape_bps = shape_bps_[i];
    if (const auto it = cfg_.forward.find(p.name); it != cfg_.forward.end()) p.forward_to = it->second;
    plan.ports.push_back(std::move(p));
  }
  return plan;
}

api::SwitchReport SoftwareSwitch::current_report() const {
  if (launched_) return report(Reading::kLive);
  return last_ ? *last_ : report(Reading::kFinal);
}

void SoftwareSwitch::close() {
  stop_loop();
  release_frames();
  for (EthdevPort& port : ports_) port.close();
}

}  // namespace lr::dp
