// The doctor in a Kubernetes pod, on fixture trees of a container's view: an engine given
// CPUs of its own on its NIC's node and hugepages passes; each thing a kubelet or a pod spec
// gets wrong fails with its evidence and the setting that fixes it.

#include "control/suites/doctor/pod_checks.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace lr::doctor {
namespace {

namespace fs = std::filesystem;

// A container's view: CPUs 4-7 of a two-node host's 0-31, 1 GiB pages, hugetlbfs at
// /dev/hugepages (its own mounts: /proc/mounts in a container).
class Pod {
 public:
  Pod() : root_(fs::temp_directory_path() / ("lr-pod-" + std::to_string(::getpid()))) {
    fs::remove_all(root_);
    cpus("4-7");
    write("/sys/devices/system/cpu/online", "0-31\n");
    write("/sys/devices/system/node/node0/cpulist", "0-15\n");
    write("/sys/devices/system/node/node1/cpulist", "16-31\n");
    write("/proc/meminfo", "HugePages_Total:       4\nHugePages_Free:        4\nHugepagesize:    1048576 kB\n");
    mounts("overlay / overlay rw 0 0\nnodev /dev/hugepages hugetlbfs rw,relatime,pagesize=1024M 0 0\n");
  }
  ~Pod() { fs::remove_all(root_); }
  Pod(const Pod&) = delete;
  Pod& operator=(const Pod&) = delete;
  void cpus(const std::string& list) {
    write("/proc/self/status", "Name:\tlinerate\nCpus_allowed_list:\t" + list + "\n");
  }
  void mounts(const std::string& text) { write("/proc/mounts", text); }
  void cgroup(const std::string& text) { write("/proc/self/cgroup", text); }
  void remove(const std::string& path) { fs::remove_all(root_ / path.substr(1)); }
  Findings check(const DoctorInput& input = {}, const std::set<int>& port_nodes = {0}) const {
    return check_pod(HostFs(root_.string()), input, port_nodes);
  }
  /// The whole doctor's finding `item`, run in a pod (or not).
  Finding doctor(const std::string& item, DoctorInput input = {}, bool pod = true) const {
    input.pod = pod;
    for (const Finding& f : run_doctor(HostFs(root_.string()), input))
      if (f.item == item) return f;
    return {"(" + item + " not checked)", Verdict::kSkipped, "", ""};
  }

 private:
  void write(const std::string& path, const std::string& text) {
    const fs::path at = root_ / path.substr(1);
    fs::create_directories(at.parent_path());
    std::ofstream(at) << text;
  }
  fs::path root_;
};

TEST(PodChecks, AnEngineWithCpusOfItsOwnOnItsNicsNodeAndHugepagesPasses) {
  const Findings f = Pod().check();
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].item, "CPUs of its own (pod)");
  EXPECT_EQ(f[0].verdict, Verdict::kOk);
  EXPECT_EQ(f[0].evidence,
            "this container may run on CPUs 4-7 (Cpus_allowed_list, /proc/self/status) of the node's 0-31");
  EXPECT_EQ(f[1].verdict, Verdict::kOk);
  EXPECT_EQ(f[1].evidence, "its CPUs 4-7 are on node 0; its ports on node 0");
  // Hugepages mounted: the host's check, whose /proc/mounts is the container's own.
  const Finding mount = Pod().doctor("hugetlbfs mount");
  EXPECT_EQ(mount.verdict, Verdict::kOk);
  EXPECT_EQ(mount.evidence, "hugetlbfs in /proc/mounts");
  // The pod's checks come with the host's in a pod only.
  EXPECT_EQ(Pod().doctor("CPUs of its own (pod)").verdict, Verdict::kOk);
  EXPECT_EQ(Pod().doctor("CPUs of its own (pod)", {}, false).item, "(CPUs of its own (pod) not checked)");
}

TEST(PodChecks, TheSharedPoolFailsWithTheKubeletsSetting) {
  Pod pod;
  pod.cpus("0-31");
  const Finding f = pod.check()[0];
  EXPECT_EQ(f.verdict, Verdict::kFail);
  EXPECT_EQ(f.evidence,
            "this container may run on CPUs 0-31 (Cpus_allowed_list, /proc/self/status) of the node's "
            "0-31: the node's shared pool, where other pods run too");
  EXPECT_EQ(f.fix,
            "kubelet: cpuManagerPolicy: static (with reservedSystemCPUs); the pod: Guaranteed QoS, whole CPUs "
            "(cpu requests = limits, e.g. \"4\"), as deploy/kubernetes asks");
}

