#include "control/cli/port_commands.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <optional>

#include "control/cli/module_command.hpp"
#include "control/client/flow_client.hpp"
#include "control/client/port_client.hpp"
#include "lib/api/flow_report.hpp"
#include "lib/api/port_control_report.hpp"
#include "lib/api/run_report.hpp"
#include "lib/common/port_modes.hpp"
#include "lib/views/run_views.hpp"

namespace lr::ctl {

using nlohmann::json;

namespace {

// A mode table's names, as CLI11 checks an option against them.
template <class Table>
std::vector<std::string> mode_names(const Table& table) {
  std::vector<std::string> names;
  for (const auto& [mode, name] : table) names.emplace_back(name);
  return names;
}

template <class T>
std::string joined(const std::vector<T>& items, const char* none = "none") {
  return items.empty() ? std::string(none) : fmt::format("{}", fmt::join(items, ", "));
}

std::string served_by(const api::ServedBy& s) {
  return fmt::format("port {} ({}{})", s.port, s.backend, s.netdev.empty() ? "" : "; kernel netdev " + s.netdev);
}

std::string link_text(const json& answer) {
  const api::LinkReport r = api::link_report_from_json(answer);
  std::string out = fmt::format("{}: link {}, {} Mb/s, {} duplex, autoneg {}\n", served_by(r.served),
                                r.up ? "up" : "down", r.speed_mbps, r.full_duplex ? "full" : "half",
                                r.autoneg ? "on" : "off");
  // Always both: a refused speed or mode points here.
  out += "  supported:  " + joined(r.supported, "none reported") + "\n";
  out += "  advertised: " +
         joined(r.advertised, r.served.backend == "kernel" ? "none reported" : "not reported by ethdev") + "\n";
  return out;
}

std::string history_text(const json& answer) {
  std::string out = fmt::format("{:<26} {:<5} {:>11}  {}\n", "at", "link", "speed_mbps", "cause");
  for (const json& e : answer.at("events")) {
    const api::LinkEventReport event = api::link_event_from_json(e);
    out += fmt::format("{:<26} {:<5} {:>11}  {}\n", event.at, event.up ? "up" : "down", event.speed_mbps, event.cause);
  }
  return out;
}

std::string fec_text(const json& answer) {
  const api::FecReport r = api::fec_report_from_json(answer);
  std::string out = fmt::format("{}: FEC configured {}, active {}\n", served_by(r.served), joined(r.configured),
                                r.active.value_or("none (link down or not reported)"));
  for (const api::FecCapabilityReport& c : r.capability)
    out += fmt::format("  capability at {}: {}\n",
                       c.speed_mbps == 0 ? "any speed" : fmt::format("{} Mb/s", c.speed_mbps), joined(c.modes));
  return out;
}

std::string pause_text(const json& answer) {
  const api::PauseReport r = api::pause_report_from_json(answer);
  return fmt::format("{}: 802.3x pause {} (rx {}, tx {}), autoneg {}\n", served_by(r.served), r.mode,
                     r.rx ? "on" : "off", r.tx ? "on" : "off", r.autoneg ? "on" : "off");
}

std::string pfc_text(const json& answer) {
  const api::PfcReport r = api::pfc_report_from_json(answer);
  std::string out = fmt::format("{}: PFC on priorities {}", served_by(r.served), joined(r.priorities, "none (off)"));
  if (r.capable_tcs != 0) out += fmt::format(" ({} traffic classes may have PFC)", r.capable_tcs);
  if (r.read_back == false) out += " [set through ethdev, which cannot read it back]";
  out += "\n";
  if (!r.requests.empty()) {
    out += fmt::format("  {:>8} {:>16} {:>16}\n", "priority", "pfc_sent", "pfc_received");
    for (size_t p = 0; p < r.requests.size() && p < r.indications.size(); ++p)
      out += fmt::format("  {:>8} {:>16} {:>16}\n", p, r.requests[p], r.indications[p]);
  }
  return out;
}

}  // namespace

PortCommands::PortCommands(CLI::App& app, CLI::App& module) {
  link_ = app.add_subcommand("link", "a port's link: state, speed, autoneg, link modes; set them; --history");
  link_->add_option("port", port_, "port name")->required();
  link_->add_flag("--up", up_, "bring the link up");
  link_->add_flag("--down", down_, "take the link down");
  link_->add_option("--autoneg", autoneg_, "on or off")->check(CLI::IsMember({"on", "off"}));
  link_->add_option("--speed", speed_, "e.g. 50G: fixed with --autoneg off, else advertise that speed's modes");
  link_->add_option("--advertise", advertise_, "advertise exactly these link modes, e.g. 50000baseCR/Full (repeatable)");
  link_->add_flag("--history", history_, "the link changes seen on the port, with when");
  fec_ = app.add_subcommand("fec", "a port's FEC: configured, active, capability; --set MODE");
  fec_->add_option("port", port_, "port name")->required();
  fec_->add_option("--set", set_, fec_mode_choices())->check(CLI::IsMember(mode_names(kFecModeNames)));
  pause_ = app.add_subcommand("pause", "a port's 802.3x pause; --set rx|tx|both|off");
  pause_->add_option("port", port_, "port name")->required();
  pause_->add_option("--set", set_, pause_mode_choices())->check(CLI::IsMember(mode_names(kPauseModeNames)));
  pfc_ = app.add_subcommand("pfc", "a port's priority flow control; --set 3,4 or --set off");
  pfc_->add_option("port", port_, "port name")->required();
  pfc_->add_option("--set", set_, "priorities with PFC on, comma-separated (e.g. 3,4), or off");
  for (CLI::App* set : {link_, fec_, pause_, pfc_})
    set->add_flag("--keep", keep_, "the setting stays after the data plane exits (else it puts back what the port had)");
  auto* port = app.add_subcommand("port", "what linerate changed on a port's host settings; put it back");
  port->require_subcommand(1);
  port_settings_ = port->add_subcommand("settings", "settings changed (fec, pause, pfc, link, mtu): before, now, restore");
  port_restore_ = port->add_subcommand("restore", "put back what the port had before linerate changed it (not --keep)");
  for (CLI::App* sub : {port_settings_, port_restore_}) sub->add_option("port", port_, "port name")->required();
  module_show_ = module.add_subcommand("show", "read and decode the module in a port (like ethtool -m)");
  module_show_->add_option("port", port_, "port name")->required();
  module_show_->add_flag("--hex", hex_, "also print the bytes");

  auto* flow = app.add_subcommand("flow", "rte_flow steering rules: list, check, add, delete, flush, isolate");
  flow->require_subcommand(1);
  flow_list_ = flow->add_subcommand("list", "the port's rules with their counters");
  flow_check_ = flow->add_subcommand("check", "validate a rule with the PMD without creating it");
  flow_add_ = flow->add_subcommand("add", "validate and create a rule");
  flow_delete_ = flow->add_subcommand("delete", "destroy one rule");
  flow_flush_ = flow->add_subcommand("flush", "destroy every rule of the port");
  flow_isolate_ = flow->add_subcommand("isolate", "isolated mode on or off (most PMDs: set flow_isolate in the profile)");
  for (CLI::App* sub : {flow_list_, flow_check_, flow_add_, flow_delete_, flow_flush_, flow_isolate_})
    sub->add_option("port", port_, "port name")->required();
  for (CLI::App* sub : {flow_check_, flow_add_})
    sub->add_option("rule", rule_words_, "pattern ITEM [FIELD is VALUE]... / ... actions ACTION ... (see docs/guide/port-control.md)")
        ->required();
  flow_delete_->add_option("id", flow_id_, "rule id (flow list shows them)")->required();
  flow_isolate_->add_option("state", set_, "on or off")->required()->check(CLI::IsMember({"on", "off"}));
}

bool PortCommands::chosen() const {
  return *link_ || *fec_ || *pause_ || *pfc_ || *module_show_ || *flow_list_ || *flow_check_ || *flow_add_ ||
         *flow_delete_ || *flow_flush_ || *flow_isolate_ || *port_settings_ || *port_restore_;
}

namespace {

// The data plane's answer as sent (--json), or `text`; exit code 0.
int print(bool as_json, const json& answer, const std::string& text) {
  if (as_json) std::printf("%s\n", answer.dump(2).c_str());
  else std::printf("%s", text.c_str());
  return 0;
}

Keep keep_of(bool keep) { return keep ? Keep::kYes : Keep::kNo; }

// `--set 3,4` as priorities ("off": none); none when an item is not a priority 0-7, said.
std::optional<std::vector<unsigned>> pfc_priorities(const std::string& set) {
  std::vector<unsigned> priorities;
  if (set == "off") return priorities;
  for (size_t at = 0; at <= set.size();) {
    const size_t comma = std::min(set.find(',', at), set.size());
    const std::string item = set.substr(at, comma - at);
    if (item.size() != 1 || item[0] < '0' || item[0] > '7') {
      std::fprintf(stderr, "linerate: --set '%s': '%s' is not a priority 0-7 (write e.g. 3,4 or off)\n", set.c_str(),
                   item.c_str());
      return std::nullopt;
    }
    priorities.push_back(static_cast<unsigned>(item[0] - '0'));
    at = comma + 1;
  }
  return priorities;
}

}  // namespace

int PortCommands::run(DataplaneClient& client, bool as_json) const {
  PortClient ports(client);
  if (*link_) return run_link(ports, as_json);
  if (*fec_) {
    const json result = set_.empty() ? ports.fec_json(port_) : ports.set_fec_json(port_, set_, keep_of(keep_));
    return print(as_json, result, fec_text(result));
  }
  if (*pause_) {
    const json result = set_.empty() ? ports.pause_json(port_) : ports.set_pause_json(port_, set_, keep_of(keep_));
    return print(as_json, result, pause_text(result));
  }
  if (*pfc_) {
    if (set_.empty()) {
      const json result = ports.pfc_json(port_);
      return print(as_json, result, pfc_text(result));
    }
    const std::optional<std::vector<unsigned>> priorities = pfc_priorities(set_);
    if (!priorities) return 2;
    const json result = ports.set_pfc_json(port_, *priorities, keep_of(keep_));
    return print(as_json, result, pfc_text(result));
  }
  if (*port_settings_ || *port_restore_) {
    const json result = *port_restore_ ? ports.restore_settings_json(port_) : ports.settings_json(port_);
    std::string text;
    for (const json& c : result["settings_changed"])
      text += views::setting_change_line(port_, api::setting_change_from_json(c));
    return print(as_json, result, text.empty() ? fmt::format("port {}: linerate changed none of its settings\n", port_) : text);
  }
  if (*flow_list_ || *flow_check_ || *flow_add_ || *flow_delete_ || *flow_flush_ || *flow_isolate_) {
    FlowClient flows(client);
    return run_flow(flows, as_json);
  }
  // module show
  const api::ModuleEeprom eeprom = ports.module_eeprom(port_);
  if (!as_json)
    std::printf("port %s: module EEPROM read through %s (%zu bytes)\n", port_.c_str(), eeprom.backend.c_str(),
                eeprom.bytes.size());
  return print_module(eeprom.bytes, "port " + port_, as_json, hex_);
}

int PortCommands::run_link(PortClient& ports, bool as_json) const {
  if (history_) {
    const json result = ports.link_history_json(port_);
    return print(as_json, result, history_text(result));
  }
  if (up_ && down_) {
    std::fprintf(stderr, "linerate: --up and --down together\n");
    return 2;
  }
  LinkChange change;
  change.speed = speed_;
  change.advertise = advertise_;
  change.keep = keep_of(keep_);
  if (up_ || down_) change.up = up_;
  if (!autoneg_.empty()) change.autoneg = autoneg_ == "on";
  const json result = change.empty() ? ports.link_json(port_) : ports.set_link_json(port_, change);
  return print(as_json, result, link_text(result));
}

int PortCommands::run_flow(FlowClient& flows, bool as_json) const {
  if (*flow_list_) {
    const json result = flows.list_json(port_);
    std::string text = fmt::format("{:>4} {:>14} {:>16}  {}\n", "id", "hits", "bytes", "rule");
    for (const api::FlowRuleReport& r : api::flow_list_from_json(result).rules) {
      const auto count = [](const std::optional<uint64_t>& n) { return n ? std::to_string(*n) : std::string("-"); };
      text += fmt::format("{:>4} {:>14} {:>16}  {}\n", r.id, count(r.hits), count(r.bytes), r.rule);
      if (!r.counter_error.empty()) text += "       counters: " + r.counter_error + "\n";
    }
    return print(as_json, result, text);
  }
  if (*flow_check_ || *flow_add_) {
    const std::string rule = fmt::format("{}", fmt::join(rule_words_, " "));
    if (*flow_check_) {
      const json result = flows.validate_json(port_, rule);
      return print(as_json, result, fmt::format("port {}: the PMD accepts the rule\n", port_));
    }
    const json result = flows.create_json(port_, rule);
    return print(as_json, result,
                 fmt::format("port {}: rule {} created\n", port_, api::flow_change_from_json(result).id.value_or(0)));
  }
  if (*flow_delete_) {
    const json result = flows.destroy_json(port_, flow_id_);
    return print(as_json, result, fmt::format("port {}: rule {} destroyed\n", port_, flow_id_));
  }
  if (*flow_flush_) {
    const json result = flows.flush_json(port_);
    return print(as_json, result, fmt::format("port {}: {} rules destroyed\n", port_,
                                              api::flow_change_from_json(result).destroyed.value_or(0)));
  }
  const json result = flows.isolate_json(port_, set_ == "on");  // flow isolate
  return print(as_json, result, fmt::format("port {}: isolated mode {}\n", port_, set_));
}

}  // namespace lr::ctl
