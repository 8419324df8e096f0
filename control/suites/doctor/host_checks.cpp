#include "control/suites/doctor/host_checks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <map>
#include <regex>
#include <sstream>

#include "control/suites/doctor/netdev_checks.hpp"
#include "control/suites/doctor/pcie_checks.hpp"
#include "control/suites/doctor/pod_checks.hpp"
#include "lib/host/cpu_list.hpp"

namespace lr::doctor {

using host::parse_cpu_list;
using host::cpu_list_text;

const char* verdict_name(Verdict verdict) noexcept {
  switch (verdict) {
    case Verdict::kOk: return "OK";
    case Verdict::kWarn: return "WARN";
    case Verdict::kFail: return "FAIL";
    case Verdict::kSkipped: return "SKIPPED";
  }
  return "?";
}

namespace {

// "HugePages_Free:    1024" -> 1024, from /proc/meminfo's text.
std::optional<uint64_t> meminfo_value(const std::string& meminfo, const std::string& key) {
  std::istringstream lines(meminfo);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(key + ":", 0) != 0) continue;
    return std::strtoull(line.c_str() + key.size() + 1, nullptr, 10);
  }
  return std::nullopt;
}

// "8.0 GT/s PCIe" -> 8.0
double gt_per_s(const std::string& text) { return std::strtod(text.c_str(), nullptr); }

// Usable Gbit/s of a PCIe link after its line coding (8b/10b up to 5 GT/s, 128b/130b above).
double link_gbps(double gt, unsigned width) { return gt * (gt <= 5.0 ? 0.8 : 128.0 / 130.0) * width; }

const char* pcie_gen(double gt) {
  if (gt >= 64) return "Gen6";
  if (gt >= 32) return "Gen5";
  if (gt >= 16) return "Gen4";
  if (gt >= 8) return "Gen3";
  if (gt >= 5) return "Gen2";
  return "Gen1";
}

// The speed the port's kernel netdev reports (Mb/s in sysfs), when it has one.
uint64_t netdev_speed_bps(const HostFs& fs, const std::string& base) {
  for (const std::string& ifname : fs.list(base + "/net"))
    if (const auto speed = fs.read("/sys/class/net/" + ifname + "/speed")) {
      const long mbps = std::atol(speed->c_str());
      if (mbps > 0) return static_cast<uint64_t>(mbps) * 1'000'000;
    }
  return 0;
}

bool is_nic_driver(const std::string& driver) {
  for (const char* known : {"mlx5_core", "i40e", "ice", "ixgbe", "bnxt_en", "vfio-pci", "uio_pci_generic", "igb_uio"})
    if (driver == known) return true;
  return false;
}

}  // namespace

namespace {

// With 2 MiB pages the default: are 1 GiB pages reserved where the CPU has them? A 40G
// port's mbuf pools (hundreds of MiB) then take a few TLB entries, not hundreds.
Finding check_gigabyte_pages(const HostFs& fs) {
  constexpr const char* kReserved = "/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages";
  Finding f{"1 GiB hugepages", Verdict::kOk, "", ""};
  if (const auto text = fs.read(kReserved); text && std::strtoull(text->c_str(), nullptr, 10) > 0) {
    f.evidence = fmt::format("{} reserved ({}), beside the 2 MiB default: DPDK takes both",
                             std::strtoull(text->c_str(), nullptr, 10), kReserved);
    return f;
  }
  const auto cpuinfo = fs.read("/proc/cpuinfo");
  if (!cpuinfo) return {f.item, Verdict::kSkipped, "/proc/cpuinfo cannot be read", ""};
  if (cpuinfo->find(" pdpe1gb") == std::string::npos) {
    f.evidence = "the CPU has no 1 GiB pages (no pdpe1gb flag in /proc/cpuinfo): 2 MiB pages are the largest";
    return f;
  }
  return {f.item, Verdict::kWarn,
          fmt::format("the CPU has 1 GiB pages (pdpe1gb in /proc/cpuinfo) but none are reserved ({} missing or 0): "
                      "only 2 MiB pages, so a port's mbuf pools span hundreds of TLB entries",
                      kReserved),
          "boot with default_hugepagesz=1G hugepagesz=1G hugepages=4 on the kernel command line (or echo 4 > "
          "/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages early, while memory is not yet fragmented)"};
}

}  // namespace

