// How a port's MAC Control frames leave, for every choice of the profile against a PMD
// that passes them, one that drops them (i40e), with and without a kernel netdev.

#include "dataplane/plan/mac_control_path.hpp"

#include <gtest/gtest.h>

namespace lr::plan {
namespace {

using api::MacControlTx;

TEST(MacControlPath, AutoUsesThePmdUnlessItDropsThem) {
  EXPECT_EQ(mac_control_path(api::MacControlTx::kAuto, "mlx5_pci", "ens1f0np0").describe(), "PMD");
  EXPECT_EQ(mac_control_path(api::MacControlTx::kAuto, "net_ring", "").describe(), "PMD");
  const MacControlPath i40e = mac_control_path(api::MacControlTx::kAuto, "net_i40e", "ens2f0");
  EXPECT_TRUE(i40e.through_netdev);
  EXPECT_EQ(i40e.describe(), "kernel netdev ens2f0 (AF_PACKET)");
  EXPECT_EQ(mac_control_path(api::MacControlTx::kAuto, "net_i40e", "").describe(),
            "none: the net_i40e driver drops EtherType 0x8808 on transmit and the port has no kernel netdev to send "
            "them through; send them from a port whose driver passes them (e.g. mlx5)");
}

TEST(MacControlPath, PmdIsRefusedWhereItDropsThem) {
  EXPECT_EQ(mac_control_path(api::MacControlTx::kPmd, "mlx5_pci", "ens1f0np0").describe(), "PMD");
  EXPECT_EQ(mac_control_path(api::MacControlTx::kPmd, "net_i40e", "ens2f0").refusal,
            "the net_i40e driver drops EtherType 0x8808 on transmit; mac_control_tx = \"netdev\" sends them through "
            "ens2f0");
  EXPECT_EQ(mac_control_path(api::MacControlTx::kPmd, "net_i40e", "").refusal,
            "the net_i40e driver drops EtherType 0x8808 on transmit; send them from a port whose driver passes them "
            "(e.g. mlx5)");
}

TEST(MacControlPath, NetdevNeedsOne) {
  const MacControlPath veth = mac_control_path(api::MacControlTx::kNetdev, "net_af_packet", "lra");
  EXPECT_TRUE(veth.through_netdev);
  EXPECT_EQ(veth.netdev, "lra");
  EXPECT_EQ(mac_control_path(api::MacControlTx::kNetdev, "net_ring", "").refusal,
            "mac_control_tx = \"netdev\", but the port has no kernel netdev beside its PMD (a bifurcated mlx5 port or "
            "an af_packet port has one)");
}

}  // namespace
}  // namespace lr::plan
