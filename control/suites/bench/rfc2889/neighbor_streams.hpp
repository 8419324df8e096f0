#pragma once
// What the neighbour tests (neighbor_caching, neighbor_reresolution) share: the two devices
// of [rfc2889] (sender_device, hosts_device), the hosts' addresses, and a stream from the
// sender's first host through the device to one of them, both MACs "auto" (from the
// sender's own, to its gateway's, as the hosts resolved them).

#include <cstdint>
#include <string>
#include <vector>

#include "control/suites/bench/rfc2889/plan.hpp"

namespace lr::bench::rfc2889 {

/// The profile's [[device]] `name` (validate_rfc2889 refused a profile without it).
const api::DeviceSpec& device_named(const profile::Profile& profile, const std::string& name);
/// Host `index`'s IPv4 address (the device's first plus `index` steps).
uint32_t host_ipv4(const api::DeviceSpec& device, uint32_t index);
std::string ipv4_text(uint32_t address);
/// 64-byte frames from sender_device's first host to `to`, received at hosts_device's port;
/// not caught up after a hold-up (a burst of new destinations is not the rate asked).
api::StreamSpec routed_stream(const Plan& p, const std::string& name, uint32_t to);

/// The profile's devices with hosts_device's count `n` (its first `n` hosts).
std::vector<api::DeviceSpec> devices_with_hosts(const Plan& p, uint32_t n);

}  // namespace lr::bench::rfc2889
