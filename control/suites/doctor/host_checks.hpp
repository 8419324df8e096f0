#pragma once
// The host doctor's checks: what keeps a port from line rate outside the NIC, each as
// findings with the evidence read and the fix. Pure over HostFs, so every verdict is
// tested on fixture trees.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "control/suites/doctor/finding.hpp"
#include "control/suites/doctor/host_fs.hpp"

namespace lr::doctor {

struct PortToCheck {
  std::string name;      ///< the profile's name, or the address
  std::string pci;       ///< "0000:3b:00.0"; empty: a virtual device
  std::string device;    ///< as the profile writes it, for messages
  uint64_t speed_bps = 0;  ///< 0: unknown (the netdev's speed is read when there is one)
};

struct DoctorInput {
  std::optional<std::set<unsigned>> worker_cpus;  ///< nullopt: not known (no profile, or unreadable lcores)
  std::string lcores;                             ///< as written, for messages
  std::vector<PortToCheck> ports;                 ///< empty: every NIC found is checked
  std::optional<unsigned> gid_index;              ///< the RoCE GID index the RDMA application uses (perftest -x)
  bool hugepages_wanted = true;                   ///< false: the profile runs without them (huge_pages = "off")
  bool pod = false;  ///< inside a Kubernetes pod: check_pod too
};

/// Reserved, free, mounted (/proc/mounts: in a pod, its container's), on the ports' nodes;
/// `pod`: a mount missing is fixed in the pod spec, not on the host.
Findings check_hugepages(const HostFs& fs, const std::set<int>& port_nodes, bool pod = false);
Finding check_isolation(const HostFs& fs, const DoctorInput& input);
Finding check_governor(const HostFs& fs, const DoctorInput& input);
/// NUMA node, PCIe link against the rate the slot must carry, ASPM, driver and IOMMU.
/// `slot_bps`: the speed of every port checked in the same slot (bus:device) together. A
/// VF's link is its PF's, and is judged as such.
Findings check_pci_port(const HostFs& fs, const PortToCheck& port, const DoctorInput& input, uint64_t slot_bps);
/// A virtual device: the kernel netdev it opens by name (af_packet, af_xdp `iface=`) must
/// exist in this network namespace; other virtual devices have nothing to check.
Finding check_virtual_port(const HostFs& fs, const PortToCheck& port);
/// How the doctor's items name a port: "east (0000:3b:00.0)", or the address alone.
std::string port_label(const PortToCheck& port);

/// The NUMA node of each CPU, from /sys/devices/system/node/node*/cpulist.
std::map<unsigned, int> cpu_nodes(const HostFs& fs);

/// The NUMA node of a PCI device, -1 when the host has one node or does not say.
int pci_numa_node(const HostFs& fs, const std::string& pci);

/// The function whose PCIe link carries `pci`'s traffic: its PF for an SR-IOV VF, else itself.
std::string link_function(const HostFs& fs, const std::string& pci);

/// Every check, in the order a reader works through them: host, then each port.
Findings run_doctor(const HostFs& fs, DoctorInput input);

}  // namespace lr::doctor
