// The host doctor on fixture trees (sysfs and procfs written into a temporary root): a
// healthy host passes, and each classic cause of a port short of line rate fails or warns
// with its evidence: a x8 link on a 16-lane NIC at Gen3 carrying two 40G ports, a NIC on
// node 1 served from node 0, no hugepages, a NIC left on its kernel driver, ASPM L1, no
// isolation; a host without a NIC says so.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "lib/host/cpu_list.hpp"
#include "control/suites/doctor/host_checks.hpp"
#include "control/suites/doctor/netdev_checks.hpp"
#include "control/suites/doctor/pcie_checks.hpp"

namespace lr::doctor {

using host::parse_cpu_list;
using host::worker_cpus;
using host::cpu_list_text;
namespace {

namespace fs = std::filesystem;

constexpr const char* kRootPort = "/sys/devices/pci0000:3a/0000:3a:00.0";

class Host {
 public:
  Host() : root_(fs::temp_directory_path() / ("lr-doctor-" + std::to_string(::getpid()) + "-" + std::to_string(next_++))) {
    fs::remove_all(root_);
    write("/proc/meminfo", "MemTotal: 65536000 kB\nHugePages_Total:    1024\nHugePages_Free:     1024\nHugepagesize:       2048 kB\n");
    write("/proc/mounts", "nodev /dev/hugepages hugetlbfs rw,relatime 0 0\n");
    write("/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep pdpe1gb rdtscp lm\n");
    write("/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages", "4\n");
    write("/sys/devices/system/node/node0/cpulist", "0-15\n");
    write("/sys/devices/system/node/node1/cpulist", "16-31\n");
    write("/sys/devices/system/node/node0/hugepages/hugepages-2048kB/free_hugepages", "512\n");
    write("/sys/devices/system/node/node1/hugepages/hugepages-2048kB/free_hugepages", "512\n");
    write("/sys/devices/system/cpu/online", "0-31\n");
    write("/sys/devices/system/cpu/isolated", "1-4\n");
    write("/sys/devices/system/cpu/nohz_full", "1-4\n");
    for (int cpu = 1; cpu <= 4; ++cpu)
      write("/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/cpufreq/scaling_governor", "performance\n");
    nic("0000:3b:00.0", 0, "mlx5_core");
    nic("0000:3b:00.1", 0, "mlx5_core");
    roce("0000:3b:00.0", "eth2", "mlx5_0", 1);
    roce("0000:3b:00.1", "eth3", "mlx5_1", 2);
    write("/proc/sys/kernel/osrelease", "6.1.0-27-amd64\n");
    write("/dev/kmsg", "6,1020,5311000,-;mlx5_core 0000:3b:00.0: firmware version: 22.36.1010\n"
                       " SUBSYSTEM=pci\n"
                       "6,1021,5312000,-;mlx5_core 0000:3b:00.0 eth2: Link up\n");
  }
  // The bifurcated mlx5 side of a function: netdev `netdev` with interrupts on CPU 0 (the
  // main lcore's), RDMA device `ibdev` with link-local and 198.18.0.`host` GIDs (RoCE v1
  // and v2), quiet counters, and DCQCN on for priority 3.
  void roce(const std::string& pci, const std::string& netdev, const std::string& ibdev, int host) {
    const std::string base = "/sys/bus/pci/devices/" + pci;
    write(base + "/net/" + netdev + "/.keep", "");
    write("/sys/class/net/" + netdev + "/mtu", "9000\n");
    for (int irq : {130, 131}) {
      const std::string n = std::to_string(irq + 10 * host);
      write(base + "/msi_irqs/" + n, "msix\n");
      write("/proc/irq/" + n + "/smp_affinity_list", "0-31\n");
      write("/proc/irq/" + n + "/effective_affinity_list", "0\n");
    }
    write(base + "/infiniband/" + ibdev + "/.keep", "");
    const std::string ib = "/sys/class/infiniband/" + ibdev;
    write(ib + "/fw_ver", "22.36.1010\n");
    const std::string ipv4 = "0000:0000:0000:0000:0000:ffff:c612:00" + fmt::format("{:02x}", host);
    const std::string link_local = "fe80:0000:0000:0000:0a00:00ff:fe00:00" + fmt::format("{:02x}", host);
    const std::vector<std::pair<std::string, std::string>> gids = {
        {link_local, "IB/RoCE v1"}, {link_local, "RoCE v2"}, {ipv4, "IB/RoCE v1"}, {ipv4, "RoCE v2"}};
    for (size_t i = 0; i < 8; ++i) {
      const std::string at = ib + "/ports/1/";
      write(at + "gids/" + std::to_string(i), i < gids.size() ? gids[i].first + "\n" : std::string(39, '0') + "\n");
      if (i < gids.size()) {
        write(at + "gid_attrs/types/" + std::to_string(i), gids[i].second + "\n");
        write(at + "gid_attrs/ndevs/" + std::to_string(i), netdev + "\n");
      }
    }
    for (const char* counter : {"out_of_buffer", "out_of_sequence", "packet_seq_err", "np_cnp_sent", "rp_cnp_handled"})
      write(ib + "/ports/1/hw_counters/" + counter, "0\n");
    write(ib + "/ports/1/counters/port_rcv_errors", "0\n");
    for (int prio = 0; prio < 8; ++prio)
      for (const char* point : {"roce_np", "roce_rp"})
        write("/sys/class/net/" + netdev + "/ecn/" + point + "/enable/" + std::to_string(prio), prio == 3 ? "1\n" : "0\n");
  }
  ~Host() { fs::remove_all(root_); }

