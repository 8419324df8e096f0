#pragma once
// A device's JSON form, the unit of device.load and device.list: an object with the keys
// of a profile's [[device]] table and their text forms ("02:00:00:00:01:01", "198.18.0.1",
// "::1"), so config/README.md is its schema in a file and on the wire alike. Read through
// the [[device]] table's own reader: the same checks, the same messages.

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "lib/api/host_spec.hpp"
#include "lib/profile/profile.hpp"

namespace lr::profile {

/// name, port, mac, count and mac_step always; vlan, ipv4 (address, prefix, gateway if
/// any) and ipv6 where the device has them, each with its step.
nlohmann::json to_json(const api::DeviceSpec& device);
nlohmann::json to_json(const std::vector<api::DeviceSpec>& devices);

/// Devices from their JSON form (an array of objects) replacing `running`'s: each read as
/// a [[device]] table against `running`'s ports, the names distinct, the hosts distinct
/// on each port and VLAN, at most kMaxProfileHosts in all. Errors name "devices[i].key"
/// in `where` ("params: key 'devices[1].mac': ..."). Throws ConfigError.
std::vector<api::DeviceSpec> devices_from_json(const nlohmann::json& devices, const std::string& where,
                                               const Profile& running);

}  // namespace lr::profile
