#include "dataplane/mgmt/port_methods.hpp"

#include <fmt/format.h>

#include "dataplane/mgmt/link_waiter.hpp"
#include "dataplane/mgmt/lookups.hpp"
#include "dataplane/mgmt/rpc_result.hpp"
#include "dataplane/port/port.hpp"
#include "lib/profile/port_spec_json.hpp"
#include "lib/profile/quantity.hpp"

namespace lr::dp {

using api::RpcCode;
using api::RpcError;
using nlohmann::json;

namespace {

// One handler for port.config.set and for protocol 1's port.set, which also took
// `link` (now port.link.set's alone: one method per action; port.config.set does not
// declare it, so the dispatcher refuses it there).
void set_port(boost::asio::io_context& io, Engine& engine, PortOwnership& ownership, Session& session,
              const api::Params& p, const Reply& reply) {
  const std::string name = port_named(engine, p.string("port")).name;
  ownership.check_may_change(session, name);
  EthdevPort& port = *value_or_throw(engine.port(name));
  bool await = false;
  const bool keep = p.optional_bool("keep").value_or(false);
  if (const auto v = p.optional_bool("promiscuous"))
    value_or_throw(engine.port_controls().find(name)->set_promiscuous(*v, keep));
  if (const auto v = p.optional_string("link")) {
    if (*v != "up" && *v != "down")
      throw RpcError(RpcCode::kInvalidParams, fmt::format("params.link: '{}' is not up or down", *v));
    value_or_throw(port.set_link_up(*v == "up"));
    await = *v == "up";
  }
  if (p.has("mtu"))
    value_or_throw(engine.set_mtu(name, static_cast<uint16_t>(p.number("mtu", 68, 9600)), keep));
  if (const auto v = p.optional_string("pfc_reaction_delay")) {
    const auto ns = profile::parse_duration_ns(*v);
    if (!ns)
      throw RpcError(RpcCode::kInvalidParams,
                     fmt::format("params.pfc_reaction_delay: '{}' is not a duration, e.g. \"20us\"", *v));
    value_or_throw(engine.set_pfc_reaction_delay(name, std::nullopt, *ns));
  }
  if (p.has("pfc_reaction_delay_quanta"))
    value_or_throw(engine.set_pfc_reaction_delay(
        name, static_cast<uint32_t>(p.number("pfc_reaction_delay_quanta", 0, 65535)), 0));
  if (const auto v = p.optional_string("state")) {
    if (*v != "started" && *v != "stopped")
      throw RpcError(RpcCode::kInvalidParams, fmt::format("params.state: '{}' is not started or stopped", *v));
    value_or_throw(port.set_started(*v == "started"));
    await = await || *v == "started";
  }
  const auto answer = [&engine, name, reply](bool) { reply.complete([&] { return to_json(port_report(engine, name)); }); };
  if (!await) {
    answer(false);
    return;
  }
  await_link(io, [&port] { return port.refresh_link(); }, kLinkWait, answer);
}

}  // namespace

void register_port_methods(Dispatcher& d, boost::asio::io_context& io, Engine& engine, PortOwnership& ownership) {
  d.add("port.list",
        "Ports: name, device, driver, socket, link (read now), the speed rates refer to (speed_bps: the profile's "
        "speed, else the link's), owner session (null: none), and spec: the port's settings as a [[port]] table's "
        "keys.",
        false, [&](Session&, const api::Params&) {
          json out = json::array();
          // The same link state as port.link: ethdev's, and the kernel netdev's carrier where there is one.
          for (const std::string& name : engine.port_controls().names())
            if (auto port = engine.port(name)) (*port)->refresh_link();
          engine.port_controls().poll_links();
          for (PortReport& r : engine.port_reports()) {
            const std::optional<uint64_t> owner = ownership.owner(r.name);
            const api::PortSpec* spec = engine.profile().find_port(r.name);
            json listed = to_json(api::PortListing{std::move(r), owner});
            if (spec != nullptr) listed["spec"] = profile::to_json(*spec);
            out.push_back(std::move(listed));
          }
          return out;
        });
  d.add("port.stats", "The port's own counters since the current run started. params: {port}.", false,
        [&](Session&, const api::Params& p) { return to_json(port_report(engine, p.string("port"))); });
  d.deprecate("port.stats", "port.counters (every source, this run and total)");
  d.add("port.xstats", "Extended statistics of a port. params: {port, filter?}: names containing filter.", false,
        [&](Session&, const api::Params& p) {
          const uint16_t port_id = port_report(engine, p.string("port")).port_id;
          const std::string filter = p.optional_string("filter").value_or("");
          json out = json::object();
          for (const auto& [key, value] : value_or_throw(read_xstats(port_id)))
            if (filter.empty() || key.find(filter) != std::string::npos) out[key] = value;
          return out;
        });
  d.deprecate("port.xstats", "port.counters (every source, this run and total)");

  const auto set = [&io, &engine, &ownership](Session& session, const api::Params& p, const Reply& reply) {
    set_port(io, engine, ownership, session, p, reply);
  };
  d.add_async("port.config.set",
              "Changes port settings: params {port, promiscuous?: bool, mtu?: 68-9600, state?: \"started\"|"
              "\"stopped\", keep?: bool (MTU and promiscuous mode stay after the data plane exits), "
              "pfc_reaction_delay?: duration (\"20us\"), pfc_reaction_delay_quanta?: 0-65535 (a port with "
              "pfc_honour: how long after a PFC / PAUSE frame it obeys it)}. MTU, state and the PFC reaction only "
              "while traffic is stopped (the port is stopped and restarted around an MTU change). A started port's link is awaited (up to 5 s, on a timer: other sessions are answered "
              "meanwhile). Link up / down: port.link.set. Returns the port.",
              true, set);
  d.add_async("port.set", "params {port, promiscuous?: bool, link?: up|down, mtu?, state?, keep?: bool}.", true, set);
  d.deprecate("port.set", "port.config.set, and port.link.set for the link");
}

}  // namespace lr::dp