  void write(const std::string& path, const std::string& text) {
    fs::create_directories((root_ / path.substr(1)).parent_path());
    std::ofstream(root_ / path.substr(1)) << text;
  }
  void remove(const std::string& path) { fs::remove_all(root_ / path.substr(1)); }
  fs::path path(const std::string& path) const { return root_ / path.substr(1); }
  void symlink(const std::string& path, const std::string& target) {
    fs::create_directories((root_ / path.substr(1)).parent_path());
    fs::create_symlink(root_ / target.substr(1), root_ / path.substr(1));
  }
  // A Gen3 x16 ConnectX-style function on `node`, bound to `driver`.
  // A NIC function below root port 0000:3a:00.0 (8 GT/s x16), as sysfs places it: the bus's
  // entry a link to its directory in /sys/devices.
  void nic(const std::string& pci, int node, const std::string& driver) {
    const std::string base = "/sys/bus/pci/devices/" + pci;
    write(std::string(kRootPort) + "/current_link_speed", "8.0 GT/s PCIe\n");
    write(std::string(kRootPort) + "/current_link_width", "16\n");
    fs::create_directories(root_ / (std::string(kRootPort) + "/" + pci).substr(1));
    if (!fs::is_symlink(root_ / base.substr(1))) symlink(base, std::string(kRootPort) + "/" + pci);
    write(base + "/class", "0x020000\n");
    write(base + "/numa_node", std::to_string(node) + "\n");
    write(base + "/current_link_speed", "8.0 GT/s PCIe\n");
    write(base + "/current_link_width", "16\n");
    write(base + "/max_link_speed", "8.0 GT/s PCIe\n");
    write(base + "/max_link_width", "16\n");
    write(base + "/link/l1_aspm", "0\n");
    config(pci, 256, 4096);
    fs::create_directories(root_ / "sys/bus/pci/drivers" / driver);
    fs::remove(root_ / (base.substr(1) + "/driver"));
    fs::create_symlink(root_ / "sys/bus/pci/drivers" / driver, root_ / (base.substr(1) + "/driver"));
  }
  // The function's config space as root reads it (256 bytes): a capability list whose one
  // entry is the PCIe capability, with MaxPayload and MaxReadReq in its Device Control.
  void config(const std::string& pci, unsigned payload, unsigned read_request, size_t size = 256) {
    std::string bytes(size, '\0');
    const auto log2_128 = [](unsigned n) { return static_cast<unsigned>(__builtin_ctz(n / 128)); };
    if (size > 0x4a) {
      bytes[0x06] = 0x10;  // status: capability list
      bytes[0x34] = 0x40;
      bytes[0x40] = 0x10;  // PCIe, last in the list
      const unsigned control = log2_128(payload) << 5 | log2_128(read_request) << 12;
      bytes[0x48] = static_cast<char>(control & 0xff);
      bytes[0x49] = static_cast<char>(control >> 8);
    }
    write("/sys/bus/pci/devices/" + pci + "/config", bytes);
  }
  HostFs fs() const { return HostFs(root_.string()); }

