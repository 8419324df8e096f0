// The kernel backend's ioctl and netlink encoding against a fake mlx5-like netdev: link
// modes, FEC, pause, DCB PFC, `ethtool -S` and FEC statistics, module EEPROM pages.

#include "lib/host/kernel/kernel_netdev.hpp"

#include <gtest/gtest.h>
#include <linux/ethtool.h>

#include "lib/host/module/cmis.hpp"
#include "tests/support/fake_kernel_io.hpp"

namespace lr::dp {
namespace {

struct KernelNetdevTest : ::testing::Test {
  test::FakeKernelIo io;
  KernelNetdev netdev{"eth9", io};
};

TEST_F(KernelNetdevTest, LinkReadsModesThroughTheNwordsHandshake) {
  const auto link = netdev.link();
  ASSERT_TRUE(link) << to_string(link.error());
  EXPECT_TRUE(link->up);
  EXPECT_EQ(link->speed_mbps, 50000u);
  EXPECT_TRUE(link->autoneg);
  EXPECT_EQ(link->supported, (std::vector<std::string>{"25000baseCR/Full", "50000baseCR2/Full", "100000baseCR4/Full",
                                                       "50000baseCR/Full"}));
  EXPECT_EQ(link->advertised, (std::vector<std::string>{"50000baseCR2/Full", "50000baseCR/Full"}));
  EXPECT_EQ(netdev.driver(), "mlx5_core");
}

TEST_F(KernelNetdevTest, LinkSetAdvertisesExactModesOrASpeedsModesOrFixesTheSpeed) {
  LinkRequest request;
  request.advertise = std::vector<std::string>{"50000baseCR/Full"};  // 50G as 1x50G PAM4 only
  ASSERT_TRUE(netdev.set_link(request));
  EXPECT_EQ(io.advertised_bits, (std::vector<uint32_t>{ETHTOOL_LINK_MODE_50000baseCR_Full_BIT}));
  EXPECT_TRUE(io.autoneg);
  request = LinkRequest{};
  request.speed_mbps = 25000;
  ASSERT_TRUE(netdev.set_link(request));
  EXPECT_EQ(io.advertised_bits, (std::vector<uint32_t>{ETHTOOL_LINK_MODE_25000baseCR_Full_BIT}));
  request.autoneg = false;
  request.speed_mbps = 100000;
  ASSERT_TRUE(netdev.set_link(request));
  EXPECT_FALSE(io.autoneg);
  EXPECT_EQ(io.speed_mbps, 100000u);
  request = LinkRequest{};
  request.advertise = std::vector<std::string>{"400000baseCR4/Full"};
  const auto refused = netdev.set_link(request);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, Errc::kInvalid);
  EXPECT_NE(refused.error().context.find("none of the requested link modes is supported"), std::string::npos);
}

TEST_F(KernelNetdevTest, FecModesCapabilityAndSet) {
  auto fec = netdev.fec();
  ASSERT_TRUE(fec);
  EXPECT_EQ(fec->configured, uint32_t{kFecAuto});
  EXPECT_EQ(fec->active, uint32_t{kFecRs});
  ASSERT_EQ(fec->capability.size(), 1u);
  EXPECT_EQ(fec_names(fec->capability[0].modes), "off|baser|rs|auto");
  ASSERT_TRUE(netdev.set_fec(kFecBaseR));
  EXPECT_EQ(io.fec_configured, uint32_t{ETHTOOL_FEC_BASER});
  const auto refused = netdev.set_fec(kFecLlrs);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().context, "FEC set on kernel netdev eth9 (mlx5_core)");
  EXPECT_EQ(refused.error().sys_errno, EINVAL);
}

