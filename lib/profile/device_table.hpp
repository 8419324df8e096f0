#pragma once
// A profile's [[device]] table: emulated hosts on a tester port (a MAC, an optional VLAN,
// IPv4 and IPv6 addresses with their prefixes and gateways), `count` of them with steps.
// Read and checked here (lib/hosts expands the range); a serving data plane's hosts answer
// ARP, neighbour discovery and echo, and send the streams whose eth is "auto".

#include <string_view>

#include "lib/api/host_spec.hpp"
#include "lib/profile/profile.hpp"
#include "lib/profile/table_reader.hpp"

namespace lr::profile {

/// The most hosts a profile's devices hold, all together.
inline constexpr uint32_t kMaxProfileHosts = 65536;

/// The device the table describes, its range expanded and checked (each host's MAC,
/// VLAN and addresses; the first refused is named by its index). Throws ConfigError
/// naming the key and why.
api::DeviceSpec read_device(TableReader& in, const Profile& profile);

/// Refuses hosts of the profile's devices that share a MAC, an IPv4 or an IPv6 address
/// on one port and VLAN, naming both, at the second device's key: "device[i].key" in a
/// profile, `table` naming the array otherwise ("devices" for device.load). Throws
/// ConfigError.
void check_device_hosts(const Profile& profile, std::string_view table = "device");

}  // namespace lr::profile
