#pragma once
// What a field engineer checks of a NIC's PCIe side beyond its own link: the kernel's own
// word on the bandwidth the path to the root port leaves it ("... available PCIe bandwidth,
// limited by ... at <bridge>", a riser or a switch narrower than the slot), the function's
// MaxPayload and MaxReadReq from its config space, and irqbalance moving interrupts.
// Pure over HostFs.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "control/suites/doctor/host_checks.hpp"

namespace lr::doctor {

/// The PCIe Device Control fields of a function's config space.
struct PcieDeviceControl {
  unsigned max_payload_bytes = 0;       ///< 128..4096
  unsigned max_read_request_bytes = 0;  ///< 128..4096
};

/// From the config space bytes (at least the capability list and the PCIe capability);
/// nullopt when they do not hold one (64 bytes: read without root).
std::optional<PcieDeviceControl> pcie_device_control(const std::vector<uint8_t>& config);

/// The kernel's "available PCIe bandwidth, limited by ..." line for the function among the
/// kernel log's records (/dev/kmsg), when it printed one (it does when the path gives less
/// than the function can use).
std::optional<std::string> kernel_bandwidth_line(const std::vector<std::string>& kmsg, const std::string& pci);

/// MaxReadReq and MaxPayload of the function carrying `port`; a ConnectX at 40G and above
/// wants MaxReadReq 4096. `need_bps`: what its slot carries.
Finding check_read_request(const HostFs& fs, const PortToCheck& port, uint64_t need_bps);

/// The kernel's bandwidth line for the port's function: its limit below the ports' need
/// fails, a limit upstream of the NIC (a riser or switch) warns.
Finding check_path_bandwidth(const HostFs& fs, const PortToCheck& port, uint64_t need_bps);

/// The fix when the narrowest link on the NIC's path is a bridge's above it: `link` as
/// "8.0 GT/s PCIe x8".
std::string upstream_link_fix(const std::string& bridge, const std::string& link);

/// irqbalance running moves the NICs' interrupts, onto the worker CPUs too.
Finding check_irqbalance(const HostFs& fs);

}  // namespace lr::doctor