TEST_F(KernelNetdevTest, PauseGetSetAndAClearErrorWhenTheDriverHasNone) {
  ASSERT_TRUE(netdev.set_pause(PauseStatus{true, false, false}));
  const auto pause = netdev.pause();
  ASSERT_TRUE(pause);
  EXPECT_TRUE(pause->rx);
  EXPECT_FALSE(pause->tx);
  io.pause_supported = false;
  const auto none = netdev.pause();
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, Errc::kNotSupported);
  EXPECT_EQ(none.error().context, "pause get is not supported by the kernel netdev eth9 (mlx5_core)");
}

TEST_F(KernelNetdevTest, PfcOverDcbIeeeWithPerPriorityFrameCounts) {
  io.pfc_requests[3] = 11;
  io.pfc_indications[3] = 29;
  ASSERT_TRUE(netdev.set_pfc(0x18));  // priorities 3 and 4
  EXPECT_EQ(io.pfc_enabled, 0x18);
  const auto pfc = netdev.pfc();
  ASSERT_TRUE(pfc);
  EXPECT_EQ(pfc->enabled, 0x18);
  EXPECT_EQ(pfc->capable, 8);
  EXPECT_EQ(pfc->requests[3], 11u);
  EXPECT_EQ(pfc->indications[3], 29u);
  io.dcb_supported = false;
  const auto none = netdev.pfc();
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().context, "PFC get (DCB) is not supported by the kernel netdev eth9 (mlx5_core)");
}

TEST_F(KernelNetdevTest, EthtoolStatsByTheDriversNamesAndFecStatisticsPerLane) {
  const auto stats = netdev.ethtool_stats();
  ASSERT_TRUE(stats);
  ASSERT_EQ(stats->size(), io.stats.size());
  EXPECT_EQ((*stats)[2].name, "rx_prio3_pause");
  EXPECT_EQ((*stats)[2].value, 17u);
  EXPECT_EQ((*stats)[2].source, "ethtool");
  const auto fec = netdev.fec_stats();
  ASSERT_TRUE(fec) << to_string(fec.error());
  ASSERT_EQ(fec->size(), 15u);
  EXPECT_EQ((*fec)[0].name, "corrected_blocks");
  EXPECT_EQ((*fec)[0].value, 40u);
  EXPECT_EQ((*fec)[7].name, "uncorrectable_blocks_lane1");
  EXPECT_EQ((*fec)[7].value, 1u);
  EXPECT_EQ((*fec)[14].name, "corrected_bits_lane3");
  EXPECT_EQ((*fec)[14].source, "fec");
}

TEST_F(KernelNetdevTest, CmisModuleEepromFromBankedPageReads) {
  std::vector<uint8_t> lower(128, 0), upper0(128, 0);
  lower[0] = 0x18;
  lower[85] = 0x01;
  lower[86] = 0xFF;
  upper0[0] = 0x18;
  const char* vendor = "FAKE OPTICS     ";
  std::copy(vendor, vendor + 16, upper0.begin() + 1);
  io.eeprom_pages[{0x50, 0, 0}] = lower;
  io.eeprom_pages[{0x50, 0, 128}] = upper0;
  for (uint8_t page : {0x01, 0x02, 0x10, 0x11}) io.eeprom_pages[{0x50, page, 128}] = std::vector<uint8_t>(128, page);
  const auto image = netdev.module_eeprom();
  ASSERT_TRUE(image) << to_string(image.error());
  ASSERT_EQ(image->size(), 768u);
  EXPECT_EQ((*image)[256], 0x01);  // page 01h follows page 00h
  EXPECT_EQ((*image)[767], 0x11);
  EXPECT_EQ(module::decode_cmis(*image).vendor_name, "FAKE OPTICS");
  io.eeprom_pages.erase({0x50, 0x11, 128});  // a module without page 11h: the 256-byte image
  EXPECT_EQ(netdev.module_eeprom()->size(), 256u);
}

TEST_F(KernelNetdevTest, AMissingNetdevIsNoDevice) {
  KernelNetdev gone("eth7", io);
  const auto link = gone.link();
  ASSERT_FALSE(link);
  EXPECT_EQ(link.error().code, Errc::kNoDevice);
}

}  // namespace
}  // namespace lr::dp