TEST(PodChecks, ABurstablePodsCpusetIsTheSharedPoolsEvenWhenSmaller) {
  Pod pod;
  pod.cgroup("0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1.slice/cri-containerd-a.scope\n");
  const Finding f = pod.check()[0];
  EXPECT_EQ(f.verdict, Verdict::kFail);
  EXPECT_EQ(f.evidence,
            "this container may run on CPUs 4-7 (Cpus_allowed_list, /proc/self/status) of the node's "
            "0-31; the pod is Burstable (/proc/self/cgroup): its CPUs are the shared pool's");
  pod.cgroup("0::/kubepods.slice/kubepods-pod2.slice/cri-containerd-b.scope\n");  // Guaranteed
  EXPECT_EQ(pod.check()[0].verdict, Verdict::kOk);
}

TEST(PodChecks, WhatCannotBeReadIsSkippedNotPassed) {
  Pod pod;
  pod.remove("/sys/devices/system/cpu/online");
  pod.remove("/sys/devices/system/node");
  const Findings f = pod.check();
  EXPECT_EQ(f[0].verdict, Verdict::kSkipped);
  EXPECT_EQ(f[0].evidence, "/sys/devices/system/cpu/online cannot be read: the node's CPUs are not known");
  EXPECT_EQ(f[1].verdict, Verdict::kSkipped);
  EXPECT_EQ(f[1].evidence, "the CPUs' NUMA nodes are not known (/sys/devices/system/node)");
}

TEST(PodChecks, LcoresOutsideTheCpusetFail) {
  DoctorInput input;
  input.lcores = "0-3";
  input.worker_cpus = std::set<unsigned>{1, 2, 3};
  const Finding f = Pod().check(input)[0];
  EXPECT_EQ(f.verdict, Verdict::kFail);
  EXPECT_EQ(f.evidence,
            "this container may run on CPUs 4-7 (Cpus_allowed_list, /proc/self/status) of the node's "
            "0-31; the profile's lcores (0-3) use CPUs 1-3 outside it");
}

TEST(PodChecks, CpusAcrossNodesOrAwayFromTheNicFail) {
  Pod pod;
  pod.cpus("14-17");
  const Finding across = pod.check()[1];
  EXPECT_EQ(across.verdict, Verdict::kFail);
  EXPECT_EQ(across.evidence, "its CPUs 14-17 are on node 0, 1; its ports on node 0");
  EXPECT_EQ(across.fix,
            "kubelet: topologyManagerPolicy: single-numa-node (and the SR-IOV device plugin reporting each "
            "VF's NUMA node), so that the CPUs, hugepages and VF come from one node");
  pod.cpus("16-19");
  EXPECT_EQ(pod.check({}, {0})[1].verdict, Verdict::kFail);
  EXPECT_EQ(pod.check({}, {1})[1].verdict, Verdict::kOk);
  EXPECT_EQ(pod.check({}, {-1})[1].verdict, Verdict::kSkipped);  // a node the host does not say
}

TEST(PodChecks, NoHugetlbfsFailsUnlessTheProfileRunsWithout) {
  Pod pod;
  pod.mounts("overlay / overlay rw 0 0\ntmpfs /dev/shm tmpfs rw 0 0\n");
  const Finding f = pod.doctor("hugetlbfs mount");
  EXPECT_EQ(f.verdict, Verdict::kFail);
  EXPECT_EQ(f.evidence, "no hugetlbfs in /proc/mounts");
  EXPECT_EQ(f.fix,
            "mount an emptyDir with medium: HugePages at /dev/hugepages, and request hugepages-1Gi (or -2Mi) "
            "equal to its limit");
  EXPECT_EQ(pod.doctor("hugetlbfs mount", {}, false).fix,
            "mount -t hugetlbfs nodev /dev/hugepages (scripts/setup.sh does)");
  DoctorInput off;
  off.hugepages_wanted = false;
  EXPECT_EQ(pod.doctor("hugepages", off).verdict, Verdict::kSkipped);
}

}  // namespace
}  // namespace lr::doctor
