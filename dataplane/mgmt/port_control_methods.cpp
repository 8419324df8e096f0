#include "dataplane/mgmt/port_control_methods.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "dataplane/mgmt/link_waiter.hpp"
#include "dataplane/mgmt/rpc_result.hpp"
#include "dataplane/profile/quantity.hpp"

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

json priorities(uint8_t mask) {
  json out = json::array();
  for (int p = 0; p < 8; ++p)
    if (mask >> p & 1) out.push_back(p);
  return out;
}

json link_json(PortControl& port, const Served<LinkStatus>& s) {
  return json{{"port", port.name()},       {"backend", backend_name(s.backend)}, {"netdev", port.netdev_name()},
              {"up", s.value.up},          {"speed_mbps", s.value.speed_mbps},   {"full_duplex", s.value.full_duplex},
              {"autoneg", s.value.autoneg}, {"supported", s.value.supported},     {"advertised", s.value.advertised},
              {"partner", s.value.partner}};
}

json fec_json(PortControl& port, const Served<FecStatus>& s) {
  json capability = json::array();
  for (const FecCapability& c : s.value.capability)
    capability.push_back(json{{"speed_mbps", c.speed_mbps}, {"modes", mode_list(c.modes)}});
  return json{{"port", port.name()},
              {"backend", backend_name(s.backend)},
              {"configured", mode_list(s.value.configured)},
              {"active", s.value.active != 0 ? json(fec_names(s.value.active)) : json(nullptr)},
              {"capability", capability}};
}

json pause_json(PortControl& port, const Served<PauseStatus>& s) {
  const char* mode = s.value.rx && s.value.tx ? "both" : s.value.rx ? "rx" : s.value.tx ? "tx" : "off";
  return json{{"port", port.name()}, {"backend", backend_name(s.backend)}, {"mode", mode},
              {"rx", s.value.rx},    {"tx", s.value.tx},                  {"autoneg", s.value.autoneg}};
}

json pfc_json(PortControl& port, const Served<PfcStatus>& s) {
  return json{{"port", port.name()},
              {"backend", backend_name(s.backend)},
              {"priorities", priorities(s.value.enabled)},
              {"capable_tcs", s.value.capable},
              {"requests", s.value.requests},
              {"indications", s.value.indications}};
}

uint8_t priority_mask(const api::Params& p) {
  uint8_t mask = 0;
  for (int64_t priority : p.integers("priorities", 0, 7)) mask = static_cast<uint8_t>(mask | 1u << priority);
  return mask;
}

// The port of params.port, which `session` may change.
// The port named by params.port; kInvalidParams naming the ports there are.
PortControl& port_named(PortControls& ports, const api::Params& p) {
  const std::string name = p.string("port");
  PortControl* port = ports.find(name);
  if (port == nullptr)
    throw RpcError(RpcCode::kInvalidParams, fmt::format("params.port: no port is named '{}' (there are: {})", name,
                                                        fmt::join(ports.names(), ", ")));
  return *port;
}

PortControl& changeable(PortControls& ports, const PortOwnership& ownership, const Session& session,
                        const api::Params& p) {
  PortControl& port = port_named(ports, p);
  ownership.check_may_change(session, port.name());
  return port;
}


}  // namespace