std::map<unsigned, int> cpu_nodes(const HostFs& fs) {
  std::map<unsigned, int> out;
  for (const std::string& entry : fs.list("/sys/devices/system/node")) {
    if (entry.rfind("node", 0) != 0) continue;
    const int node = std::atoi(entry.c_str() + 4);
    if (const auto list = fs.read("/sys/devices/system/node/" + entry + "/cpulist"))
      if (const auto cpus = parse_cpu_list(*list))
        for (unsigned cpu : *cpus) out[cpu] = node;
  }
  return out;
}

Findings check_hugepages(const HostFs& fs, const std::set<int>& port_nodes, bool pod) {
  Findings out;
  const auto meminfo = fs.read("/proc/meminfo");
  if (!meminfo) return {{"hugepages", Verdict::kSkipped, "/proc/meminfo cannot be read", ""}};
  const uint64_t total = meminfo_value(*meminfo, "HugePages_Total").value_or(0);
  const uint64_t free = meminfo_value(*meminfo, "HugePages_Free").value_or(0);
  const uint64_t size_kb = meminfo_value(*meminfo, "Hugepagesize").value_or(0);
  const std::string evidence =
      fmt::format("HugePages_Free {} of {} ({} kB pages, {} MiB free) in /proc/meminfo", free, total, size_kb,
                  free * size_kb / 1024);
  const std::string fix = "scripts/setup.sh reserves them (LR_HUGEPAGES=N), or: echo 1024 > "
                          "/proc/sys/vm/nr_hugepages and mount hugetlbfs on /dev/hugepages";
  if (total == 0) out.push_back({"hugepages", Verdict::kFail, evidence, fix});
  else if (free * size_kb < 512 * 1024)
    out.push_back({"hugepages", Verdict::kWarn, evidence + ": less than a data plane's default 512 MiB", fix});
  else out.push_back({"hugepages", Verdict::kOk, evidence, ""});

  if (total > 0) {
    const auto mounts = fs.read("/proc/mounts");
    if (!mounts) out.push_back({"hugetlbfs mount", Verdict::kSkipped, "/proc/mounts cannot be read", ""});
    else if (mounts->find(" hugetlbfs ") == std::string::npos)
      out.push_back({"hugetlbfs mount", Verdict::kFail, "no hugetlbfs in /proc/mounts",
                     pod ? "mount an emptyDir with medium: HugePages at /dev/hugepages, and request hugepages-1Gi "
                           "(or -2Mi) equal to its limit"
                         : "mount -t hugetlbfs nodev /dev/hugepages (scripts/setup.sh does)"});
    else out.push_back({"hugetlbfs mount", Verdict::kOk, "hugetlbfs in /proc/mounts", ""});
  }
  if (total > 0 && size_kb == 2048) out.push_back(check_gigabyte_pages(fs));
  // Memory for a port's queues comes from its own node: pages elsewhere do not help it.
  for (int node : port_nodes) {
    if (node < 0) continue;
    const std::string path = fmt::format("/sys/devices/system/node/node{}/hugepages/hugepages-{}kB/free_hugepages",
                                         node, size_kb);
    const auto text = fs.read(path);
    if (!text) continue;
    const uint64_t node_free = std::strtoull(text->c_str(), nullptr, 10);
    const std::string item = fmt::format("hugepages on node {}", node);
    if (node_free == 0)
      out.push_back({item, Verdict::kFail, fmt::format("0 free in {}, the node of a port", path),
                     fmt::format("echo 1024 > /sys/devices/system/node/node{}/hugepages/hugepages-{}kB/nr_hugepages",
                                 node, size_kb)});
    else out.push_back({item, Verdict::kOk, fmt::format("{} free in {}", node_free, path), ""});
  }
  return out;
}

