#include "dataplane/eal/eal_args.hpp"

#include <fmt/format.h>
#include <sched.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <optional>
#include <regex>
#include <string_view>

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
  const bool huge = eal.huge_pages == profile::HugePages::kOn ||
                    (eal.huge_pages == profile::HugePages::kAuto && hugepages_free);
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
  for (const profile::PortCfg& port : profile.ports) add_device(port.device);
  for (const profile::SwitchCfg& sw : profile.switches)
    for (const profile::SwitchPortCfg& port : sw.ports) add_device(port.device);
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

std::vector<unsigned> usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<unsigned> out;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return out;
  for (unsigned cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) out.push_back(cpu);
  return out;
}

namespace {

// "0-2,4" as CPU numbers; none when it is not such a list.
std::optional<std::vector<unsigned>> cpu_list(std::string_view text) {
  std::vector<unsigned> out;
  while (!text.empty()) {
    const std::string_view item = text.substr(0, text.find(','));
    text.remove_prefix(std::min(text.size(), item.size() + 1));
    const auto number = [](std::string_view digits) -> std::optional<unsigned> {
      unsigned v = 0;
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
      if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty()) return std::nullopt;
      return v;
    };
    const size_t dash = item.find('-');
    const auto first = number(item.substr(0, dash));
    const auto last = dash == std::string_view::npos ? first : number(item.substr(dash + 1));
    if (!first || !last || *last < *first || *last - *first > 4096) return std::nullopt;
    for (unsigned cpu = *first; cpu <= *last; ++cpu) out.push_back(cpu);
  }
  return out;
}

// 0,1,2,5 as "0-2,5".
std::string ranges_text(const std::vector<unsigned>& cpus) {
  std::string out;
  for (size_t i = 0; i < cpus.size();) {
    size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + (j == i ? std::to_string(cpus[i]) : fmt::format("{}-{}", cpus[i], cpus[j]));
    i = j + 1;
  }
  return out;
}

}  // namespace

std::string lcores_problem(const std::string& lcores, const std::vector<unsigned>& usable) {
  if (lcores.find_first_of("@(") != std::string::npos) return "";
  const std::optional<std::vector<unsigned>> cpus = cpu_list(lcores);
  if (!cpus || cpus->empty())
    return fmt::format("'{}' is not a list of CPUs: write e.g. \"0-1\" or \"0,2,4\" (the first runs the control "
                       "thread, the others traffic)", lcores);
  for (unsigned cpu : *cpus)
    if (std::find(usable.begin(), usable.end(), cpu) == usable.end())
      return fmt::format("CPU {} is not one this process may run on (it may use {}): name lcores among those, e.g. "
                         "\"{}\"", cpu, usable.empty() ? std::string("none") : ranges_text(usable),
                         ranges_text(std::vector<unsigned>(usable.begin(), usable.begin() + std::min<size_t>(usable.size(),
                                                                                                         cpus->size()))));
  return "";
}

}  // namespace lr::dp
