#include "dataplane/eal/lcore_plan.hpp"

#include <gtest/gtest.h>

#include "dataplane/eal/eal_args.hpp"

namespace lr::dp {
namespace {

TEST(LcorePlan, QueuesGoToWorkersOnThePortsSocket) {
  const std::vector<WorkerLcore> workers{{1, 0}, {2, 0}, {3, 1}, {4, 1}};
  const std::vector<PortQueues> ports{{"p0", 1, 2, 2, {}, {}}, {"p1", 0, 1, 1, {}, {}}};
  auto plan = plan_lcores(workers, ports, false);
  ASSERT_TRUE(plan);
  ASSERT_EQ(plan->rx.size(), 3u);
  EXPECT_EQ(plan->rx[0].lcore_id, 3u);
  EXPECT_EQ(plan->rx[1].lcore_id, 4u);
  EXPECT_EQ(plan->tx_lcore(1, 0), 2u);  // port index 1 starts one worker further
  EXPECT_TRUE(plan->warnings.empty());
}

TEST(LcorePlan, CrossNumaIsRefusedWithTheCost) {
  auto plan = plan_lcores({{1, 0}}, {{"p0", 1, 1, 1, {}, {}}}, false);
  ASSERT_FALSE(plan);
  EXPECT_NE(plan.error().context.find("port 'p0' is on NUMA socket 1 but no worker lcore is"), std::string::npos);
  EXPECT_NE(plan.error().context.find("allow_cross_numa"), std::string::npos);
}

TEST(LcorePlan, CrossNumaAllowedIsMarkedAndWarned) {
  auto plan = plan_lcores({{1, 0}}, {{"p0", 1, 1, 1, {}, {}}}, true);
  ASSERT_TRUE(plan);
  EXPECT_TRUE(plan->rx[0].cross_numa);
  EXPECT_EQ(plan->warnings.size(), 1u);
}

TEST(LcorePlan, VdevsWithoutSocketUseAnyWorker) {
  auto plan = plan_lcores({{1, 1}}, {{"p0", kAnySocket, 1, 1, {}, {}}}, false);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->tx_lcore(0, 0), 1u);
}

TEST(LcorePlan, NoWorkerIsAnError) {
  auto plan = plan_lcores({}, {{"p0", 0, 1, 1, {}, {}}}, false);
  ASSERT_FALSE(plan);
  EXPECT_NE(plan.error().context.find("no worker lcore"), std::string::npos);
}

TEST(LcorePlan, ExplicitPlacementPutsRxAndTxOnChosenLcores) {
  PortQueues port{"p0", 0, 2, 1, {2, 3}, {1}};
  auto plan = plan_lcores({{1, 0}, {2, 0}, {3, 0}}, {port}, false);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->rx[0].lcore_id, 2u);
  EXPECT_EQ(plan->rx[1].lcore_id, 3u);
  EXPECT_EQ(plan->tx_lcore(0, 0), 1u);
}

TEST(LcorePlan, PlacementOnMainOrForeignSocketIsRefused) {
  auto main_lcore = plan_lcores({{1, 0}}, {PortQueues{"p0", 0, 1, 1, {0}, {}}}, false);
  ASSERT_FALSE(main_lcore);
  EXPECT_EQ(main_lcore.error().context,
            "port 'p0' places a queue on lcore 0, which is not a worker lcore of eal.lcores (the first lcore is the "
            "main lcore)");
  auto foreign = plan_lcores({{1, 0}, {2, 1}}, {PortQueues{"p0", 0, 1, 1, {}, {2}}}, false);
  ASSERT_FALSE(foreign);
  EXPECT_EQ(foreign.error().context,
            "port 'p0' (socket 0) places a queue on lcore 2 of socket 1: set eal.allow_cross_numa = true to accept the "
            "cost");
}

TEST(EalArgs, VdevsOnlyMeansNoPci) {
  profile::Profile p;
  p.ports.push_back({});
  p.ports[0].device = "net_af_packet0,iface=veth0";
  const auto args = build_eal_args(p, false);
  EXPECT_NE(std::find(args.begin(), args.end(), "--no-pci"), args.end());
  EXPECT_NE(std::find(args.begin(), args.end(), "--vdev=net_af_packet0,iface=veth0"), args.end());
  EXPECT_NE(std::find(args.begin(), args.end(), "--no-huge"), args.end());
}

TEST(EalArgs, PciPortsBecomeAnAllowList) {
  profile::Profile p;
  p.ports.push_back({});
  p.ports[0].device = "0000:3b:00.0";
  p.ports.push_back({});
  p.ports[1].device = "3b:00.1,rxq_cqe_comp_en=0";
  const auto args = build_eal_args(p, true);
  EXPECT_EQ(std::find(args.begin(), args.end(), "--no-pci"), args.end());
  EXPECT_EQ(std::count(args.begin(), args.end(), "-a"), 2);
  EXPECT_NE(std::find(args.begin(), args.end(), "3b:00.1,rxq_cqe_comp_en=0"), args.end());
  EXPECT_NE(std::find(args.begin(), args.end(), "--file-prefix"), args.end());
}

TEST(EalArgs, HugepageFilesAreUnlinkedUnlessKeptForSecondaryProcesses) {
  profile::Profile p;
  p.eal.huge_pages = profile::HugePages::kOn;
  const auto unlinked = build_eal_args(p, true);
  EXPECT_NE(std::find(unlinked.begin(), unlinked.end(), "--huge-unlink"), unlinked.end());
  p.eal.huge_unlink = false;
  const auto kept = build_eal_args(p, true);
  EXPECT_EQ(std::find(kept.begin(), kept.end(), "--huge-unlink"), kept.end());
  p.eal.huge_pages = profile::HugePages::kOff;  // EAL refuses --huge-unlink with --no-huge
  p.eal.huge_unlink = true;
  const auto none = build_eal_args(p, true);
  EXPECT_EQ(std::find(none.begin(), none.end(), "--huge-unlink"), none.end());
}

TEST(EalArgs, DeviceNames) {
  EXPECT_TRUE(is_pci_device("0000:3b:00.0"));
  EXPECT_TRUE(is_pci_device("af:00.1"));
  EXPECT_FALSE(is_pci_device("net_ring0"));
  EXPECT_EQ(device_port_name("net_pcap0,tx_pcap=/tmp/x.pcap"), "net_pcap0");
}

}  // namespace
}  // namespace lr::dp