Finding check_isolation(const HostFs& fs, const DoctorInput& input) {
  Finding f{"worker lcores isolated", Verdict::kOk, "", ""};
  if (!input.worker_cpus) {
    f.verdict = Verdict::kSkipped;
    f.evidence = input.lcores.empty() ? "no profile: the worker lcores are not known (--profile FILE)"
                                      : fmt::format("cannot tell the CPUs of lcores '{}'", input.lcores);
    return f;
  }
  const std::set<unsigned>& workers = *input.worker_cpus;
  std::optional<std::set<unsigned>> online;  // none: the host does not say
  if (const auto text = fs.read("/sys/devices/system/cpu/online"))
    if (const auto cpus = parse_cpu_list(*text); cpus && !cpus->empty()) online = cpus;
  if (online) {
    std::set<unsigned> missing;
    std::set_difference(workers.begin(), workers.end(), online->begin(), online->end(),
                        std::inserter(missing, missing.end()));
    if (!missing.empty())
      return {f.item, Verdict::kFail,
              fmt::format("worker CPUs {} of lcores '{}' are not CPUs of this host (online: {}, "
                          "/sys/devices/system/cpu/online)",
                          cpu_list_text(missing), input.lcores, cpu_list_text(*online)),
              fmt::format("[eal] lcores on the CPUs this host has ({}); the data plane refuses the profile too",
                          cpu_list_text(*online))};
  }
  const auto isolated = parse_cpu_list(fs.read("/sys/devices/system/cpu/isolated").value_or(""));
  const auto nohz = parse_cpu_list(fs.read("/sys/devices/system/cpu/nohz_full").value_or(""));
  std::set<unsigned> shared;
  for (unsigned cpu : workers)
    if (!isolated || !isolated->contains(cpu)) shared.insert(cpu);
  f.evidence = fmt::format("worker CPUs {}; isolated: {}; nohz_full: {} (/sys/devices/system/cpu)", cpu_list_text(workers),
                           isolated && !isolated->empty() ? cpu_list_text(*isolated) : "none",
                           nohz && !nohz->empty() ? cpu_list_text(*nohz) : "none");
  if (shared.empty()) return f;
  f.verdict = Verdict::kWarn;
  f.evidence += fmt::format(": CPUs {} share their time with the kernel and other processes", cpu_list_text(shared));
  // Never advise isolating CPU 0 (the kernel's housekeeping, and the main lcore's by default)
  // or every CPU the host has: the kernel and the main lcore need one.
  std::set<unsigned> advise = workers;
  advise.erase(0);
  const auto outside = [&](const std::set<unsigned>& taken) {
    return online && std::any_of(online->begin(), online->end(), [&](unsigned c) { return !taken.contains(c); });
  };
  if (advise.empty()) {
    f.fix = "the workers run on CPU 0, the kernel's: move them to other CPUs ([eal] lcores) and isolate those";
  } else if (online && !outside(advise)) {
    f.fix = fmt::format("this host's CPUs{} all run workers: isolating them would leave none for the kernel and the "
                        "main lcore; isolation needs a host with more CPUs than workers",
                        online ? " (" + cpu_list_text(*online) + ")" : "");
  } else {
    f.fix = fmt::format("boot with isolcpus={0} nohz_full={0} rcu_nocbs={0}", cpu_list_text(advise));
    if (workers.contains(0))
      f.fix += !online || outside(workers) ? "; CPU 0 stays the kernel's: move the worker on it to another CPU ([eal] lcores)"
                                : "; CPU 0 stays the kernel's, and this host has no other CPU for the worker on it";
  }
  return f;
}

Finding check_governor(const HostFs& fs, const DoctorInput& input) {
  Finding f{"CPU frequency governor", Verdict::kOk, "", ""};
  if (!input.worker_cpus) return {f.item, Verdict::kSkipped, "the worker lcores are not known (--profile FILE)", ""};
  std::vector<std::string> slow, read;
  for (unsigned cpu : *input.worker_cpus) {
    const auto governor = fs.read(fmt::format("/sys/devices/system/cpu/cpu{}/cpufreq/scaling_governor", cpu));
    if (!governor) continue;
    read.push_back(fmt::format("cpu{} {}", cpu, *governor));
    if (*governor != "performance") slow.push_back(fmt::format("cpu{} {}", cpu, *governor));
  }
  if (read.empty())
    return {f.item, Verdict::kSkipped, "no cpufreq in /sys/devices/system/cpu/cpu*/cpufreq (a VM, or the firmware owns it)", ""};
  f.evidence = fmt::format("{}", fmt::join(read, ", "));
  if (!slow.empty()) {
    f.verdict = Verdict::kWarn;
    f.evidence = fmt::format("{}: a poll loop at a lower clock sends fewer frames", fmt::join(slow, ", "));
    f.fix = "cpupower frequency-set -g performance";
  }
  return f;
}

