#pragma once
// The host doctor's checks of a port's link through its kernel netdev (ethtool ioctls and
// netlink, not sysfs): the speed it came up at against what both ends advertise, the
// active FEC, the module's DDM against its own thresholds and the field's rules of thumb,
// and FEC corrections that keep growing. Over KernelNetdev, so the tests answer as an mlx5
// netdev would through the kernel-interface fake.

#include <cstdint>
#include <optional>
#include <string>

#include "control/suites/doctor/finding.hpp"
#include "lib/host/kernel/kernel_netdev.hpp"

namespace lr::doctor {

/// FEC blocks as the netdev counts them at one moment (nullopt: the driver lacks it).
struct FecReading {
  std::optional<uint64_t> corrected;
  std::optional<uint64_t> uncorrectable;
};

FecReading read_fec(dp::KernelNetdev& netdev);

/// Link against advertisements, FEC active, module DDM, and for a RoCE port (`roce`: it has
/// an RDMA device) PFC from the netdev's DCB. `who`: "east (0000:3b:00.0)".
Findings check_netdev_link(dp::KernelNetdev& netdev, const std::string& who, bool roce = false);

/// FEC corrections over `seconds`: more than 1,000 corrected blocks a minute warns (a
/// link that is degrading), one uncorrectable block fails.
Finding check_fec_growth(const std::string& who, const FecReading& before, const FecReading& after, double seconds);

}  // namespace lr::doctor
