#include "dataplane/mgmt/port_control_methods.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "dataplane/mgmt/flow_methods.hpp"
#include "dataplane/mgmt/port_control_lookups.hpp"
#include "dataplane/mgmt/port_link_methods.hpp"
#include "lib/api/port_control_report.hpp"
#include "lib/common/port_modes.hpp"
#include "dataplane/mgmt/rpc_result.hpp"
#include "lib/profile/quantity.hpp"

namespace lr::dp {

using api::RpcCode;
using api::RpcError;
using nlohmann::json;

namespace {

std::vector<std::string> mode_list(uint32_t modes) {
  std::vector<std::string> out;
  for (uint32_t bit = 1; bit <= kFecAuto; bit <<= 1)
    if (modes & bit) out.push_back(fec_names(bit));
  return out;
}

std::vector<int> priorities(uint8_t mask) {
  std::vector<int> out;
  for (int p = 0; p < 8; ++p)
    if (mask >> p & 1) out.push_back(p);
  return out;
}

json fec_json(PortControl& port, const Served<FecStatus>& s) {
  api::FecReport r{{port.name(), backend_name(s.backend), ""}, mode_list(s.value.configured), std::nullopt, {}};
  if (s.value.active != 0) r.active = fec_names(s.value.active);
  for (const FecCapability& c : s.value.capability) r.capability.push_back({c.speed_mbps, mode_list(c.modes)});
  return to_json(r);
}

json pause_json(PortControl& port, const Served<PauseStatus>& s) {
  const char* mode = s.value.rx && s.value.tx ? "both" : s.value.rx ? "rx" : s.value.tx ? "tx" : "off";
  return to_json(api::PauseReport{{port.name(), backend_name(s.backend), ""}, mode, s.value.rx, s.value.tx,
                                  s.value.autoneg});
}

json pfc_json(PortControl& port, const Served<PfcStatus>& s, std::optional<bool> read_back = std::nullopt) {
  return to_json(api::PfcReport{{port.name(), backend_name(s.backend), ""},
                                priorities(s.value.enabled),
                                s.value.capable,
                                s.value.requests,
                                s.value.indications,
                                read_back});
}

uint8_t priority_mask(const api::Params& p) {
  uint8_t mask = 0;
  for (int64_t priority : p.integers("priorities", 0, 7)) mask = static_cast<uint8_t>(mask | 1u << priority);
  return mask;
}

// port.settings and port.settings.restore answer alike: the port and its changes.
json port_settings_json(PortControl& port, const std::vector<api::SettingChange>& changes) {
  json list = json::array();
  for (const api::SettingChange& c : changes) list.push_back(to_json(c));
  return json{{"port", port.name()}, {"settings_changed", list}};
}

void register_port_fec_methods(Dispatcher& d, PortControls& ports, PortOwnership& ownership) {
  d.add("port.fec", "FEC: configured and active mode, capability per speed. params: {port}.", false,
        [&](Session&, const api::Params& p) {
          PortControl& port = control_named(ports, p);
          return fec_json(port, value_or_throw(port.fec()));
        });
  d.add("port.fec.set",
        fmt::format("Sets the FEC mode: params {{port, mode: {}, keep?: bool (stays after the data plane exits; else "
                    "put back then)}}. Returns it read back.", fec_mode_choices()),
        true,
        [&](Session& session, const api::Params& p) {
          PortControl& port = changeable(ports, ownership, session, p);
          const std::string name = p.string("mode");
          const auto mode = parse_fec_mode(name);
          if (!mode)
            throw RpcError(RpcCode::kInvalidParams, fmt::format("params.mode: '{}' is not a FEC mode ({})", name,
                                                                fec_mode_choices()));
          return fec_json(port, value_or_throw(port.set_fec(*mode, p.optional_bool("keep").value_or(false))));
        });
}

void register_port_pause_methods(Dispatcher& d, PortControls& ports, PortOwnership& ownership) {
  d.add("port.pause", "802.3x pause: rx / tx / autoneg. params: {port}.", false, [&](Session&, const api::Params& p) {
    PortControl& port = control_named(ports, p);
    return pause_json(port, value_or_throw(port.pause()));
  });
  d.add("port.pause.set",
        fmt::format("Sets 802.3x pause: params {{port, mode: {}, autoneg?: bool, keep?: bool}}. Returns it read back.",
                    pause_mode_choices()),
        true, [&](Session& session, const api::Params& p) {
          PortControl& port = changeable(ports, ownership, session, p);
          const std::string name = p.string("mode");
          const std::optional<PauseMode> mode = pause_mode_named(name);
          if (!mode)
            throw RpcError(RpcCode::kInvalidParams, fmt::format("params.mode: '{}' is not a pause mode ({})", name,
                                                                pause_mode_choices()));
          const PauseStatus want{pause_rx(*mode), pause_tx(*mode), p.optional_bool("autoneg").value_or(false)};
          return pause_json(port, value_or_throw(port.set_pause(want, p.optional_bool("keep").value_or(false))));
        });
}

void register_port_pfc_methods(Dispatcher& d, PortControls& ports, PortOwnership& ownership) {
  d.add("port.pfc", "PFC: priorities with PFC on, and per priority the PFC frames sent / received. params: {port}.",
        false, [&](Session&, const api::Params& p) {
          PortControl& port = control_named(ports, p);
          return pfc_json(port, value_or_throw(port.pfc()));
        });
  d.add("port.pfc.set",
        "Sets PFC: params {port, priorities: [3, 4] (empty: off), keep?: bool}. Returns it read back (read_back false "
        "when only ethdev could set it).",
        true, [&](Session& session, const api::Params& p) {
          PortControl& port = changeable(ports, ownership, session, p);
          bool read_back = false;
          const Served<PfcStatus> set =
              value_or_throw(port.set_pfc(priority_mask(p), read_back, p.optional_bool("keep").value_or(false)));
          return pfc_json(port, set, read_back);
        });
}

void register_port_settings_methods(Dispatcher& d, PortControls& ports, PortOwnership& ownership) {
  d.add("port.settings",
        "What linerate changed on the port (fec, pause, pfc, link, mtu): before (what the port had before the "
        "first change), set_to, keep, restore (at_exit, restored, unchanged, kept, failed) and error. params: {port}.",
        false, [&](Session&, const api::Params& p) {
          PortControl& port = control_named(ports, p);
          return port_settings_json(port, port.settings_changed());
        });
  d.add("port.settings.restore",
        "Puts back what linerate changed on the port (what it had before the first change), each read back, except "
        "what was set with keep. Returns the changes with their outcome. params: {port}.",
        true, [&](Session& session, const api::Params& p) {
          PortControl& port = changeable(ports, ownership, session, p);
          return port_settings_json(port, port.restore_settings());
        });
}

void register_port_module_method(Dispatcher& d, PortControls& ports) {
  d.add("port.module", "The module EEPROM, as bytes (hex) for `linerate module show`. params: {port}.", false,
        [&](Session&, const api::Params& p) {
          PortControl& port = control_named(ports, p);
          auto eeprom = value_or_throw(port.module_eeprom());
          return to_json(api::ModuleEeprom{port.name(), backend_name(eeprom.backend), std::move(eeprom.value)});
        });
}

void register_port_counters_method(Dispatcher& d, PortControls& ports) {
  d.add("port.counters",
        "Every counter of the port from every source (ethdev stats, xstats, the kernel's ethtool -S and FEC "
        "statistics) with its canonical name, its value since the current run started and its total. "
        "params: {port, filter?}: names (own or canonical) containing filter.",
        false, [&](Session&, const api::Params& p) {
          PortControl& port = control_named(ports, p);
          const std::string filter = p.optional_string("filter").value_or("");
          api::PortCounterView view{port.name(), port.netdev_name(), {}, {}};
          for (api::NicCounter& c : nic_counters(port.counters(&view.errors))) {
            const bool wanted = filter.empty() || c.name.find(filter) != std::string::npos ||
                                (c.canonical && c.canonical->find(filter) != std::string::npos);
            if (wanted) view.counters.push_back(std::move(c));
          }
          return to_json(view);
        });
}

}  // namespace

void register_port_control_methods(Dispatcher& d, boost::asio::io_context& io, PortControls& ports,
                                   PortOwnership& ownership) {
  register_port_link_methods(d, io, ports, ownership);
  register_flow_methods(d, ports, ownership);
  register_port_fec_methods(d, ports, ownership);
  register_port_pause_methods(d, ports, ownership);
  register_port_pfc_methods(d, ports, ownership);
  register_port_settings_methods(d, ports, ownership);
  register_port_module_method(d, ports);
  register_port_counters_method(d, ports);
  // Protocol 1's names (before methods were named object.aspect.verb).
  d.alias("port.fec_set", "port.fec.set");
  d.alias("port.pause_set", "port.pause.set");
  d.alias("port.pfc_set", "port.pfc.set");
}

}  // namespace lr::dp
