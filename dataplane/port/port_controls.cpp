#include "dataplane/port/port_controls.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "dataplane/port/port.hpp"

namespace lr::dp {

PortControls::PortControls(std::deque<EthdevPort>& ports, std::unique_ptr<KernelIo> io) : io_(std::move(io)) {
  for (EthdevPort& port : ports)
    ports_.push_back(std::make_unique<PortControl>(port.name(), port.port_id(), port.info().driver,
                                                   find_kernel_netdev(port.port_id(), port.cfg().device, *io_), &port));
}

PortControl* PortControls::find(const std::string& name) {
  for (auto& p : ports_)
    if (p->name() == name) return p.get();
  return nullptr;
}

std::vector<std::string> PortControls::names() const {
  std::vector<std::string> out;
  for (const auto& p : ports_) out.push_back(p->name());
  return out;
}

Result<void> PortControls::apply_profile(const profile::Profile& profile) {
  for (const api::PortSpec& cfg : profile.ports) {
    PortControl* port = find(cfg.name);
    if (port == nullptr) continue;
    const auto failed = [&](const char* key, const Error& e) {
      return make_error(e.code, fmt::format("port '{}' (profile line {}) {}: {}", cfg.name, cfg.loc.line, key, e.context),
                        e.sys_errno);
    };
    if (cfg.fec)
      if (auto ok = port->set_fec(fec_bit(*cfg.fec), cfg.keep); !ok) return failed("fec", ok.error());
    if (cfg.pause) {
      const PauseStatus want{pause_rx(*cfg.pause), pause_tx(*cfg.pause), false};
      if (auto ok = port->set_pause(want, cfg.keep); !ok) return failed("pause", ok.error());
    }
    if (cfg.pfc_priorities) {
      uint8_t mask = 0;
      for (unsigned p : *cfg.pfc_priorities) mask = static_cast<uint8_t>(mask | 1u << p);
      bool read_back = false;
      if (auto ok = port->set_pfc(mask, read_back, cfg.keep); !ok) return failed("pfc", ok.error());
    }
    for (size_t i = 0; i < cfg.flow_rules.size(); ++i) {
      auto rule = FlowRule::parse(cfg.flow_rules[i]);
      if (!rule) return failed(fmt::format("flow_rules[{}]", i).c_str(), rule.error());
      if (auto ok = port->flows().create(std::move(*rule)); !ok) return failed(fmt::format("flow_rules[{}]", i).c_str(), ok.error());
    }
  }
  return {};
}

void PortControls::before_bring_up(const profile::Profile& profile) {
  for (const api::PortSpec& cfg : profile.ports)
    if (PortControl* port = find(cfg.name)) port->before_bring_up(cfg.mtu != 0, cfg.autoneg.has_value(), cfg.promiscuous);
}

void PortControls::after_bring_up(const profile::Profile& profile) {
  for (const api::PortSpec& cfg : profile.ports)
    if (PortControl* port = find(cfg.name)) port->after_bring_up(cfg.keep);
}

void PortControls::restore_settings() {
  for (auto& p : ports_) p->restore_settings();
}

void PortControls::mark_baselines() {
  for (auto& p : ports_) p->mark_baseline();
}

void PortControls::poll_links() {
  for (auto& p : ports_) p->poll_link();
}

namespace {

std::string iso_time(std::chrono::system_clock::time_point t) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count() % 1000;
  return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:03}Z", fmt::gmtime(std::chrono::system_clock::to_time_t(t)), ms);
}

}  // namespace

std::vector<api::LinkEventReport> link_events(const PortControl& port, std::optional<RunClock> run) {
  std::vector<api::LinkEventReport> out;
  for (const LinkEvent& e : port.link_history()) {
    std::optional<double> run_s;
    if (run && e.when.tsc >= run->start_tsc)
      run_s = static_cast<double>(e.when.tsc - run->start_tsc) / static_cast<double>(run->tsc_hz);
    out.push_back({iso_time(e.when.at), e.up, e.speed_mbps, e.cause, run_s});
  }
  return out;
}

std::vector<api::NicCounter> nic_counters(const std::vector<MergedCounter>& counters) {
  std::vector<api::NicCounter> out;
  for (const MergedCounter& m : counters)
    out.push_back({m.counter.name, m.counter.source,
                   m.canonical.empty() ? std::nullopt : std::optional<std::string>(m.canonical), m.since_baseline,
                   m.counter.value});
  return out;
}

void PortControls::fill_report(std::vector<api::PortReport>& ports, std::optional<RunClock> run) {
  for (api::PortReport& report : ports) {
    PortControl* port = find(report.name);
    if (port == nullptr) continue;
    report.nic_counters = nic_counters(port->counters());
    report.nic_pause = api::nic_pause_counters(report.nic_counters);
    report.link_events = link_events(*port, run);
    report.settings_changed = port->settings_changed();
  }
}

}  // namespace lr::dp
