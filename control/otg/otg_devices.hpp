#pragma once
// An OTG config's devices (models 1.60.0: devices[].ethernets[] with their ipv4_addresses
// and ipv6_addresses) as the data plane's emulated hosts: each ethernet becomes one device
// of device.load (a DeviceSpec in its JSON form, lib/profile/device_spec_json.hpp), named as
// the ethernet, one host on the port its connection names, with the ethernet's MAC, VLAN and
// address of each IP version. Its hosts answer ARP, neighbour discovery and echo, and
// resolve their gateways; that is all linerate runs, so the rest is refused at its path:
// several VLANs (QinQ), a second address of one version on an ethernet (a host has one),
// a connection other than a port, a fixed gateway MAC, loopbacks and every protocol (BGP,
// IS-IS, ...), named. Pure, read with the rest of the config (otg_config.hpp).

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "control/otg/otg_json.hpp"

namespace lr::otg {

/// One OTG ethernet: the data plane's device of the same name, whose one host is
/// "NAME[0]" in what neighbors.list answers.
struct OtgEthernet {
  std::string name;
  std::string path;  ///< "devices[0].ethernets[1]", for the data plane's refusals
  std::string port;  ///< the data plane's port (its OTG port's location)
  std::optional<uint16_t> vlan;
  std::optional<std::string> ipv4;  ///< its address as the device object writes it ("198.18.0.1")
  std::optional<std::string> ipv6;  ///< likewise ("2001:db8:a::1")
  bool operator==(const OtgEthernet&) const = default;
};

/// What a name in a flow's tx_rx.device stands for: an ethernet (or the device it is the
/// only ethernet of) or one of its addresses.
struct OtgEndpoint {
  enum class Kind { kEthernet, kIpv4, kIpv6 };
  Kind kind = Kind::kEthernet;
  size_t ethernet = 0;  ///< its place in OtgDevices::ethernets
  bool operator==(const OtgEndpoint&) const = default;
};

// NOLINTBEGIN(bugprone-exception-escape): clang-tidy 16 reports this aggregate's implicit members; they throw only
// std::bad_alloc, as any copy of a container does
struct OtgDevices {
  nlohmann::json load = nlohmann::json::array();  ///< device.load's devices: one per ethernet, in order
  std::vector<OtgEthernet> ethernets;             ///< the same order
  /// By OTG name: the ethernets, their addresses and each device of one ethernet.
  std::map<std::string, OtgEndpoint> endpoints;
  bool operator==(const OtgDevices&) const = default;
};
// NOLINTEND(bugprone-exception-escape)

/// Reads the config's `devices` (absent or null: none) against its ports (OTG port name ->
/// the data plane's port). Problems go to `p`, each with its path.
OtgDevices read_otg_devices(const nlohmann::json& devices, const std::map<std::string, std::string>& ports,
                            Problems& p);

/// device.load's refusal of `devices` as the config's error: "devices: " and the data
/// plane's message, each device it names by place ("devices[1]") said as the config's
/// ethernet it is ("devices[1] is devices[0].ethernets[1] 'e2'").
std::string device_load_refusal(const std::string& message, const OtgDevices& devices);

/// The ethernet a neighbors.list host ("NAME[0]") belongs to: NAME.
std::string ethernet_of_host(const std::string& host);

}  // namespace lr::otg
