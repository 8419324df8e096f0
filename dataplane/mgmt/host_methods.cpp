#include "dataplane/mgmt/host_methods.hpp"

#include <fmt/format.h>

#include <set>

#include "dataplane/mgmt/rpc_result.hpp"
#include "lib/api/neighbor_report.hpp"
#include "lib/profile/device_spec_json.hpp"
#include "lib/profile/load_toml.hpp"

namespace lr::dp {

using api::RpcCode;
using api::RpcError;
using nlohmann::json;

namespace {

json load_devices(Engine& engine, const PortOwnership& ownership, const Session& session, const api::Params& p) {
  if (!p.has("devices"))
    throw RpcError(RpcCode::kInvalidParams,
                   "params: give devices, an array of device objects with the [[device]] "
                   "table's keys ([] removes every host)");
  std::vector<api::DeviceSpec> devices;
  try {
    devices = lr::profile::devices_from_json(p.raw("devices"), p.optional_string("path").value_or("params"),
                                             engine.profile());
  } catch (const lr::profile::ConfigError& error) {
    throw RpcError(RpcCode::kInvalidParams, error.what());
  }
  // The hosts of a port answer for it and send from it: old and new ports alike change.
  std::set<std::string> ports;
  for (const api::DeviceSpec& d : engine.profile().devices) ports.insert(d.first.port);
  for (const api::DeviceSpec& d : devices) ports.insert(d.first.port);
  for (const std::string& port : ports) ownership.check_may_change(session, port);
  const uint32_t hosts = value_or_throw(engine.set_devices(devices));
  json names = json::array();
  for (const api::DeviceSpec& d : devices) names.push_back(d.name);
  return json{{"devices", names}, {"hosts", hosts}};
}

}  // namespace

void register_host_methods(Dispatcher& d, Engine& engine, PortOwnership& ownership) {
  d.add("device.load",
        "Replaces the emulated hosts. Not while traffic runs. params {devices: [device], path?}: objects with a "
        "profile's [[device]] keys ({\"name\": \"a\", \"port\": \"p0\", \"mac\": \"02:00:00:00:01:01\", \"ipv4\": "
        "{\"address\": \"198.18.0.1\", \"prefix\": 24, \"gateway\": \"198.18.0.254\"}, \"count\": 1}); [] removes "
        "them. The hosts announce themselves and resolve their gateways at once; a port gets a TX queue of theirs "
        "(a started port is restarted for it). Returns {devices: [names], hosts}.",
        true, [&](Session& session, const api::Params& p) { return load_devices(engine, ownership, session, p); });
  d.add("device.list", "The emulated hosts' devices, in the form device.load takes: {devices: [device]}.", false,
        [&](Session&, const api::Params&) {
          return json{{"devices", lr::profile::to_json(engine.profile().devices)}};
        });
  d.add("neighbors.list",
        "Per port with emulated hosts: the slow path's counts (answered, no_reply, not_for_us, malformed, "
        "unsupported, dropped: ring full, sent, send_failed), each neighbour they resolve (host, address, role: "
        "gateway or on-link, state, MAC, tries, resolved_at) and the latest events. params {port?}.",
        false, [&](Session&, const api::Params& p) {
          return api::to_json(value_or_throw(engine.neighbors(p.optional_string("port"))));
        });
}

}  // namespace lr::dp
