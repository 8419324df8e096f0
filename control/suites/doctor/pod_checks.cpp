#include "control/suites/doctor/pod_checks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <sstream>

#include "lib/host/cpu_list.hpp"

namespace lr::doctor {

using host::cpu_list_text;
using host::parse_cpu_list;

namespace {

constexpr const char* kStatus = "/proc/self/status";

// The CPUs this process may run on: its container's cpuset.
std::optional<std::set<unsigned>> allowed_cpus(const HostFs& fs) {
  std::istringstream in(fs.read(kStatus).value_or(""));
  for (std::string line; std::getline(in, line);)
    if (line.rfind("Cpus_allowed_list:", 0) == 0) {
      const size_t from = line.find_first_not_of(" \t", line.find(':') + 1);
      return parse_cpu_list(from == std::string::npos ? "" : line.substr(from));
    }
  return std::nullopt;
}

// The pod's QoS class as its cgroup's path says it: kubelets put Burstable and BestEffort
// pods under a folder of that name, Guaranteed ones under kubepods itself.
std::string qos_class(const HostFs& fs) {
  const std::string cgroup = fs.read("/proc/self/cgroup").value_or("");
  if (cgroup.find("besteffort") != std::string::npos) return "BestEffort";
  if (cgroup.find("burstable") != std::string::npos) return "Burstable";
  return cgroup.find("kubepods") != std::string::npos ? "Guaranteed" : "";
}

Finding own_cpus(const HostFs& fs, const std::set<unsigned>& allowed, const DoctorInput& input) {
  Finding f{"CPUs of its own (pod)", Verdict::kOk, "", ""};
  const auto online_text = fs.read("/sys/devices/system/cpu/online");
  const auto online = online_text ? parse_cpu_list(*online_text) : std::nullopt;
  if (!online || online->empty()) {
    f.verdict = Verdict::kSkipped;
    f.evidence = "/sys/devices/system/cpu/online cannot be read: the node's CPUs are not known";
    return f;
  }
  f.evidence = fmt::format("this container may run on CPUs {} (Cpus_allowed_list, {}) of the node's {}",
                           cpu_list_text(allowed), kStatus, cpu_list_text(*online));
  // The shared pool shrinks while other pods hold CPUs of their own: only a Guaranteed pod's
  // cpuset is its own.
  if (const std::string qos = qos_class(fs); qos == "Burstable" || qos == "BestEffort") {
    f.verdict = Verdict::kFail;
    f.evidence += fmt::format("; the pod is {} (/proc/self/cgroup): its CPUs are the shared pool's", qos);
    f.fix = "the pod: Guaranteed QoS (every container's cpu and memory requests = limits), whole CPUs for the engine";
    return f;
  }
  if (allowed == *online) {
    f.verdict = Verdict::kFail;
    f.evidence += ": the node's shared pool, where other pods run too";
    f.fix =
        "kubelet: cpuManagerPolicy: static (with reservedSystemCPUs); the pod: Guaranteed QoS, whole CPUs "
        "(cpu requests = limits, e.g. \"4\"), as deploy/kubernetes asks";
    return f;
  }
  if (input.worker_cpus) {
    std::set<unsigned> outside;
    for (unsigned cpu : *input.worker_cpus)
      if (!allowed.contains(cpu)) outside.insert(cpu);
    if (!outside.empty()) {
      f.verdict = Verdict::kFail;
      f.evidence +=
          fmt::format("; the profile's lcores ({}) use CPUs {} outside it", input.lcores, cpu_list_text(outside));
      f.fix = "give [eal] lcores the container's CPUs (linerate-engine-start does: @LCORES@)";
    }
  }
  return f;
}

Finding numa_local(const HostFs& fs, const std::set<unsigned>& allowed, const std::set<int>& port_nodes) {
  Finding f{"CPUs on the NIC's NUMA node (pod)", Verdict::kOk, "", ""};
  std::set<int> nics;
  for (int node : port_nodes)
    if (node >= 0) nics.insert(node);
  if (nics.empty()) {
    f.verdict = Verdict::kSkipped;
    f.evidence = "no port's NUMA node is known (one node, virtual devices, or no port named)";
    return f;
  }
  const std::map<unsigned, int> nodes = cpu_nodes(fs);
  std::set<int> cpus_on;
  for (unsigned cpu : allowed)
    if (const auto it = nodes.find(cpu); it != nodes.end()) cpus_on.insert(it->second);
  if (cpus_on.empty()) {
    f.verdict = Verdict::kSkipped;
    f.evidence = "the CPUs' NUMA nodes are not known (/sys/devices/system/node)";
    return f;
  }
  f.evidence = fmt::format("its CPUs {} are on node {}; its ports on node {}", cpu_list_text(allowed),
                           fmt::join(cpus_on, ", "), fmt::join(nics, ", "));
  if (cpus_on != nics) {
    f.verdict = Verdict::kFail;
    f.fix =
        "kubelet: topologyManagerPolicy: single-numa-node (and the SR-IOV device plugin reporting each VF's "
        "NUMA node), so that the CPUs, hugepages and VF come from one node";
  }
  return f;
}

}  // namespace

Findings check_pod(const HostFs& fs, const DoctorInput& input, const std::set<int>& port_nodes) {
  const auto allowed = allowed_cpus(fs);
  if (!allowed)
    return {{"CPUs of its own (pod)", Verdict::kSkipped, fmt::format("no Cpus_allowed_list in {}", kStatus), ""}};
  return {own_cpus(fs, *allowed, input), numa_local(fs, *allowed, port_nodes)};
}

}  // namespace lr::doctor
