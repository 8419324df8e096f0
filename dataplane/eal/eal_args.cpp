#include "dataplane/eal/eal_args.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sched.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <regex>
#include <set>

#include "lib/host/cpu_list.hpp"

namespace lr::dp {

bool is_pci_device(const std::string& device) {
  static const std::regex pci(R"(^([0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7](,.*)?$)");
  return std::regex_match(device, pci);
}

std::string device_port_name(const std::string& device) {
  return device.substr(0, device.find(','));
}

std::vector<std::string> build_eal_args(const profile::Profile& profile, bool hugepages_free) {
  const profile::EalCfg& eal = profile.eal;
  // lib.telemetry: its one warning says that no legacy (v1) socket was made, at every start;
  // the v2 socket (dpdk-telemetry.py) is unaffected.
  std::vector<std::string> args{"linerate-dataplane", "--lcores", eal.lcores, "-m", std::to_string(eal.memory_mb),
                                "--log-level", "lib.eal:warning", "--log-level", "lib.telemetry:error"};
  const bool huge = uses_hugepages(profile, hugepages_free);
  if (huge) {
    args.insert(args.end(), {"--file-prefix", eal.file_prefix});
    if (eal.huge_unlink) args.push_back("--huge-unlink");
  } else {
    // --in-memory is refused with --no-huge; --no-shconf keeps runs independent.
    args.insert(args.end(), {"--no-huge", "--no-shconf"});
  }
  bool any_pci = false;
  const auto add_device = [&](const std::string& device) {
    if (profile::cable_name(device)) return;  // made after EAL initialisation (port/cable.hpp)
    if (is_pci_device(device)) {
      any_pci = true;
      args.insert(args.end(), {"-a", device});
    } else {
      args.push_back("--vdev=" + device);
    }
  };
  for (const api::PortSpec& port : profile.ports) add_device(port.device);
  for (const api::SwitchSpec& sw : profile.switches)
    for (const api::SwitchPortSpec& port : sw.ports) add_device(port.device);
  if (!any_pci) args.push_back("--no-pci");
  args.insert(args.end(), eal.extra_args.begin(), eal.extra_args.end());
  return args;
}

bool host_has_free_hugepages() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  long value = 0;
  while (meminfo >> key >> value) {
    if (key == "HugePages_Free:") return value > 0;
    meminfo.ignore(256, '\n');
  }
  return false;
}

bool uses_hugepages(const profile::Profile& profile, bool hugepages_free) {
  const profile::HugePages h = profile.eal.huge_pages;
  return h == profile::HugePages::kOn || (h == profile::HugePages::kAuto && hugepages_free);
}

std::string hugepage_access_problem(const std::vector<std::string>& mounts, bool root,
                                    const std::function<bool(const std::string&)>& writable) {
  if (root || mounts.empty() || std::any_of(mounts.begin(), mounts.end(), writable)) return "";
  return fmt::format("this user may not map hugepages (it cannot write to {}): run it as root, or give this user "
                     "a hugetlbfs mount it owns and the capabilities DPDK needs (IPC_LOCK, SYS_ADMIN), or set "
                     "[eal] huge_pages = \"off\" (virtual devices run without)",
                     fmt::join(mounts, ", "));
}

std::vector<unsigned> usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<unsigned> out;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return out;
  for (unsigned cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) out.push_back(cpu);
  return out;
}

std::string lcores_problem(const std::string& lcores, const std::vector<unsigned>& usable) {
  if (lcores.find('(') != std::string::npos) return "";  // groups: EAL reads them
  const std::optional<std::set<unsigned>> cpus = host::lcore_cpus(lcores);
  if (!cpus || cpus->empty())
    return fmt::format("'{}' is not a list of lcores: write e.g. \"0-1\", \"0,2,4\" or \"0@0,1@2\" (the first runs the "
                       "control thread, the others traffic)", lcores);
  const std::set<unsigned> may(usable.begin(), usable.end());
  for (unsigned cpu : *cpus) {
    if (may.contains(cpu)) continue;
    std::set<unsigned> instead;
    for (unsigned c : may)
      if (instead.size() < cpus->size()) instead.insert(c);
    return fmt::format("CPU {} is not one this process may run on (it may use {}): name lcores among those, e.g. "
                       "\"{}\"", cpu, may.empty() ? std::string("none") : host::cpu_list_text(may),
                       host::cpu_list_text(instead));
  }
  return "";
}

}  // namespace lr::dp
