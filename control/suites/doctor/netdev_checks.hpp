#pragma once
// The host doctor's checks of what sits beside each port in the kernel, as sysfs and
// procfs show it: the netdev's interrupts against the worker lcores, the driver and
// firmware versions, and for RoCE the RDMA device's GID table, its port counters and ECN,
// the MTU along the ports, and recent mlx5 errors in the kernel log. Pure over HostFs.

#include <optional>
#include <string>

#include "control/suites/doctor/host_checks.hpp"

namespace lr::doctor {

/// The kernel netdev of a PCI function ("eth2"), nullopt when it has none (vfio-pci).
std::optional<std::string> pci_netdev(const HostFs& fs, const std::string& pci);
/// The RDMA device of a PCI function ("mlx5_0"), nullopt when it has none.
std::optional<std::string> pci_rdma_device(const HostFs& fs, const std::string& pci);

/// IRQ affinity, driver and firmware versions; with an RDMA device its GIDs (and
/// `input.gid_index`), port counters and ECN.
Findings check_port_kernel_side(const HostFs& fs, const PortToCheck& port, const DoctorInput& input);

/// Across the ports: the same RoCE v2 GID on two of them, and MTUs that differ.
Findings check_across_ports(const HostFs& fs, const DoctorInput& input);

/// mlx5 errors in the kernel log (/dev/kmsg), the last few.
Finding check_kernel_log(const HostFs& fs);

}  // namespace lr::doctor