std::string port_label(const PortToCheck& port) {
  return port.name == port.pci ? port.pci : fmt::format("{} ({})", port.name, port.pci);
}

std::string link_function(const HostFs& fs, const std::string& pci) {
  return fs.link_name("/sys/bus/pci/devices/" + pci + "/physfn").value_or(pci);
}

int pci_numa_node(const HostFs& fs, const std::string& pci) {
  const auto node = fs.read("/sys/bus/pci/devices/" + pci + "/numa_node");
  return node ? std::atoi(node->c_str()) : -1;
}

namespace {

// The links above the NIC up to its root port (a riser, a PCIe switch, a bridge wired
// narrower than its slot looks): the narrowest must carry what the ports need. Each
// bridge is a function on the NIC's path in /sys/devices, with its own current link.
Finding check_upstream_links(const HostFs& fs, const PortToCheck& port, uint64_t need_bps) {
  const std::string item = "PCIe links above " + port_label(port);
  const std::string function = link_function(fs, port.pci);
  const auto place = fs.resolved("/sys/bus/pci/devices/" + function);
  if (!place)
    return {item, Verdict::kSkipped, fmt::format("/sys/bus/pci/devices/{} does not lead into /sys/devices", function), ""};
  static const std::regex kFunction(R"([0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])");
  struct Hop {
    std::string name, speed;
    unsigned width;
    double gbps;
  };
  std::vector<Hop> hops;  // from the root port down to the NIC's parent
  std::string dir;
  for (size_t start = 1, end; start < place->size(); start = end + 1) {
    end = place->find('/', start);
    if (end == std::string::npos) end = place->size();
    const std::string name = place->substr(start, end - start);
    dir += "/" + name;
    if (end == place->size() || !std::regex_match(name, kFunction)) continue;  // the NIC itself, or not a function
    const auto speed = fs.read(dir + "/current_link_speed");
    const auto width = fs.read(dir + "/current_link_width");
    const double gt = speed ? gt_per_s(*speed) : 0;
    const auto lanes = static_cast<unsigned>(width ? std::atoi(width->c_str()) : 0);
    if (gt > 0 && lanes > 0) hops.push_back({name, *speed, lanes, link_gbps(gt, lanes)});
  }
  if (hops.empty())
    return {item, Verdict::kOk, fmt::format("no bridge with a link of its own above {} ({})", function, *place), ""};
  const Hop& narrowest = *std::min_element(hops.begin(), hops.end(), [](const Hop& a, const Hop& b) { return a.gbps < b.gbps; });
  std::vector<std::string> path;
  for (const Hop& h : hops) path.push_back(fmt::format("{} {} x{} ({:.1f} Gbit/s)", h.name, h.speed, h.width, h.gbps));
  Finding f{item, Verdict::kOk, fmt::format("root port to NIC: {}", fmt::join(path, ", ")), ""};
  if (need_bps != 0 && narrowest.gbps < static_cast<double>(need_bps) / 1e9) {
    f.verdict = Verdict::kFail;
    f.evidence += fmt::format("; {} carries {:.1f} Gbit/s for ports that need {:g}", narrowest.name, narrowest.gbps,
                              static_cast<double>(need_bps) / 1e9);
    f.fix = upstream_link_fix(narrowest.name, fmt::format("{} x{}", narrowest.speed, narrowest.width));
  }
  return f;
}

// What the evidence of a VF's link checks says first: that they read its PF's.
std::string vf_note(const std::string& pci, const std::string& function) {
  return function == pci ? "" : fmt::format("a VF: its PCIe link is its PF's ({}); ", function);
}

// The PCIe link: what it trained to against what it can, and what the slot must carry.
// A VF has none of its own (the kernel writes Unknown and x0): its traffic rides its PF's.
Finding check_pcie_link(const HostFs& fs, const PortToCheck& port, uint64_t slot_bps) {
  const std::string who = port_label(port);
  const std::string base = "/sys/bus/pci/devices/" + port.pci;
  const std::string function = link_function(fs, port.pci);
  const std::string link_base = "/sys/bus/pci/devices/" + function;
  const std::string via = vf_note(port.pci, function);
  const auto cur_speed = fs.read(link_base + "/current_link_speed");
  const auto cur_width = fs.read(link_base + "/current_link_width");
  const auto max_speed = fs.read(link_base + "/max_link_speed");
  const auto max_width = fs.read(link_base + "/max_link_width");
  Finding link{"PCIe link " + who, Verdict::kOk, "", ""};
  const double gt = cur_speed ? gt_per_s(*cur_speed) : 0, gt_max = max_speed ? gt_per_s(*max_speed) : 0;
  const auto width = static_cast<unsigned>(cur_width ? std::atoi(cur_width->c_str()) : 0);
  const auto width_max = static_cast<unsigned>(max_width ? std::atoi(max_width->c_str()) : 0);
  if (!cur_speed || !cur_width || !max_speed || !max_width) {
    link.verdict = Verdict::kSkipped;
    link.evidence = via + fmt::format("no current_link_speed / width in {}", link_base);
  } else if (gt <= 0 || width == 0) {
    link.verdict = Verdict::kSkipped;
    link.evidence = via + fmt::format("the kernel does not know the link ({}/current_link_speed '{}', width {})", link_base,
                                      *cur_speed, *cur_width);
  } else {
    const double usable = link_gbps(gt, width);
    link.evidence = via + fmt::format("LnkSta {} x{} ({} x{}) against LnkCap {} x{}: {:.1f} Gbit/s after line coding",
                                      *cur_speed, width, pcie_gen(gt), width, *max_speed, width_max, usable);
    const uint64_t need = slot_bps != 0 ? slot_bps : port.speed_bps != 0 ? port.speed_bps : netdev_speed_bps(fs, base);
    const bool downtrained = gt < gt_max || width < width_max;
    if (need != 0) {
      const double need_gbps = static_cast<double>(need) / 1e9;
      link.evidence += fmt::format("; its ports need {:g} Gbit/s, and small frames need about 25 % more for "
                                   "descriptors and headers", need_gbps);
      if (usable < need_gbps) link.verdict = Verdict::kFail;
      else if (usable < 1.25 * need_gbps) link.verdict = Verdict::kWarn;
    } else {
      link.evidence += "; the ports' speed is not known (set [[port]] speed, or the netdev reports none)";
    }
    if (downtrained && link.verdict == Verdict::kOk) link.verdict = Verdict::kWarn;
    if (link.verdict != Verdict::kOk)
      link.fix = downtrained ? fmt::format("the link trained below what the NIC can ({} x{}): reseat it in a x{} slot "
                                           "wired for {} (lspci -vv: LnkSta), or check the BIOS slot settings",
                                           pcie_gen(gt_max), width_max, width_max, pcie_gen(gt_max))
                             : "move the NIC to a wider or faster slot, or use fewer ports of it at once";
  }
  return link;

}

// ASPM L1: the link sleeps between bursts and takes microseconds to wake. `pcie_aspm=off`
// only stops the kernel from touching ASPM: what the firmware set stays.
Finding check_aspm(const HostFs& fs, const PortToCheck& port) {
  const std::string who = port_label(port);
  const std::string function = link_function(fs, port.pci);
  const std::string link_base = "/sys/bus/pci/devices/" + function;
  const std::string via = vf_note(port.pci, function);
  const std::string l1_off = "boot with pcie_aspm.policy=performance (pcie_aspm=off leaves the firmware's setting)";
  if (const auto aspm = fs.read(link_base + "/link/l1_aspm")) {
    if (*aspm == "1")
      return {"PCIe ASPM " + who, Verdict::kWarn, via + fmt::format("L1 ASPM enabled ({}/link/l1_aspm = 1)", link_base),
              fmt::format("echo 0 > {}/link/l1_aspm, or {}", link_base, l1_off)};
    return {"PCIe ASPM " + who, Verdict::kOk, via + fmt::format("L1 ASPM off ({}/link/l1_aspm)", link_base), ""};
  }
  return {"PCIe ASPM " + who, Verdict::kSkipped,
          via + fmt::format("no {}/link/l1_aspm: the kernel does not control ASPM here (booted with pcie_aspm=off, "
                            "built without CONFIG_PCIEASPM, or before 5.5), so the firmware's setting stands unseen",
                            link_base),
          "to be sure L1 is off: " + l1_off};
}

}  // namespace