void register_port_control_methods(Dispatcher& d, boost::asio::io_context& io, PortControls& ports,
                                   PortOwnership& ownership) {


  d.add("port.link",
        "Link state and settings: up, speed, duplex, autoneg, and (from the kernel netdev) the supported and "
        "advertised link modes. params: {port}.",
        false, [&](Session&, const api::Params& p) {
          PortControl& port = port_named(ports, p);
          return link_json(port, value_or_throw(port.link()));
        });
  d.add_async("port.link.set",
        "Sets the link: params {port, up?: bool, autoneg?: bool, speed?: \"50G\" (fixed with autoneg false, else "
        "advertise that speed's modes), advertise?: [link modes], keep?: bool (speeds stay after exit)}. Returns the link read back; a link brought up "
        "is awaited first (up to 5 s, on a timer: other sessions are answered meanwhile).",
        true, [&](Session& session, const api::Params& p, Reply reply) {
          PortControl& port = changeable(ports, ownership, session, p);
          LinkRequest request;
          request.up = p.optional_bool("up");
          request.autoneg = p.optional_bool("autoneg");
          if (const auto speed = p.optional_string("speed")) {
            const auto bps = profile::parse_link_speed_bps(*speed);
            if (!bps) throw RpcError(RpcCode::kInvalidParams, fmt::format("params.speed: '{}' is not a link speed (e.g. 50G)", *speed));
            request.speed_mbps = static_cast<uint32_t>(*bps / 1'000'000);
          }
          if (p.has("advertise")) request.advertise = p.strings("advertise");
          const Served<LinkStatus> set = value_or_throw(
              port.set_link(request, fmt::format("set by session {}", session.id), p.optional_bool("keep").value_or(false)));
          // A link brought up (and not up yet), or renegotiated at new speeds, is awaited on
          // a timer, then read back; a link taken down is answered at once.
          const bool renegotiated = request.autoneg || request.speed_mbps || request.advertise;
          const bool await = request.up != std::optional<bool>(false) &&
                             (renegotiated || (request.up.value_or(false) && !set.value.up));
          const auto answer = [&port, set, reply](bool awaited) {
            reply.complete([&] {
              value_or_throw(port.verify_link_set());  // a link that is down has no speed to check
              if (!awaited) return link_json(port, set);
              Served<LinkStatus> now = value_or_throw(port.link());
              now.backend = set.backend;
              return link_json(port, now);
            });
          };
          if (!await) {
            answer(false);
            return;
          }
          await_link(io, [&port] { const auto l = port.link(); return l && l->value.up; }, kLinkWait,
                     [answer](bool) { answer(true); });
        });
  d.add("port.link.history", "Link changes seen on the port (polled every 100 ms), oldest first. params: {port}.",
        false, [&](Session&, const api::Params& p) {
          PortControl& port = port_named(ports, p);
          json events = json::array();
          for (const api::LinkEventReport& e : link_events(port)) events.push_back(to_json(e));
          return json{{"port", port.name()}, {"events", events}};
        });

  d.add("port.fec", "FEC: configured and active mode, capability per speed. params: {port}.", false,
        [&](Session&, const api::Params& p) {
          PortControl& port = port_named(ports, p);
          return fec_json(port, value_or_throw(port.fec()));
        });
  d.add("port.fec.set", "Sets the FEC mode: params {port, mode: off|baser|rs|llrs|auto, keep?: bool (stays after the data "
        "plane exits; else put back then)}. Returns it read back.", true,
        [&](Session& session, const api::Params& p) {
          PortControl& port = changeable(ports, ownership, session, p);
          const std::string name = p.string("mode");
          const auto mode = parse_fec_mode(name);
          if (!mode) throw RpcError(RpcCode::kInvalidParams, fmt::format("params.mode: '{}' is not off, baser, rs, llrs or auto", name));
          return fec_json(port, value_or_throw(port.set_fec(*mode, p.optional_bool("keep").value_or(false))));
        });

  d.add("port.pause", "802.3x pause: rx / tx / autoneg. params: {port}.", false, [&](Session&, const api::Params& p) {
    PortControl& port = port_named(ports, p);
    return pause_json(port, value_or_throw(port.pause()));
  });
  d.add("port.pause.set", "Sets 802.3x pause: params {port, mode: rx|tx|both|off, autoneg?: bool, keep?: bool}. Returns it read back.",
        true, [&](Session& session, const api::Params& p) {
          PortControl& port = changeable(ports, ownership, session, p);
          const std::string mode = p.string("mode");
          if (mode != "rx" && mode != "tx" && mode != "both" && mode != "off")
            throw RpcError(RpcCode::kInvalidParams, fmt::format("params.mode: '{}' is not rx, tx, both or off", mode));
          const PauseStatus want{mode == "rx" || mode == "both", mode == "tx" || mode == "both",
                                 p.optional_bool("autoneg").value_or(false)};
          return pause_json(port, value_or_throw(port.set_pause(want, p.optional_bool("keep").value_or(false))));
        });

  d.add("port.pfc", "PFC: priorities with PFC on, and per priority the PFC frames sent / received. params: {port}.",
        false, [&](Session&, const api::Params& p) {
          PortControl& port = port_named(ports, p);
          return pfc_json(port, value_or_throw(port.pfc()));
        });
  d.add("port.pfc.set",
        "Sets PFC: params {port, priorities: [3, 4] (empty: off), keep?: bool}. Returns it read back (read_back false "
        "when only ethdev could set it).",
        true, [&](Session& session, const api::Params& p) {
          PortControl& port = changeable(ports, ownership, session, p);
          bool read_back = false;
          json out = pfc_json(port, value_or_throw(port.set_pfc(priority_mask(p), read_back,
                                                                p.optional_bool("keep").value_or(false))));
          out["read_back"] = read_back;
          return out;
        });

  const auto settings_json = [](PortControl& port, const std::vector<api::SettingChange>& changes) {
    json list = json::array();
    for (const api::SettingChange& c : changes) list.push_back(to_json(c));
    return json{{"port", port.name()}, {"settings_changed", list}};
  };
  d.add("port.settings",
        "What linerate changed on the port (fec, pause, pfc, link, mtu): before (what the port had before the "
        "first change), set_to, keep, restore (at_exit, restored, unchanged, kept, failed) and error. params: {port}.",
        false, [&, settings_json](Session&, const api::Params& p) {
          PortControl& port = port_named(ports, p);
          return settings_json(port, port.settings_changed());
        });
  d.add("port.settings.restore",
        "Puts back what linerate changed on the port (what it had before the first change), each read back, except "
        "what was set with keep. Returns the changes with their outcome. params: {port}.",
        true, [&, settings_json](Session& session, const api::Params& p) {
          PortControl& port = changeable(ports, ownership, session, p);
          return settings_json(port, port.restore_settings());
        });

  d.add("port.module", "The module EEPROM, as bytes (hex) for `linerate module show`. params: {port}.", false,
        [&](Session&, const api::Params& p) {
          PortControl& port = port_named(ports, p);
          const auto eeprom = value_or_throw(port.module_eeprom());
          std::string hex;
          for (uint8_t b : eeprom.value) hex += fmt::format("{:02x}", b);
          return json{{"port", port.name()}, {"backend", backend_name(eeprom.backend)}, {"size", eeprom.value.size()},
                      {"eeprom_hex", hex}};
        });

  d.add("port.counters",
        "Every counter of the port from every source (ethdev stats, xstats, the kernel's ethtool -S and FEC "
        "statistics) with its canonical name, its value since the current run started and its total. "
        "params: {port, filter?}: names (own or canonical) containing filter.",
        false, [&](Session&, const api::Params& p) {
          PortControl& port = port_named(ports, p);
          const std::string filter = p.optional_string("filter").value_or("");
          std::vector<std::string> errors;
          json counters = json::array();
          for (const api::NicCounter& c : nic_counters(port.counters(&errors))) {
            const bool wanted = filter.empty() || c.name.find(filter) != std::string::npos ||
                                (c.canonical && c.canonical->find(filter) != std::string::npos);
            if (wanted) counters.push_back(to_json(c));
          }
          return json{{"port", port.name()}, {"netdev", port.netdev_name()}, {"counters", counters}, {"errors", errors}};
        });

  d.add("flow.validate",
        "Checks a flow rule with the PMD without creating it: params {port, rule} (the flow language: "
        "\"pattern eth / udp dst is 4791 actions queue index 1 / count\").",
        false, [&](Session&, const api::Params& p) {
          PortControl& port = port_named(ports, p);
          auto rule = FlowRule::parse(p.string("rule"));
          if (!rule) throw RpcError(RpcCode::kInvalidParams, "params.rule: " + rule.error().context);
          value_or_throw(port.flows().validate(*rule));
          return json{{"port", port.name()}, {"backend", "ethdev"}, {"valid", true}};
        });
  d.add("flow.create", "Validates and creates a flow rule: params {port, rule}. Returns its id on the port.", true,
        [&](Session& session, const api::Params& p) {
          PortControl& port = changeable(ports, ownership, session, p);
          auto rule = FlowRule::parse(p.string("rule"));
          if (!rule) throw RpcError(RpcCode::kInvalidParams, "params.rule: " + rule.error().context);
          const uint32_t id = value_or_throw(port.flows().create(std::move(*rule)));
          return json{{"port", port.name()}, {"backend", "ethdev"}, {"id", id}};
        });
  d.add("flow.list", "The port's flow rules with their counters (rules with a count action). params: {port}.", false,
        [&](Session&, const api::Params& p) {
          PortControl& port = port_named(ports, p);
          json rules = json::array();
          for (const FlowInfo& f : port.flows().list()) {
            json r{{"id", f.id}, {"rule", f.rule}};
            r["hits"] = f.hits ? json(*f.hits) : json(nullptr);
            r["bytes"] = f.bytes ? json(*f.bytes) : json(nullptr);
            if (!f.counter_error.empty()) r["counter_error"] = f.counter_error;
            rules.push_back(std::move(r));
          }
          return json{{"port", port.name()}, {"backend", "ethdev"}, {"rules", rules}};
        });
  d.add("flow.destroy", "Destroys one flow rule: params {port, id}.", true, [&](Session& session, const api::Params& p) {
    PortControl& port = changeable(ports, ownership, session, p);
    const auto id = static_cast<uint32_t>(p.number("id", 1, 4294967295.0));
    value_or_throw(port.flows().destroy(id));
    return json{{"port", port.name()}, {"backend", "ethdev"}, {"destroyed", id}};
  });
  d.add("flow.flush", "Destroys every flow rule of the port: params {port}.", true,
        [&](Session& session, const api::Params& p) {
          PortControl& port = changeable(ports, ownership, session, p);
          return json{{"port", port.name()}, {"backend", "ethdev"}, {"destroyed", value_or_throw(port.flows().flush())}};
        });
  d.add("flow.isolate",
        "Isolated mode on or off: params {port, on: bool}. Most PMDs take it only before the port is configured "
        "(set flow_isolate in the profile); their refusal is returned as it is.",
        true, [&](Session& session, const api::Params& p) {
          PortControl& port = changeable(ports, ownership, session, p);
          const auto on = p.optional_bool("on");
          if (!on) throw RpcError(RpcCode::kInvalidParams, "params.on: expected true or false");
          value_or_throw(port.flows().isolate(*on));
          return json{{"port", port.name()}, {"backend", "ethdev"}, {"isolated", *on}};
        });

  // Protocol 1's names (before methods were named object.aspect.verb).
  d.alias("port.link_set", "port.link.set");
  d.alias("port.link_history", "port.link.history");
  d.alias("port.fec_set", "port.fec.set");
  d.alias("port.pause_set", "port.pause.set");
  d.alias("port.pfc_set", "port.pfc.set");
}

}  // namespace lr::dp
