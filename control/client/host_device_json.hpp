#pragma once
// A profile's [[device]] as device.load takes it: an object with the table's keys and their
// text forms ("02:00:00:00:01:01", "198.18.0.1", "::1"), written from the DeviceSpec's
// fields. The first host's MAC, the name, the port and the count are always written; a
// VLAN, an address family and their steps only where the device has them (the table
// refuses a step without what it steps). Where the spec was read from is not sent: the
// data plane names a device's keys by its index ("devices[1].mac").

#include <nlohmann/json.hpp>

#include <vector>

#include "lib/api/host_spec.hpp"

namespace lr::ctl {

nlohmann::json to_device_json(const api::DeviceSpec& device);
/// An array, in the profile's order.
nlohmann::json to_device_json(const std::vector<api::DeviceSpec>& devices);

}  // namespace lr::ctl