Findings check_pci_port(const HostFs& fs, const PortToCheck& port, const DoctorInput& input, uint64_t slot_bps) {
  Findings out;
  const std::string base = "/sys/bus/pci/devices/" + port.pci;
  const std::string who = port_label(port);
  if (!fs.exists(base))
    return {{"port " + who, Verdict::kFail, fmt::format("no PCI device {} in /sys/bus/pci/devices", port.pci),
             "check the address: lspci -D, or dpdk-devbind.py --status"}};

  // NUMA: a port served from another socket crosses the inter-socket link for every frame.
  const int node = pci_numa_node(fs, port.pci);
  Finding numa{"NUMA " + who, Verdict::kOk, "", ""};
  if (node < 0) {
    numa.verdict = Verdict::kSkipped;
    numa.evidence = "numa_node is -1: one node, or the firmware does not say";
  } else if (!input.worker_cpus) {
    numa.verdict = Verdict::kSkipped;
    numa.evidence = fmt::format("the NIC is on node {}; the worker lcores are not known (--profile FILE)", node);
  } else {
    const auto nodes = cpu_nodes(fs);
    std::set<unsigned> local, remote;
    for (unsigned cpu : *input.worker_cpus) (nodes.contains(cpu) && nodes.at(cpu) == node ? local : remote).insert(cpu);
    numa.evidence = fmt::format("the NIC is on node {} ({}/numa_node); worker CPUs on it: {}; elsewhere: {}", node, base,
                                local.empty() ? "none" : cpu_list_text(local), remote.empty() ? "none" : cpu_list_text(remote));
    const std::string node_cpus = fs.read(fmt::format("/sys/devices/system/node/node{}/cpulist", node)).value_or("?");
    if (local.empty()) {
      numa.verdict = Verdict::kFail;
      numa.evidence += ": every frame crosses the inter-socket link (the classic 28 Gbit/s on a 40G NIC)";
      numa.fix = fmt::format("run the workers on node {}'s CPUs ({}): [eal] lcores", node, node_cpus);
    } else if (!remote.empty()) {
      numa.verdict = Verdict::kWarn;
      numa.fix = fmt::format("keep this port's queues on node {}'s CPUs ({})", node, node_cpus);
    }
  }
  out.push_back(numa);

  out.push_back(check_pcie_link(fs, port, slot_bps));
  out.push_back(check_aspm(fs, port));

  // The driver DPDK reaches the port through.
  const auto driver = fs.link_name(base + "/driver");
  const bool iommu = fs.exists(base + "/iommu_group");
  Finding drv{"driver " + who, Verdict::kOk, "", ""};
  if (!driver) {
    drv = {drv.item, Verdict::kFail, fmt::format("no driver bound ({}/driver)", base),
           fmt::format("dpdk-devbind.py -b vfio-pci {} (mlx5: load mlx5_core)", port.pci)};
  } else if (*driver == "mlx5_core") {
    drv.evidence = "mlx5_core: bifurcated, the mlx5 PMD runs beside the kernel driver";
  } else if (*driver == "vfio-pci") {
    drv.evidence = fmt::format("vfio-pci, {}", iommu ? "with an IOMMU group" : "without an IOMMU group");
    if (!iommu) {
      drv.verdict = Verdict::kWarn;
      drv.evidence += " (no-IOMMU mode: DMA is unchecked)";
      drv.fix = "boot with intel_iommu=on iommu=pt (or amd_iommu=on)";
    }
  } else if (*driver == "uio_pci_generic" || *driver == "igb_uio") {
    drv = {drv.item, Verdict::kWarn, *driver + ": no IOMMU protection for the NIC's DMA",
           fmt::format("dpdk-devbind.py -b vfio-pci {}", port.pci)};
  } else {
    drv = {drv.item, Verdict::kFail, fmt::format("bound to the kernel driver {}: DPDK's PMD cannot use it", *driver),
           fmt::format("dpdk-devbind.py -b vfio-pci {}", port.pci)};
  }
  out.push_back(drv);
  return out;
}

