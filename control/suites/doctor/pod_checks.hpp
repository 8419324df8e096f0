#pragma once
// The doctor inside a Kubernetes pod: what the kubelet must give an engine for line rate,
// read from the container's own view (its cpuset, its mounts), each with the kubelet or
// pod setting that fixes it (docs/guide/kubernetes.md). Pure over HostFs.

#include <set>

#include "control/suites/doctor/finding.hpp"
#include "control/suites/doctor/host_checks.hpp"
#include "control/suites/doctor/host_fs.hpp"

namespace lr::doctor {

/// CPUs of its own (a Guaranteed pod's cpuset, smaller than the node's: the static CPU
/// manager), on the NUMA node of its ports (`port_nodes`, -1 where unknown: the topology
/// manager), the profile's lcores among them. Hugepages mounted: check_hugepages, whose
/// /proc/mounts is the container's own.
Findings check_pod(const HostFs& fs, const DoctorInput& input, const std::set<int>& port_nodes);

}  // namespace lr::doctor
