#include "control/suites/doctor/netdev_checks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <vector>

#include "lib/host/cpu_list.hpp"

namespace lr::doctor {

using host::parse_cpu_list;
using host::cpu_list_text;

namespace {

// The RDMA device's port numbers ("1").
std::vector<std::string> rdma_ports(const HostFs& fs, const std::string& ibdev) {
  return fs.list("/sys/class/infiniband/" + ibdev + "/ports");
}

bool unused_gid(const std::string& gid) {
  return std::all_of(gid.begin(), gid.end(), [](char c) { return c == '0' || c == ':'; });
}

struct Gid {
  std::string device;  ///< "mlx5_0 port 1"
  unsigned index = 0;
  std::string value;
  std::string type;    ///< "RoCE v2", "IB/RoCE v1"
  std::string netdev;
};

std::vector<Gid> roce_gids(const HostFs& fs, const std::string& ibdev) {
  std::vector<Gid> out;
  for (const std::string& port : rdma_ports(fs, ibdev)) {
    const std::string base = fmt::format("/sys/class/infiniband/{}/ports/{}", ibdev, port);
    for (const std::string& index : fs.list(base + "/gids")) {
      const auto value = fs.read(base + "/gids/" + index);
      if (!value || unused_gid(*value)) continue;
      out.push_back({fmt::format("{} port {}", ibdev, port), static_cast<unsigned>(std::atoi(index.c_str())), *value,
                     fs.read(base + "/gid_attrs/types/" + index).value_or("?"),
                     fs.read(base + "/gid_attrs/ndevs/" + index).value_or("")});
    }
  }
  std::sort(out.begin(), out.end(), [](const Gid& a, const Gid& b) { return a.index < b.index; });
  return out;
}

Finding check_irq_affinity(const HostFs& fs, const PortToCheck& port, const DoctorInput& input, const std::string& netdev) {
  const std::string item = "IRQ affinity " + port_label(port);
  const std::string base = "/sys/bus/pci/devices/" + port.pci + "/msi_irqs";
  const std::vector<std::string> irqs = fs.list(base);
  if (irqs.empty()) return {item, Verdict::kSkipped, fmt::format("no MSI interrupts in {} (vfio-pci holds them, or none)", base), ""};
  if (!input.worker_cpus)
    return {item, Verdict::kSkipped, fmt::format("{} interrupts; the worker lcores are not known (--profile FILE)", irqs.size()), ""};
  std::vector<std::string> on_workers;
  std::set<unsigned> hit;
  for (const std::string& irq : irqs) {
    auto cpus = fs.read("/proc/irq/" + irq + "/effective_affinity_list");
    if (!cpus) cpus = fs.read("/proc/irq/" + irq + "/smp_affinity_list");
    if (!cpus) continue;
    const auto set = parse_cpu_list(*cpus);
    if (!set) continue;
    std::set<unsigned> common;
    std::set_intersection(set->begin(), set->end(), input.worker_cpus->begin(), input.worker_cpus->end(),
                          std::inserter(common, common.end()));
    if (common.empty()) continue;
    on_workers.push_back(fmt::format("{} -> {}", irq, *cpus));
    hit.insert(common.begin(), common.end());
  }
  if (on_workers.empty())
    return {item, Verdict::kOk,
            fmt::format("{} interrupts of {} ({}), none on the worker CPUs {}", irqs.size(), netdev, base,
                        cpu_list_text(*input.worker_cpus)),
            ""};
  return {item, Verdict::kWarn,
          fmt::format("{} of {} interrupts of {} can land on worker CPUs {} (/proc/irq/N/effective_affinity_list: {}): "
                      "each one steals the poll loop's time",
                      on_workers.size(), irqs.size(), netdev, cpu_list_text(hit),
                      fmt::join(on_workers.begin(), on_workers.begin() + std::min<size_t>(on_workers.size(), 4), ", ")),
          fmt::format("stop irqbalance, and write the housekeeping CPUs to /proc/irq/N/smp_affinity_list for {}'s "
                      "interrupts (e.g. mlnx set_irq_affinity_cpulist.sh)",
                      netdev)};
}

// The NIC's interrupts served on another NUMA node than the NIC's: each one's completion
// crosses the inter-socket link, whatever the workers do.
Finding check_irq_node(const HostFs& fs, const PortToCheck& port, const std::string& netdev) {
  const std::string item = "IRQ node " + port_label(port);
  const int node = pci_numa_node(fs, port.pci);
  if (node < 0) return {item, Verdict::kSkipped, "numa_node is -1: one node, or the firmware does not say", ""};
  const std::string node_path = fmt::format("/sys/devices/system/node/node{}/cpulist", node);
  const auto node_cpus = parse_cpu_list(fs.read(node_path).value_or(""));
  const std::vector<std::string> irqs = fs.list("/sys/bus/pci/devices/" + port.pci + "/msi_irqs");
  if (!node_cpus || node_cpus->empty() || irqs.empty())
    return {item, Verdict::kSkipped, fmt::format("no {} or no MSI interrupts", node_path), ""};
  const auto& on_node = *node_cpus;
  std::vector<std::string> elsewhere;
  for (const std::string& irq : irqs) {
    const auto cpus = fs.read("/proc/irq/" + irq + "/effective_affinity_list");
    if (!cpus) continue;
    const auto set = parse_cpu_list(*cpus);
    if (!set || set->empty()) continue;
    if (std::none_of(set->begin(), set->end(), [&](unsigned cpu) { return on_node.contains(cpu); }))
      elsewhere.push_back(fmt::format("{} -> {}", irq, *cpus));
  }
  if (elsewhere.empty())
    return {item, Verdict::kOk,
            fmt::format("{} interrupts of {} served on node {}'s CPUs ({})", irqs.size(), netdev, node,
                        cpu_list_text(*node_cpus)),
            ""};
  return {item, Verdict::kWarn,
          fmt::format("{} of {} interrupts of {} are served off the NIC's node {} ({}): {}", elsewhere.size(), irqs.size(),
                      netdev, node, cpu_list_text(*node_cpus),
                      fmt::join(elsewhere.begin(), elsewhere.begin() + std::min<size_t>(elsewhere.size(), 4), ", ")),
          fmt::format("write node {}'s housekeeping CPUs to /proc/irq/N/smp_affinity_list for {}'s interrupts "
                      "(mlnx set_irq_affinity_bynode.sh {} {})",
                      node, netdev, node, netdev)};
}

Finding check_versions(const HostFs& fs, const PortToCheck& port, const std::optional<std::string>& ibdev) {
  const std::string item = "driver / firmware " + port_label(port);
  const std::string base = "/sys/bus/pci/devices/" + port.pci;
  const auto driver = fs.link_name(base + "/driver");
  if (!driver) return {item, Verdict::kSkipped, fmt::format("no driver bound ({}/driver)", base), ""};
  std::string version = fs.read("/sys/module/" + *driver + "/version").value_or("");
  if (version.empty())
    version = "in-tree, kernel " + fs.read("/proc/sys/kernel/osrelease").value_or("?");
  const std::string firmware_path = ibdev ? "/sys/class/infiniband/" + *ibdev + "/fw_ver" : "";
  const std::string firmware = ibdev ? fs.read(firmware_path).value_or("") : "";
  const std::string evidence =
      fmt::format("{} {}; firmware {}", *driver, version,
                  firmware.empty() ? "not in sysfs (ethtool -i shows it)" : firmware + " (" + firmware_path + ")");
  return {item, Verdict::kOk, evidence, ""};
}

Finding check_gids(const HostFs& fs, const PortToCheck& port, const DoctorInput& input, const std::string& ibdev,
                   const std::string& netdev) {
  const std::string item = "RoCE GIDs " + ibdev;
  const std::vector<Gid> gids = roce_gids(fs, ibdev);
  std::vector<std::string> v2;
  for (const Gid& g : gids)
    if (g.type == "RoCE v2") v2.push_back(fmt::format("{}: {} ({})", g.index, g.value, g.netdev.empty() ? "?" : g.netdev));
  if (v2.empty())
    return {item, Verdict::kFail,
            fmt::format("no RoCE v2 GID in /sys/class/infiniband/{}/ports/*/gids ({} GIDs in all)", ibdev, gids.size()),
            fmt::format("RoCE v2 GIDs follow the netdev's IP addresses: give {} an address (ip addr add ... dev {})",
                        netdev.empty() ? "the port's netdev" : netdev, netdev.empty() ? "IF" : netdev)};
  Finding f{item, Verdict::kOk, fmt::format("RoCE v2: {}", fmt::join(v2, "; ")), ""};
  if (input.gid_index) {
    const auto it = std::find_if(gids.begin(), gids.end(), [&](const Gid& g) { return g.index == *input.gid_index; });
    if (it == gids.end() || it->type != "RoCE v2") {
      f.verdict = Verdict::kFail;
      f.evidence = fmt::format("GID index {} is {}; {}", *input.gid_index,
                               it == gids.end() ? "empty" : "of type " + it->type, f.evidence);
      f.fix = "point the RDMA application at a RoCE v2 index (perftest -x N, NCCL_IB_GID_INDEX) from the list";
    } else {
      f.evidence = fmt::format("GID index {} is RoCE v2; {}", *input.gid_index, f.evidence);
    }
  }
  (void)port;
  return f;
}

Finding check_rdma_counters(const HostFs& fs, const std::string& ibdev) {
  const std::string item = "RDMA counters " + ibdev;
  // Errors a healthy lossless fabric does not have; the congestion counters are evidence only.
  static const std::vector<std::string> kErrors = {
      "out_of_buffer",       "out_of_sequence",     "packet_seq_err",    "local_ack_timeout_err", "rnr_nak_retry_err",
      "implied_nak_seq_err", "req_cqe_error",       "resp_cqe_error",    "duplicate_request",     "port_rcv_errors",
      "port_xmit_discards",  "symbol_error",        "link_downed",       "rx_icrc_encapsulated"};
  static const std::vector<std::string> kCongestion = {"np_cnp_sent", "rp_cnp_handled", "np_ecn_marked_roce_packets"};
  std::vector<std::string> errors, congestion;
  bool any = false;
  for (const std::string& port : rdma_ports(fs, ibdev)) {
    for (const char* dir : {"hw_counters", "counters"}) {
      const std::string base = fmt::format("/sys/class/infiniband/{}/ports/{}/{}", ibdev, port, dir);
      for (const std::string& name : fs.list(base)) {
        const auto value = fs.read(base + "/" + name);
        if (!value) continue;
        any = true;
        const unsigned long long n = std::strtoull(value->c_str(), nullptr, 10);
        if (n == 0) continue;
        if (std::find(kErrors.begin(), kErrors.end(), name) != kErrors.end()) errors.push_back(fmt::format("{} {}", name, n));
        if (std::find(kCongestion.begin(), kCongestion.end(), name) != kCongestion.end())
          congestion.push_back(fmt::format("{} {}", name, n));
      }
    }
  }
  if (!any) return {item, Verdict::kSkipped, fmt::format("no counters in /sys/class/infiniband/{}/ports/*/", ibdev), ""};
  const std::string cc =
      congestion.empty() ? std::string("no CNP or ECN-marked packet counted") : fmt::format("{}", fmt::join(congestion, ", "));
  if (errors.empty()) return {item, Verdict::kOk, fmt::format("no error counted since the driver loaded; {}", cc), ""};
  return {item, Verdict::kWarn, fmt::format("since the driver loaded: {}; {}", fmt::join(errors, ", "), cc),
          "out_of_buffer / out_of_sequence / timeouts on a lossless class mean drops: check PFC on the priority "
          "RoCE uses, end to end, and the switch's buffers"};
}

Finding check_ecn(const HostFs& fs, const std::string& netdev) {
  const std::string item = "RoCE ECN " + netdev;
  const std::string base = "/sys/class/net/" + netdev + "/ecn";
  std::vector<std::string> both, partial;
  bool any = false;
  for (unsigned prio = 0; prio < 8; ++prio) {
    const auto np = fs.read(fmt::format("{}/roce_np/enable/{}", base, prio));
    const auto rp = fs.read(fmt::format("{}/roce_rp/enable/{}", base, prio));
    if (!np && !rp) continue;
    any = true;
    if (np == "1" && rp == "1") both.push_back(std::to_string(prio));
    else if (np == "1" || rp == "1") partial.push_back(fmt::format("{} ({} only)", prio, np == "1" ? "notification point" : "reaction point"));
  }
  if (!any)
    return {item, Verdict::kSkipped,
            fmt::format("no {}/roce_np, roce_rp: this driver has no ECN knobs in sysfs (the inbox mlx5 driver has "
                        "none; DCQCN is then the firmware's: mlxconfig, or mlnx_qos with the vendor's driver)",
                        base),
            ""};
  if (both.empty())
    return {item, Verdict::kWarn,
            fmt::format("ECN (DCQCN) is on for no priority in {}/roce_np and roce_rp{}", base,
                        partial.empty() ? "" : fmt::format("; half on: {}", fmt::join(partial, ", "))),
            fmt::format("echo 1 > {}/roce_np/enable/P and {}/roce_rp/enable/P for the RoCE priority P", base, base)};
  return {item, Verdict::kOk,
          fmt::format("notification and reaction point on for priorities {}{}", fmt::join(both, ", "),
                      partial.empty() ? "" : fmt::format("; half on: {}", fmt::join(partial, ", "))),
          ""};
}

}  // namespace

std::optional<std::string> pci_netdev(const HostFs& fs, const std::string& pci) {
  const std::vector<std::string> names = fs.list("/sys/bus/pci/devices/" + pci + "/net");
  if (names.empty()) return std::nullopt;
  return names.front();
}

std::optional<std::string> pci_rdma_device(const HostFs& fs, const std::string& pci) {
  const std::vector<std::string> names = fs.list("/sys/bus/pci/devices/" + pci + "/infiniband");
  if (names.empty()) return std::nullopt;
  return names.front();
}

Findings check_port_kernel_side(const HostFs& fs, const PortToCheck& port, const DoctorInput& input) {
  Findings out;
  const auto netdev = pci_netdev(fs, port.pci);
  const auto ibdev = pci_rdma_device(fs, port.pci);
  if (netdev) {
    out.push_back(check_irq_affinity(fs, port, input, *netdev));
    out.push_back(check_irq_node(fs, port, *netdev));
  } else
    out.push_back({"IRQ affinity " + port_label(port), Verdict::kSkipped,
                   fmt::format("no kernel netdev in /sys/bus/pci/devices/{}/net (vfio-pci: DPDK owns its interrupts)", port.pci),
                   ""});
  out.push_back(check_versions(fs, port, ibdev));
  if (!ibdev) {
    out.push_back({"RoCE " + port_label(port), Verdict::kSkipped,
                   fmt::format("no RDMA device in /sys/bus/pci/devices/{}/infiniband (not RoCE-capable, or rdma-core's "
                               "driver not loaded)", port.pci),
                   ""});
    return out;
  }
  out.push_back(check_gids(fs, port, input, *ibdev, netdev.value_or("")));
  out.push_back(check_rdma_counters(fs, *ibdev));
  if (netdev) out.push_back(check_ecn(fs, *netdev));
  return out;
}

Findings check_across_ports(const HostFs& fs, const DoctorInput& input) {
  Findings out;
  // The same RoCE v2 GID on two ports: peers cannot tell which one an address means.
  std::map<std::string, std::vector<std::string>> where;  // GID -> "mlx5_0 port 1 index 3"
  std::map<std::string, std::string> mtus;                // netdev -> MTU
  std::set<std::string> seen_ibdevs;
  for (const PortToCheck& p : input.ports) {
    if (p.pci.empty()) continue;
    if (const auto netdev = pci_netdev(fs, p.pci))
      if (const auto mtu = fs.read("/sys/class/net/" + *netdev + "/mtu")) mtus[*netdev] = *mtu;
    const auto ibdev = pci_rdma_device(fs, p.pci);
    if (!ibdev || !seen_ibdevs.insert(*ibdev).second) continue;
    for (const Gid& g : roce_gids(fs, *ibdev))
      if (g.type == "RoCE v2") where[g.value].push_back(fmt::format("{} index {}", g.device, g.index));
  }
  if (!seen_ibdevs.empty()) {
    std::vector<std::string> duplicated;
    for (const auto& [gid, places] : where)
      if (places.size() > 1) duplicated.push_back(fmt::format("{} on {}", gid, fmt::join(places, " and ")));
    if (duplicated.empty())
      out.push_back({"RoCE GIDs across ports", Verdict::kOk,
                     fmt::format("{} RoCE v2 GIDs on {}, each once", where.size(), fmt::join(seen_ibdevs, ", ")), ""});
    else
      out.push_back({"RoCE GIDs across ports", Verdict::kFail, fmt::format("duplicated RoCE v2 GIDs: {}", fmt::join(duplicated, "; ")),
                     "one IP address per port: the same address on two netdevs (or a VLAN / macvlan on each) gives "
                     "both the same GID, and connections go out of the wrong port"});
  }
  if (mtus.size() > 1) {
    std::set<std::string> values;
    std::vector<std::string> list;
    for (const auto& [netdev, mtu] : mtus) values.insert(mtu), list.push_back(netdev + " " + mtu);
    if (values.size() == 1)
      out.push_back({"MTU along the ports", Verdict::kOk, fmt::format("{} (/sys/class/net/*/mtu)", fmt::join(list, ", ")), ""});
    else
      out.push_back({"MTU along the ports", Verdict::kWarn,
                     fmt::format("{}: RoCE takes the path MTU from the smallest, and jumbo frames are dropped where it "
                                 "is smaller", fmt::join(list, ", ")),
                     "set one MTU on every port of the path (ip link set IF mtu N), and on the switch ports"});
  }
  return out;
}

Finding check_kernel_log(const HostFs& fs) {
  const std::string item = "kernel log (mlx5)";
  const auto lines = fs.lines_now("/dev/kmsg");
  if (!lines) return {item, Verdict::kSkipped, "/dev/kmsg is not readable (not root, or a container without it)", ""};
  std::vector<std::string> errors;
  for (const std::string& line : *lines) {
    const auto record = kmsg_text(line);
    if (!record || record->find("mlx5") == std::string::npos) continue;
    const std::string& text = *record;
    const int level = std::atoi(line.c_str()) & 7;
    static const char* kWords[] = {"error", "fail", "timeout", "syndrome", "health", "unrecoverable", "fatal"};
    const bool worded = std::any_of(std::begin(kWords), std::end(kWords), [&](const char* w) { return text.find(w) != std::string::npos; });
    if (level <= 3 || worded) errors.push_back(text);
  }
  if (errors.empty()) return {item, Verdict::kOk, fmt::format("no mlx5 error in /dev/kmsg ({} records)", lines->size()), ""};
  const size_t from = errors.size() > 3 ? errors.size() - 3 : 0;
  return {item, Verdict::kWarn,
          fmt::format("{} mlx5 error(s) since boot, the last: {}", errors.size(),
                      fmt::join(errors.begin() + static_cast<long>(from), errors.end(), " | ")),
          "read them in full (dmesg | grep mlx5); firmware health errors and syndromes go to the NIC vendor with "
          "`mlxfwreset` / `mstdump` output"};
}

}  // namespace lr::doctor