Finding check_virtual_port(const HostFs& fs, const PortToCheck& port) {
  // A kernel netdev the device opens by name (af_packet, af_xdp): it must exist here, in
  // this network namespace.
  const size_t at = port.device.find("iface=");
  if (at == std::string::npos)
    return {"port " + port.name, Verdict::kSkipped,
            fmt::format("{} is a virtual device: no PCIe link, NUMA node or driver to check", port.device), ""};
  const std::string iface = port.device.substr(at + 6, port.device.find(',', at) - at - 6);
  if (fs.exists("/sys/class/net/" + iface))
    return {"port " + port.name, Verdict::kOk,
            fmt::format("{} opens the netdev {}, which exists (/sys/class/net/{})", port.device, iface, iface), ""};
  return {"port " + port.name, Verdict::kFail,
          fmt::format("{} opens the netdev {}, which is not in this network namespace (/sys/class/net)", port.device, iface),
          fmt::format("create it, or run in the namespace that has it: ip netns exec NS linerate ... (ip -all netns exec "
                      "ip link show {} finds it)",
                      iface)};
}

Findings run_doctor(const HostFs& fs, DoctorInput input) {
  Findings out;
  // Without ports named, every NIC DPDK could drive that this host has.
  if (input.ports.empty()) {
    std::vector<std::string> others;
    for (const std::string& pci : fs.list("/sys/bus/pci/devices")) {
      const std::string base = "/sys/bus/pci/devices/" + pci;
      if (fs.read(base + "/class").value_or("").rfind("0x0200", 0) != 0) continue;  // Ethernet controllers
      const std::string driver = fs.link_name(base + "/driver").value_or("no driver");
      if (is_nic_driver(driver)) input.ports.push_back({pci, pci, pci, 0});
      else others.push_back(fmt::format("{} ({})", pci, driver));
    }
    if (input.ports.empty())
      out.push_back({"NICs", Verdict::kSkipped,
                     others.empty() ? "no Ethernet controller in /sys/bus/pci/devices"
                                    : fmt::format("no NIC that DPDK drives here; Ethernet devices: {}", fmt::join(others, ", ")),
                     ""});
  }
  std::set<int> nodes;
  // What each slot ("0000:3b:00") must carry: every function's port at the profile's speed,
  // else at the speed its netdev reports; the VFs of a PF share their PF's port (counted once).
  std::map<std::string, uint64_t> function_bps;
  for (const PortToCheck& p : input.ports) {
    if (p.pci.empty()) continue;
    nodes.insert(pci_numa_node(fs, p.pci));
    const uint64_t speed = p.speed_bps != 0 ? p.speed_bps : netdev_speed_bps(fs, "/sys/bus/pci/devices/" + p.pci);
    uint64_t& function = function_bps[link_function(fs, p.pci)];
    function = std::max(function, speed);
  }
  std::map<std::string, uint64_t> slot_bps;
  for (const auto& [function, bps] : function_bps) slot_bps[function.substr(0, function.rfind('.'))] += bps;
  const auto slot_of = [&](const PortToCheck& p) {
    const std::string function = link_function(fs, p.pci);
    return slot_bps[function.substr(0, function.rfind('.'))];
  };
  if (input.hugepages_wanted) {
    for (Finding& f : check_hugepages(fs, nodes, input.pod)) out.push_back(std::move(f));
  } else {
    out.push_back({"hugepages", Verdict::kSkipped, "the profile runs without hugepages ([eal] huge_pages = \"off\")", ""});
  }
  out.push_back(check_isolation(fs, input));
  out.push_back(check_governor(fs, input));
  if (input.pod)
    for (Finding& f : check_pod(fs, input, nodes)) out.push_back(std::move(f));
  for (const PortToCheck& p : input.ports) {
    if (p.pci.empty()) {
      out.push_back(check_virtual_port(fs, p));
      continue;
    }
    const uint64_t slot = slot_of(p);
    for (Finding& f : check_pci_port(fs, p, input, slot)) out.push_back(std::move(f));
    if (fs.exists("/sys/bus/pci/devices/" + p.pci)) {
      out.push_back(check_path_bandwidth(fs, p, slot));
      out.push_back(check_upstream_links(fs, p, slot));
      out.push_back(check_read_request(fs, p, slot));
    }
    if (fs.exists("/sys/bus/pci/devices/" + p.pci))
      for (Finding& f : check_port_kernel_side(fs, p, input)) out.push_back(std::move(f));
  }
  for (Finding& f : check_across_ports(fs, input)) out.push_back(std::move(f));
  if (std::any_of(input.ports.begin(), input.ports.end(), [](const PortToCheck& p) { return !p.pci.empty(); }))
    out.push_back(check_irqbalance(fs));
  out.push_back(check_kernel_log(fs));
  return out;
}

}  // namespace lr::doctor