 private:
  static inline int next_ = 0;
  fs::path root_;
};

DoctorInput two_40g_ports(const std::string& lcores = "0-4") {
  DoctorInput input;
  input.lcores = lcores;
  input.worker_cpus = worker_cpus(lcores);
  input.ports = {{"east", "0000:3b:00.0", "0000:3b:00.0", 40'000'000'000}, {"west", "0000:3b:00.1", "0000:3b:00.1", 40'000'000'000}};
  return input;
}

const Finding& find(const Findings& findings, const std::string& item) {
  for (const Finding& f : findings)
    if (f.item == item) return f;
  static const Finding none{"(not found: " + item + ")", Verdict::kSkipped, "", ""};
  ADD_FAILURE() << "no finding " << item;
  return none;
}

TEST(Doctor, AHealthyHostPasses) {
  Host host;
  const Findings findings = run_doctor(host.fs(), two_40g_ports());
  for (const Finding& f : findings) {
    EXPECT_TRUE(f.verdict == Verdict::kOk) << f.item << ": " << verdict_name(f.verdict) << " " << f.evidence;
    EXPECT_TRUE(f.fix.empty()) << f.item;
  }
  EXPECT_EQ(find(findings, "PCIe link east (0000:3b:00.0)").evidence,
            "LnkSta 8.0 GT/s PCIe x16 (Gen3 x16) against LnkCap 8.0 GT/s PCIe x16: 126.0 Gbit/s after line coding; its "
            "ports need 80 Gbit/s, and small frames need about 25 % more for descriptors and headers");
  EXPECT_EQ(find(findings, "NUMA east (0000:3b:00.0)").evidence,
            "the NIC is on node 0 (/sys/bus/pci/devices/0000:3b:00.0/numa_node); worker CPUs on it: 1-4; elsewhere: none");
}

TEST(Doctor, AX8LinkOnASixteenLaneNicCannotCarryTwo40GPorts) {
  Host host;
  for (const char* pci : {"0000:3b:00.0", "0000:3b:00.1"})
    host.write(std::string("/sys/bus/pci/devices/") + pci + "/current_link_width", "8\n");
  const Findings findings = run_doctor(host.fs(), two_40g_ports());
  const Finding& link = find(findings, "PCIe link east (0000:3b:00.0)");
  EXPECT_EQ(link.verdict, Verdict::kFail);
  EXPECT_NE(link.evidence.find("LnkSta 8.0 GT/s PCIe x8 (Gen3 x8) against LnkCap 8.0 GT/s PCIe x16: 63.0 Gbit/s"),
            std::string::npos) << link.evidence;
  EXPECT_NE(link.evidence.find("its ports need 80 Gbit/s"), std::string::npos);
  EXPECT_NE(link.fix.find("reseat it in a x16 slot wired for Gen3"), std::string::npos) << link.fix;
  // One 40G port alone fits x8 Gen3, but the link is still below what the NIC can: a warning.
  DoctorInput one = two_40g_ports();
  one.ports.pop_back();
  EXPECT_EQ(find(run_doctor(host.fs(), one), "PCIe link east (0000:3b:00.0)").verdict, Verdict::kWarn);
}

TEST(Doctor, ANicOnNodeOneServedFromNodeZeroFails) {
  Host host;
  host.nic("0000:3b:00.0", 1, "mlx5_core");
  host.nic("0000:3b:00.1", 1, "mlx5_core");
  const Finding numa = find(run_doctor(host.fs(), two_40g_ports()), "NUMA east (0000:3b:00.0)");
  EXPECT_EQ(numa.verdict, Verdict::kFail);
  EXPECT_NE(numa.evidence.find("the NIC is on node 1"), std::string::npos);
  EXPECT_NE(numa.evidence.find("worker CPUs on it: none; elsewhere: 1-4"), std::string::npos) << numa.evidence;
  EXPECT_EQ(numa.fix, "run the workers on node 1's CPUs (16-31): [eal] lcores");
  // Workers on both nodes: a warning that names the node to keep the port's queues on.
  const Finding mixed = find(run_doctor(host.fs(), two_40g_ports("0,1,16")), "NUMA east (0000:3b:00.0)");
  EXPECT_EQ(mixed.verdict, Verdict::kWarn);
}

TEST(Doctor, OneGigabytePagesAreAdvisedWhereTheCpuHasThem) {
  Host host;
  EXPECT_EQ(find(run_doctor(host.fs(), two_40g_ports()), "1 GiB hugepages").evidence,
            "4 reserved (/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages), beside the 2 MiB default: DPDK "
            "takes both");
  host.write("/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages", "0\n");
  const Finding none = find(run_doctor(host.fs(), two_40g_ports()), "1 GiB hugepages");
  EXPECT_EQ(none.verdict, Verdict::kWarn);
  EXPECT_EQ(none.evidence, "the CPU has 1 GiB pages (pdpe1gb in /proc/cpuinfo) but none are reserved "
                           "(/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages missing or 0): only 2 MiB pages, "
                           "so a port's mbuf pools span hundreds of TLB entries");
  EXPECT_TRUE(none.fix.starts_with("boot with default_hugepagesz=1G hugepagesz=1G hugepages=4"));
  host.write("/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme de pse tsc msr pae\n");
  const Finding cannot = find(run_doctor(host.fs(), two_40g_ports()), "1 GiB hugepages");
  EXPECT_EQ((std::pair{cannot.verdict, cannot.evidence}),
            (std::pair{Verdict::kOk, std::string("the CPU has no 1 GiB pages (no pdpe1gb flag in /proc/cpuinfo): 2 MiB "
                                                 "pages are the largest")}));
}

TEST(Doctor, ABridgeAboveTheNicNarrowerThanItsPortsFails) {
  Host host;
  EXPECT_EQ(find(run_doctor(host.fs(), two_40g_ports()), "PCIe links above east (0000:3b:00.0)").evidence,
            "root port to NIC: 0000:3a:00.0 8.0 GT/s PCIe x16 (126.0 Gbit/s)");
  // A riser wired x8 between the root port and the NIC: 63 Gbit/s under two 40G ports, though
  // the NIC's own link says x16.
  host.write(std::string(kRootPort) + "/0000:3a:01.0/current_link_speed", "8.0 GT/s PCIe\n");
  host.write(std::string(kRootPort) + "/0000:3a:01.0/current_link_width", "8\n");
  for (const char* pci : {"0000:3b:00.0", "0000:3b:00.1"}) {
    std::filesystem::rename(host.path(std::string(kRootPort) + "/" + pci),
                            host.path(std::string(kRootPort) + "/0000:3a:01.0/" + pci));
    host.remove(std::string("/sys/bus/pci/devices/") + pci);
    host.symlink(std::string("/sys/bus/pci/devices/") + pci, std::string(kRootPort) + "/0000:3a:01.0/" + pci);
  }
  const Finding f = find(run_doctor(host.fs(), two_40g_ports()), "PCIe links above east (0000:3b:00.0)");
  EXPECT_EQ(f.verdict, Verdict::kFail);
  EXPECT_EQ(f.evidence, "root port to NIC: 0000:3a:00.0 8.0 GT/s PCIe x16 (126.0 Gbit/s), 0000:3a:01.0 8.0 GT/s PCIe x8 "
                        "(63.0 Gbit/s); 0000:3a:01.0 carries 63.0 Gbit/s for ports that need 80");
  EXPECT_TRUE(f.fix.starts_with("the narrowest link is upstream of the NIC, at 0000:3a:01.0 (8.0 GT/s PCIe x8)"));
  // The NIC's own link check sees nothing wrong: only the walk finds it.
  EXPECT_EQ(find(run_doctor(host.fs(), two_40g_ports()), "PCIe link east (0000:3b:00.0)").verdict, Verdict::kOk);
}

TEST(Doctor, NoHugepagesFails) {
  Host host;
  host.write("/proc/meminfo", "HugePages_Total:       0\nHugePages_Free:        0\nHugepagesize:       2048 kB\n");
  const Finding f = find(run_doctor(host.fs(), two_40g_ports()), "hugepages");
  EXPECT_EQ(f.verdict, Verdict::kFail);
  EXPECT_EQ(f.evidence, "HugePages_Free 0 of 0 (2048 kB pages, 0 MiB free) in /proc/meminfo");
  EXPECT_NE(f.fix.find("scripts/setup.sh"), std::string::npos);
  // Pages on the other node than the NIC's do not help it.
  Host other;
  other.write("/sys/devices/system/node/node0/hugepages/hugepages-2048kB/free_hugepages", "0\n");
  EXPECT_EQ(find(run_doctor(other.fs(), two_40g_ports()), "hugepages on node 0").verdict, Verdict::kFail);
  other.write("/proc/mounts", "proc /proc proc rw 0 0\n");
  EXPECT_EQ(find(run_doctor(other.fs(), two_40g_ports()), "hugetlbfs mount").verdict, Verdict::kFail);
}

TEST(Doctor, ANicOnItsKernelDriverFailsAndUioWarns) {
  Host host;
  host.nic("0000:3b:00.0", 0, "i40e");
  const Finding f = find(run_doctor(host.fs(), two_40g_ports()), "driver east (0000:3b:00.0)");
  EXPECT_EQ(f.verdict, Verdict::kFail);
  EXPECT_EQ(f.evidence, "bound to the kernel driver i40e: DPDK's PMD cannot use it");
  EXPECT_EQ(f.fix, "dpdk-devbind.py -b vfio-pci 0000:3b:00.0");
  host.nic("0000:3b:00.0", 0, "uio_pci_generic");
  EXPECT_EQ(find(run_doctor(host.fs(), two_40g_ports()), "driver east (0000:3b:00.0)").verdict, Verdict::kWarn);
  host.nic("0000:3b:00.0", 0, "vfio-pci");
  EXPECT_EQ(find(run_doctor(host.fs(), two_40g_ports()), "driver east (0000:3b:00.0)").verdict, Verdict::kWarn);  // no IOMMU group
  host.write("/sys/bus/pci/devices/0000:3b:00.0/iommu_group/.keep", "");
  EXPECT_EQ(find(run_doctor(host.fs(), two_40g_ports()), "driver east (0000:3b:00.0)").verdict, Verdict::kOk);
}

TEST(Doctor, AspmIsolationAndGovernorWarn) {
  Host host;
  host.write("/sys/bus/pci/devices/0000:3b:00.0/link/l1_aspm", "1\n");
  host.write("/sys/devices/system/cpu/isolated", "\n");
  host.write("/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "powersave\n");
  const Findings findings = run_doctor(host.fs(), two_40g_ports());
  EXPECT_EQ(find(findings, "PCIe ASPM east (0000:3b:00.0)").verdict, Verdict::kWarn);
  const Finding& isolation = find(findings, "worker lcores isolated");
  EXPECT_EQ(isolation.verdict, Verdict::kWarn);
  EXPECT_EQ(isolation.fix, "boot with isolcpus=1-4 nohz_full=1-4 rcu_nocbs=1-4");
  const Finding& governor = find(findings, "CPU frequency governor");
  EXPECT_EQ(governor.verdict, Verdict::kWarn);
  EXPECT_NE(governor.evidence.find("cpu2 powersave"), std::string::npos);
}

TEST(Doctor, AHostWithoutANicSaysSo) {
  Host host;
  host.remove("/sys/bus/pci/devices");
  host.write("/sys/bus/pci/devices/0000:00:05.0/class", "0x020000\n");
  const Findings findings = run_doctor(host.fs(), DoctorInput{});
  const Finding& nics = find(findings, "NICs");
  EXPECT_EQ(nics.verdict, Verdict::kSkipped);
  EXPECT_EQ(nics.evidence, "no NIC that DPDK drives here; Ethernet devices: 0000:00:05.0 (no driver)");
  EXPECT_EQ(find(findings, "worker lcores isolated").verdict, Verdict::kSkipped);  // no profile
  // A profile of virtual devices: each port skipped with the reason, not passed.
  DoctorInput virtual_ports;
  virtual_ports.ports = {{"p0", "", "net_ring0", 0}};
  EXPECT_EQ(find(run_doctor(host.fs(), virtual_ports), "port p0").evidence,
            "net_ring0 is a virtual device: no PCIe link, NUMA node or driver to check");
  EXPECT_EQ(find(run_doctor(host.fs(), {std::nullopt, "", {{"0000:99:00.0", "0000:99:00.0", "0000:99:00.0", 0}}, {}}),
                 "port 0000:99:00.0").verdict,
            Verdict::kFail);
}

TEST(Doctor, TheKernelSideOfAHealthyRoceHost) {
  Host host;
  DoctorInput input = two_40g_ports();
  input.gid_index = 3;
  const Findings findings = run_doctor(host.fs(), input);
  EXPECT_EQ(find(findings, "IRQ affinity east (0000:3b:00.0)").evidence,
            "2 interrupts of eth2 (/sys/bus/pci/devices/0000:3b:00.0/msi_irqs), none on the worker CPUs 1-4");
  EXPECT_EQ(find(findings, "driver / firmware east (0000:3b:00.0)").evidence,
            "mlx5_core in-tree, kernel 6.1.0-27-amd64; firmware 22.36.1010 (/sys/class/infiniband/mlx5_0/fw_ver)");
  EXPECT_EQ(find(findings, "RoCE GIDs mlx5_0").evidence,
            "GID index 3 is RoCE v2; RoCE v2: 1: fe80:0000:0000:0000:0a00:00ff:fe00:0001 (eth2); "
            "3: 0000:0000:0000:0000:0000:ffff:c612:0001 (eth2)");
  EXPECT_EQ(find(findings, "RDMA counters mlx5_0").evidence,
            "no error counted since the driver loaded; no CNP or ECN-marked packet counted");
  EXPECT_EQ(find(findings, "RoCE ECN eth2").evidence, "notification and reaction point on for priorities 3");
  EXPECT_EQ(find(findings, "MTU along the ports").evidence, "eth2 9000, eth3 9000 (/sys/class/net/*/mtu)");
  EXPECT_EQ(find(findings, "RoCE GIDs across ports").evidence, "4 RoCE v2 GIDs on mlx5_0, mlx5_1, each once");
  EXPECT_EQ(find(findings, "kernel log (mlx5)").evidence, "no mlx5 error in /dev/kmsg (3 records)");
}

TEST(Doctor, DuplicatedGidsAMissingRoceV2GidAndTheWrongGidIndexFail) {
  Host host;
  // The same address on both ports: both get its GID.
  host.write("/sys/class/infiniband/mlx5_1/ports/1/gids/3", "0000:0000:0000:0000:0000:ffff:c612:0001\n");
  DoctorInput input = two_40g_ports();
  const Finding across = find(run_doctor(host.fs(), input), "RoCE GIDs across ports");
  EXPECT_EQ(across.verdict, Verdict::kFail);
  EXPECT_EQ(across.evidence, "duplicated RoCE v2 GIDs: 0000:0000:0000:0000:0000:ffff:c612:0001 on mlx5_0 port 1 index 3 "
                             "and mlx5_1 port 1 index 3");
  input.gid_index = 2;  // a RoCE v1 GID
  const Finding index = find(run_doctor(host.fs(), input), "RoCE GIDs mlx5_0");
  EXPECT_EQ(index.verdict, Verdict::kFail);
  EXPECT_NE(index.evidence.find("GID index 2 is of type IB/RoCE v1"), std::string::npos) << index.evidence;
  input.gid_index = 6;
  EXPECT_NE(find(run_doctor(host.fs(), input), "RoCE GIDs mlx5_0").evidence.find("GID index 6 is empty"), std::string::npos);
  for (int i : {1, 3}) host.write("/sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/" + std::to_string(i), "IB/RoCE v1\n");
  const Finding none = find(run_doctor(host.fs(), two_40g_ports()), "RoCE GIDs mlx5_0");
  EXPECT_EQ(none.verdict, Verdict::kFail);
  EXPECT_EQ(none.evidence, "no RoCE v2 GID in /sys/class/infiniband/mlx5_0/ports/*/gids (4 GIDs in all)");
  EXPECT_EQ(none.fix, "RoCE v2 GIDs follow the netdev's IP addresses: give eth2 an address (ip addr add ... dev eth2)");
}

TEST(Doctor, IrqsOnWorkersRdmaErrorsEcnOffMtuMismatchAndMlx5ErrorsWarn) {
  Host host;
  host.write("/proc/irq/141/effective_affinity_list", "2\n");
  host.write("/sys/class/infiniband/mlx5_0/ports/1/hw_counters/out_of_buffer", "1234\n");
  host.write("/sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent", "77\n");
  host.write("/sys/class/net/eth3/ecn/roce_np/enable/3", "0\n");
  host.write("/sys/class/net/eth3/mtu", "1500\n");
  host.write("/dev/kmsg", "3,1030,9311000,-;mlx5_core 0000:3b:00.0: mlx5_cmd_out_err:803: QUERY_VPORT_COUNTER(0x770) "
                          "op_mod(0x0) failed, status bad parameter(0x3), syndrome (0x5d6a36)\n"
                          "4,1031,9312000,-;e1000e 0000:00:19.0 eno1: Hardware Unit Hang\n");
  const Findings findings = run_doctor(host.fs(), two_40g_ports());
  const Finding& irq = find(findings, "IRQ affinity east (0000:3b:00.0)");
  EXPECT_EQ(irq.verdict, Verdict::kWarn);
  EXPECT_EQ(irq.evidence, "1 of 2 interrupts of eth2 can land on worker CPUs 2 (/proc/irq/N/effective_affinity_list: "
                          "141 -> 2): each one steals the poll loop's time");
  const Finding& counters = find(findings, "RDMA counters mlx5_0");
  EXPECT_EQ(counters.verdict, Verdict::kWarn);
  EXPECT_EQ(counters.evidence, "since the driver loaded: out_of_buffer 1234; np_cnp_sent 77");
  const Finding& ecn = find(findings, "RoCE ECN eth3");
  EXPECT_EQ(ecn.verdict, Verdict::kWarn);
  EXPECT_NE(ecn.evidence.find("half on: 3 (reaction point only)"), std::string::npos) << ecn.evidence;
  EXPECT_EQ(find(findings, "MTU along the ports").verdict, Verdict::kWarn);
  const Finding& log = find(findings, "kernel log (mlx5)");
  EXPECT_EQ(log.verdict, Verdict::kWarn);
  EXPECT_NE(log.evidence.find("1 mlx5 error(s) since boot, the last: mlx5_core 0000:3b:00.0: mlx5_cmd_out_err"),
            std::string::npos) << log.evidence;
  // Without the RDMA side (vfio-pci), RoCE is skipped with the reason, never passed.
  host.remove("/sys/bus/pci/devices/0000:3b:00.0/infiniband");
  host.remove("/sys/bus/pci/devices/0000:3b:00.0/net");
  const Findings bare = run_doctor(host.fs(), two_40g_ports());
  EXPECT_EQ(find(bare, "RoCE east (0000:3b:00.0)").verdict, Verdict::kSkipped);
  EXPECT_EQ(find(bare, "IRQ affinity east (0000:3b:00.0)").verdict, Verdict::kSkipped);
}

TEST(CpuList, KernelListsAndEalLcores) {
  EXPECT_EQ(parse_cpu_list("0-3,8,10-11"), (std::set<unsigned>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(parse_cpu_list(""), std::set<unsigned>{});
  EXPECT_FALSE(parse_cpu_list("3-1"));
  EXPECT_FALSE(parse_cpu_list("a"));
  EXPECT_EQ(worker_cpus("0-4"), (std::set<unsigned>{1, 2, 3, 4}));
  EXPECT_EQ(worker_cpus("0@0,1@2,2@3"), (std::set<unsigned>{2, 3}));
  EXPECT_FALSE(worker_cpus("(0-1)@0"));
  EXPECT_EQ(cpu_list_text({1, 2, 3, 8, 10, 11}), "1-3,8,10-11");
}

TEST(Doctor, TheSlotCarriesEveryPortAtTheSpeedTheKernelReportsWhenTheProfileSaysNone) {
  Host host;
  for (const char* pci : {"0000:3b:00.0", "0000:3b:00.1"})
    host.write(std::string("/sys/bus/pci/devices/") + pci + "/current_link_width", "8\n");
  host.write("/sys/class/net/eth2/speed", "40000\n");
  host.write("/sys/class/net/eth3/speed", "40000\n");
  DoctorInput unset = two_40g_ports();
  for (PortToCheck& p : unset.ports) p.speed_bps = 0;
  const Finding link = find(run_doctor(host.fs(), unset), "PCIe link east (0000:3b:00.0)");
  EXPECT_EQ(link.verdict, Verdict::kFail) << link.evidence;
  EXPECT_NE(link.evidence.find("its ports need 80 Gbit/s"), std::string::npos) << link.evidence;
  // Without a profile: every NIC, at its netdev's speed, the same verdict.
  EXPECT_EQ(find(run_doctor(host.fs(), DoctorInput{}), "PCIe link 0000:3b:00.0").verdict, Verdict::kFail);
  // A full-width slot that is simply too narrow for its ports fails too (it trained as it could).
  for (const char* pci : {"0000:3b:00.0", "0000:3b:00.1"})
    host.write(std::string("/sys/bus/pci/devices/") + pci + "/max_link_width", "8\n");
  const Finding narrow = find(run_doctor(host.fs(), unset), "PCIe link east (0000:3b:00.0)");
  EXPECT_EQ(narrow.verdict, Verdict::kFail);
  EXPECT_EQ(narrow.fix, "move the NIC to a wider or faster slot, or use fewer ports of it at once");
}

TEST(Doctor, AVfsLinkIsItsPfsAndAnUnknownLinkIsNotJudged) {
  Host host;
  const std::string vf = "/sys/bus/pci/devices/0000:3b:00.2";
  host.nic("0000:3b:00.2", 0, "mlx5_core");
  host.write(vf + "/current_link_speed", "Unknown\n");
  host.write(vf + "/current_link_width", "0\n");
  host.remove(vf + "/link");
  host.symlink(vf + "/physfn", "/sys/bus/pci/devices/0000:3b:00.0");
  DoctorInput input = two_40g_ports();
  input.ports = {{"vf", "0000:3b:00.2", "0000:3b:00.2", 40'000'000'000}};
  const Findings findings = run_doctor(host.fs(), input);
  const Finding& link = find(findings, "PCIe link vf (0000:3b:00.2)");
  EXPECT_EQ(link.verdict, Verdict::kOk) << link.evidence;
  EXPECT_EQ(link.evidence.rfind("a VF: its PCIe link is its PF's (0000:3b:00.0); LnkSta 8.0 GT/s PCIe x16 (Gen3 x16)", 0), 0u)
      << link.evidence;
  EXPECT_EQ(find(findings, "PCIe ASPM vf (0000:3b:00.2)").verdict, Verdict::kOk);  // the PF's link/ is read
  // A function whose link the kernel does not know is not judged, not failed for "0 Gbit/s".
  host.write("/sys/bus/pci/devices/0000:3b:00.0/current_link_speed", "Unknown\n");
  host.write("/sys/bus/pci/devices/0000:3b:00.0/current_link_width", "0\n");
  const Finding unknown = find(run_doctor(host.fs(), two_40g_ports()), "PCIe link east (0000:3b:00.0)");
  EXPECT_EQ(unknown.verdict, Verdict::kSkipped);
  EXPECT_NE(unknown.evidence.find("the kernel does not know the link"), std::string::npos) << unknown.evidence;
  // A faster link is named by its generation.
  host.write("/sys/bus/pci/devices/0000:3b:00.1/current_link_speed", "64.0 GT/s PCIe\n");
  host.write("/sys/bus/pci/devices/0000:3b:00.1/max_link_speed", "64.0 GT/s PCIe\n");
  EXPECT_NE(find(run_doctor(host.fs(), two_40g_ports()), "PCIe link west (0000:3b:00.1)").evidence.find("(Gen6 x16)"),
            std::string::npos);
}

TEST(Doctor, WithoutAspmControlTheFixThatTurnsL1OffIsGiven) {
  Host host;
  host.remove("/sys/bus/pci/devices/0000:3b:00.0/link");
  const Finding aspm = find(run_doctor(host.fs(), two_40g_ports()), "PCIe ASPM east (0000:3b:00.0)");
  EXPECT_EQ(aspm.verdict, Verdict::kSkipped);
  EXPECT_NE(aspm.evidence.find("the kernel does not control ASPM here (booted with pcie_aspm=off"), std::string::npos);
  EXPECT_EQ(aspm.fix, "to be sure L1 is off: boot with pcie_aspm.policy=performance (pcie_aspm=off leaves the firmware's "
                      "setting)");
}

TEST(Doctor, IsolationIsNeverAdvisedForEveryCpuOrCpuZeroAndWorkersMustExist) {
  Host host;
  host.write("/sys/devices/system/cpu/online", "0-1\n");
  host.write("/sys/devices/system/cpu/isolated", "\n");
  // The lossless example on a 2-CPU host: the workers take both CPUs; CPU 0 stays the kernel's.
  const Finding both = find(run_doctor(host.fs(), two_40g_ports("0@0,1@1,2@0")), "worker lcores isolated");
  EXPECT_EQ(both.verdict, Verdict::kWarn);
  EXPECT_EQ(both.fix, "boot with isolcpus=1 nohz_full=1 rcu_nocbs=1; CPU 0 stays the kernel's, and this host has no "
                      "other CPU for the worker on it");
  EXPECT_EQ(find(run_doctor(host.fs(), two_40g_ports("1@0,2@0")), "worker lcores isolated").fix,
            "the workers run on CPU 0, the kernel's: move them to other CPUs ([eal] lcores) and isolate those");
  // Three lcores on two CPUs: CPU 2 does not exist.
  const Finding missing = find(run_doctor(host.fs(), two_40g_ports("0-2")), "worker lcores isolated");
  EXPECT_EQ(missing.verdict, Verdict::kFail);
  EXPECT_EQ(missing.evidence,
            "worker CPUs 2 of lcores '0-2' are not CPUs of this host (online: 0-1, /sys/devices/system/cpu/online)");
  // On a larger host, CPU 0 is left out of the advice.
  host.write("/sys/devices/system/cpu/online", "0-31\n");
  const Finding zero = find(run_doctor(host.fs(), two_40g_ports("0@1,1@0,2@2")), "worker lcores isolated");
  EXPECT_EQ(zero.fix, "boot with isolcpus=2 nohz_full=2 rcu_nocbs=2; CPU 0 stays the kernel's: move the worker on it "
                      "to another CPU ([eal] lcores)");
}

TEST(Doctor, AProfileWithoutHugepagesOrWithAMissingNetdevIsJudgedForWhatItIs) {
  Host host;
  host.write("/proc/meminfo", "HugePages_Total:       0\nHugePages_Free:        0\nHugepagesize:       2048 kB\n");
  DoctorInput input = two_40g_ports();
  input.hugepages_wanted = false;
  input.ports = {{"a", "", "net_af_packet0,iface=lra", 0}, {"b", "", "net_af_xdp1,iface=lrb,start_queue=0", 0}};
  host.write("/sys/class/net/lrb/mtu", "1500\n");
  const Findings findings = run_doctor(host.fs(), input);
  const Finding& pages = find(findings, "hugepages");
  EXPECT_EQ(pages.verdict, Verdict::kSkipped);
  EXPECT_EQ(pages.evidence, "the profile runs without hugepages ([eal] huge_pages = \"off\")");
  const Finding& a = find(findings, "port a");
  EXPECT_EQ(a.verdict, Verdict::kFail);
  EXPECT_EQ(a.evidence, "net_af_packet0,iface=lra opens the netdev lra, which is not in this network namespace "
                        "(/sys/class/net)");
  EXPECT_NE(a.fix.find("ip netns exec NS"), std::string::npos);
  EXPECT_EQ(find(findings, "port b").verdict, Verdict::kOk);
}

TEST(Doctor, TheKernelsBandwidthLineNamesALinkNarrowerUpstream) {
  Host host;
  host.write("/dev/kmsg", "6,1020,5311000,-;mlx5_core 0000:3b:00.0: firmware version: 22.36.1010\n"
                          "6,1022,5313000,-;mlx5_core 0000:3b:00.0: 63.008 Gb/s available PCIe bandwidth, limited by "
                          "8.0 GT/s PCIe x8 link at 0000:3a:00.0 (capable of 126.016 Gb/s with 8.0 GT/s PCIe x16 link)\n");
  const Findings findings = run_doctor(host.fs(), two_40g_ports());
  const Finding& path = find(findings, "PCIe path east (0000:3b:00.0)");
  EXPECT_EQ(path.verdict, Verdict::kFail) << path.evidence;  // 63 Gbit/s for 80
  EXPECT_NE(path.evidence.find("the kernel says: mlx5_core 0000:3b:00.0: 63.008 Gb/s available PCIe bandwidth"),
            std::string::npos);
  EXPECT_NE(path.evidence.find(": 63.008 Gbit/s for ports that need 80"), std::string::npos) << path.evidence;
  EXPECT_NE(path.fix.find("the narrowest link is upstream of the NIC, at 0000:3a:00.0 (8.0 GT/s PCIe x8)"),
            std::string::npos) << path.fix;
  EXPECT_EQ(find(findings, "PCIe path west (0000:3b:00.1)").verdict, Verdict::kOk);
  // One 40G port fits the 63 Gbit/s, but the path still is narrower than the slot: a warning.
  DoctorInput one = two_40g_ports();
  one.ports.pop_back();
  EXPECT_EQ(find(run_doctor(host.fs(), one), "PCIe path east (0000:3b:00.0)").verdict, Verdict::kWarn);
}

TEST(Doctor, AConnectXAt40GWantsMaxReadRequest4096) {
  Host host;
  host.config("0000:3b:00.0", 256, 512);
  const Findings findings = run_doctor(host.fs(), two_40g_ports());
  const Finding& mrrs = find(findings, "PCIe MaxReadReq east (0000:3b:00.0)");
  EXPECT_EQ(mrrs.verdict, Verdict::kWarn);
  EXPECT_EQ(mrrs.evidence.rfind("MaxPayload 256 bytes, MaxReadReq 512 bytes", 0), 0u) << mrrs.evidence;
  EXPECT_EQ(mrrs.fix, "setpci -s 0000:3b:00.0 CAP_EXP+8.w=5000:7000 (MaxReadReq 4096; not kept across reboots)");
  EXPECT_EQ(find(findings, "PCIe MaxReadReq west (0000:3b:00.1)").verdict, Verdict::kOk);
  // Read without root, the config space stops at 64 bytes: not judged.
  host.config("0000:3b:00.0", 256, 512, 64);
  EXPECT_EQ(find(run_doctor(host.fs(), two_40g_ports()), "PCIe MaxReadReq east (0000:3b:00.0)").verdict, Verdict::kSkipped);
  EXPECT_EQ(pcie_device_control(std::vector<uint8_t>(256, 0)), std::nullopt);  // no capability list
}

TEST(Doctor, IrqbalanceRunningWarns) {
  Host host;
  host.write("/proc/812/comm", "irqbalance\n");
  host.write("/proc/1/comm", "systemd\n");
  const Finding f = find(run_doctor(host.fs(), two_40g_ports()), "irqbalance");
  EXPECT_EQ(f.verdict, Verdict::kWarn);
  EXPECT_NE(f.evidence.find("irqbalance runs (pid 812)"), std::string::npos);
  host.remove("/proc/812");
  EXPECT_EQ(find(run_doctor(host.fs(), two_40g_ports()), "irqbalance").verdict, Verdict::kOk);
}

TEST(Doctor, InterruptsServedOffTheNicsNodeWarn) {
  Host host;
  EXPECT_EQ(find(run_doctor(host.fs(), two_40g_ports()), "IRQ node east (0000:3b:00.0)").verdict, Verdict::kOk);
  host.nic("0000:3b:00.0", 1, "mlx5_core");  // on node 1; its interrupts stay on CPU 0 (node 0)
  const Finding f = find(run_doctor(host.fs(), two_40g_ports("0,16-17")), "IRQ node east (0000:3b:00.0)");
  EXPECT_EQ(f.verdict, Verdict::kWarn);
  EXPECT_EQ(f.evidence, "2 of 2 interrupts of eth2 are served off the NIC's node 1 (16-31): 140 -> 0, 141 -> 0");
  EXPECT_EQ(f.fix, "write node 1's housekeeping CPUs to /proc/irq/N/smp_affinity_list for eth2's interrupts "
                   "(mlnx set_irq_affinity_bynode.sh 1 eth2)");
}

}  // namespace
}  // namespace lr::doctor
