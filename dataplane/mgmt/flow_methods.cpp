#include "dataplane/mgmt/flow_methods.hpp"

#include "lib/api/flow_report.hpp"
#include "dataplane/mgmt/port_control_lookups.hpp"
#include "dataplane/mgmt/rpc_result.hpp"
#include "dataplane/port/flow/flow_rule.hpp"

namespace lr::dp {

using api::RpcCode;
using api::RpcError;
using nlohmann::json;

void register_flow_methods(Dispatcher& d, PortControls& ports, PortOwnership& ownership) {
  d.add("flow.validate",
        "Checks a flow rule with the PMD without creating it: params {port, rule} (the flow language: "
        "\"pattern eth / udp dst is 4791 actions queue index 1 / count\").",
        false, [&](Session&, const api::Params& p) {
          PortControl& port = control_named(ports, p);
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
          return to_json(api::FlowChange{port.name(), "ethdev", id, std::nullopt});
        });
  d.add("flow.list", "The port's flow rules with their counters (rules with a count action). params: {port}.", false,
        [&](Session&, const api::Params& p) {
          PortControl& port = control_named(ports, p);
          api::FlowList list{port.name(), "ethdev", {}};
          list.rules = port.flows().list();
          return to_json(list);
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
          return to_json(api::FlowChange{port.name(), "ethdev", std::nullopt, value_or_throw(port.flows().flush())});
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
}

}  // namespace lr::dp
