#include "dataplane/mgmt/port_controls.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "dataplane/api/rpc.hpp"
#include "dataplane/port/port.hpp"

namespace lr::dp {

using api::RpcCode;
using api::RpcError;
using nlohmann::json;

PortControls::PortControls(Engine& engine, std::unique_ptr<KernelIo> io) : io_(std::move(io)) {
  for (const PortReport& r : engine.port_reports()) {
    ports_.push_back(std::make_unique<PortControl>(r.name, r.port_id, r.driver, find_kernel_netdev(r.port_id, r.device, *io_)));
    const profile::PortCfg* cfg = engine.profile().find_port(r.name);
    const uint32_t configured =
        cfg != nullptr ? link_speeds_bits(cfg->autoneg, static_cast<uint32_t>(cfg->speed_bps / 1'000'000)).value_or(0) : 0;
    ports_.back()->set_engine_calls(
        {[&engine, name = r.name](bool up) { return engine.set_link(name, up); },
         [&engine, name = r.name](uint32_t link_speeds) { return engine.set_link_speeds(name, link_speeds); }},
        configured);
  }
  poll_links();
  mark_baselines();
}

PortControl& PortControls::at(const std::string& name) {
  std::string have;
  for (auto& p : ports_) {
    if (p->name() == name) return *p;
    have += (have.empty() ? "" : ", ") + p->name();
  }
  throw RpcError(RpcCode::kInvalidParams, fmt::format("params.port: no port is named '{}' (there are: {})", name, have));
}

Result<void> PortControls::apply_profile(const profile::Profile& profile) {
  for (const profile::PortCfg& cfg : profile.ports) {
    PortControl* port = nullptr;
    for (auto& p : ports_)
      if (p->name() == cfg.name) port = p.get();
    if (port == nullptr) continue;
    const auto failed = [&](const char* key, const Error& e) {
      return make_error(e.code, fmt::format("port '{}' (profile line {}) {}: {}", cfg.name, cfg.loc.line, key, e.context),
                        e.sys_errno);
    };
    if (!cfg.fec.empty())
      if (auto ok = port->set_fec(*parse_fec_mode(cfg.fec)); !ok) return failed("fec", ok.error());
    if (!cfg.pause.empty()) {
      const PauseStatus want{cfg.pause == "rx" || cfg.pause == "both", cfg.pause == "tx" || cfg.pause == "both", false};
      if (auto ok = port->set_pause(want); !ok) return failed("pause", ok.error());
    }
    if (cfg.pfc_priorities) {
      uint8_t mask = 0;
      for (unsigned p : *cfg.pfc_priorities) mask = static_cast<uint8_t>(mask | 1u << p);
      bool read_back = false;
      if (auto ok = port->set_pfc(mask, read_back); !ok) return failed("pfc", ok.error());
    }
    for (size_t i = 0; i < cfg.flow_rules.size(); ++i) {
      auto rule = FlowRule::parse(cfg.flow_rules[i]);
      if (!rule) return failed(fmt::format("flow_rules[{}]", i).c_str(), rule.error());
      if (auto ok = port->flows().create(std::move(*rule)); !ok) return failed(fmt::format("flow_rules[{}]", i).c_str(), ok.error());
    }
  }
  return {};
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

json link_events_json(const PortControl& port) {
  json events = json::array();
  for (const LinkEvent& e : port.link_history())
    events.push_back(json{{"at", iso_time(e.at)}, {"up", e.up}, {"speed_mbps", e.speed_mbps}, {"cause", e.cause}});
  return events;
}

json merged_counters_json(const std::vector<MergedCounter>& counters) {
  json out = json::array();
  for (const MergedCounter& m : counters)
    out.push_back(json{{"name", m.counter.name},
                       {"source", m.counter.source},
                       {"canonical", m.canonical.empty() ? json(nullptr) : json(m.canonical)},
                       {"value", m.since_baseline},
                       {"total", m.counter.value}});
  return out;
}

void PortControls::snapshot_counters() {
  for (auto& port : ports_) counters_[port->name()] = merged_counters_json(port->counters());
}

json PortControls::annotate_report(json report) const {
  if (!report.contains("ports")) return report;
  for (json& p : report["ports"]) {
    for (const auto& port : ports_) {
      if (p.value("name", "") != port->name()) continue;
      p["link_events"] = link_events_json(*port);
      if (const auto it = counters_.find(port->name()); it != counters_.end()) p["nic_counters"] = it->second;
    }
  }
  return report;
}

std::string PortControls::link_changes_text() const {
  std::string out;
  for (const auto& port : ports_) {
    const auto& history = port->link_history();
    for (size_t i = 1; i < history.size(); ++i)
      out += fmt::format("  {} {} {} ({})\n", iso_time(history[i].at), port->name(),
                         history[i].up ? fmt::format("up at {} Mb/s", history[i].speed_mbps) : std::string("down"),
                         history[i].cause);
  }
  return out;
}

}  // namespace lr::dp
