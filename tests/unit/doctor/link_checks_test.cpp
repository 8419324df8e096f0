// The doctor's checks through a port's kernel netdev, answered by the kernel-interface
// fake as an mlx5 netdev would: a 50G port that negotiated 25G because this end offers
// only KR2 and the partner only CR2, FEC off at 50G, a module beyond its alarm threshold
// or the field's rules of thumb, and FEC corrections that keep growing. Each verdict
// shown OK on the healthy answer and WARN / FAIL on the bad one.

#include "control/suites/doctor/link_checks.hpp"

#include <gtest/gtest.h>
#include <linux/ethtool.h>

#include <cmath>

#include "tests/support/fake_kernel_io.hpp"
#include "tests/unit/module/sff8636_image.hpp"

namespace lr::doctor {
namespace {

class NetdevLink : public ::testing::Test {
 protected:
  NetdevLink() {
    io.partner_bits = {ETHTOOL_LINK_MODE_50000baseCR2_Full_BIT, ETHTOOL_LINK_MODE_50000baseCR_Full_BIT};
    image.bytes()[10] = 0;
    set_rx_power_mw(3, 0.6);
    serve();
  }
  void set_rx_power_mw(int lane, double mw) { image.be16(34 + 2 * (lane - 1), static_cast<uint16_t>(std::lround(mw * 1e4))); }
  void serve() {
    const auto& b = image.bytes();
    io.eeprom_pages[{0x50, 0, 0}] = {b.begin(), b.begin() + 128};
    for (uint8_t page = 0; page < 4; ++page)
      io.eeprom_pages[{0x50, page, 128}] = {b.begin() + 128 + 128 * page, b.begin() + 256 + 128 * page};
  }
  Finding finding(const std::string& item) {
    for (Finding& f : check_netdev_link(netdev, "east (0000:3b:00.0)", true))
      if (f.item == item + " east (0000:3b:00.0)") return f;
    ADD_FAILURE() << "no finding " << item;
    return {};
  }

  test::FakeKernelIo io;
  dp::KernelNetdev netdev{"eth9", io};
  module::test::Sff8636Image image;
};

TEST_F(NetdevLink, AHealthyPortIsOk) {
  const Finding link = finding("link");
  EXPECT_EQ(link.verdict, Verdict::kOk);
  EXPECT_EQ(link.evidence, "eth9 up at 50000 Mb/s, autoneg");
  EXPECT_EQ(finding("FEC").evidence, "rs active (configured: auto)");
  const Finding ddm = finding("module DDM");
  EXPECT_EQ(ddm.verdict, Verdict::kOk) << ddm.evidence;
  EXPECT_EQ(ddm.evidence, "ACME OPTICS QSFP28-SR4 s/n QSN42: 14 monitors inside the module's thresholds and the field's "
                          "rules of thumb");
}

TEST_F(NetdevLink, A50GPortThatNegotiated25GWarnsWithBothEndsAdvertisements) {
  io.speed_mbps = 25000;
  io.advertised_bits = {ETHTOOL_LINK_MODE_50000baseKR2_Full_BIT, ETHTOOL_LINK_MODE_25000baseKR_Full_BIT};
  io.partner_bits = {ETHTOOL_LINK_MODE_50000baseCR2_Full_BIT, ETHTOOL_LINK_MODE_25000baseCR_Full_BIT};
  const Finding link = finding("link");
  EXPECT_EQ(link.verdict, Verdict::kWarn);
  EXPECT_EQ(link.evidence, "eth9 up at 25000 Mb/s, autoneg; this end advertises up to 50000 Mb/s (50000baseKR2); the "
                           "partner offers 50000baseCR2 at 50000 Mb/s and up to 50000 Mb/s: the link negotiated below "
                           "what this port can");
  EXPECT_NE(link.fix.find("the same media type, KR or CR"), std::string::npos);
  io.carrier = false;
  EXPECT_EQ(finding("link").verdict, Verdict::kFail);
}

TEST_F(NetdevLink, NoFecAt50GWarns) {
  io.fec_active = ETHTOOL_FEC_OFF;
  io.fec_configured = ETHTOOL_FEC_OFF;
  const Finding fec = finding("FEC");
  EXPECT_EQ(fec.verdict, Verdict::kWarn);
  EXPECT_EQ(fec.evidence, "no FEC active at 50000 Mb/s (configured: off): 25 Gb/s lanes need RS or BASE-R FEC on most media");
}

TEST_F(NetdevLink, AModuleBeyondItsAlarmFailsAndBelowTheRuleOfThumbWarns) {
  image.be16(22, static_cast<uint16_t>(76 * 256));  // high alarm 75 C
  serve();
  const Finding hot = finding("module DDM");
  EXPECT_EQ(hot.verdict, Verdict::kFail);
  EXPECT_EQ(hot.evidence, "ACME OPTICS QSFP28-SR4 s/n QSN42: beyond the module's alarm thresholds: temperature high alarm");
  image.be16(22, static_cast<uint16_t>(40 * 256));
  set_rx_power_mw(2, 0.05);  // -13 dBm: below the -12 dBm rule and the module's low warning (0.0708 mW)
  serve();
  const Finding weak = finding("module DDM");
  EXPECT_EQ(weak.verdict, Verdict::kWarn);
  EXPECT_EQ(weak.evidence, "ACME OPTICS QSFP28-SR4 s/n QSN42: rx_power[2] low warning; rx_power[2] -13.01 dBm below -12 dBm");
  io.eeprom_pages.clear();
  EXPECT_EQ(finding("module DDM").verdict, Verdict::kSkipped);
}

TEST_F(NetdevLink, PfcOffOnARocePortWarns) {
  io.pfc_enabled = 1 << 3;
  io.pfc_indications[3] = 12;
  EXPECT_EQ(finding("PFC").evidence, "PFC on priorities 3 of eth9 (DCB); PFC frames per priority: 3: 12 received, 0 sent");
  io.pfc_enabled = 0;
  const Finding off = finding("PFC");
  EXPECT_EQ(off.verdict, Verdict::kWarn);
  EXPECT_EQ(off.evidence, "PFC is off on every priority of eth9 (DCB): RoCE traffic is lossy");
}

TEST_F(NetdevLink, PcpTrustOnARocePortWarnsAndDscpTrustIsShown) {
  const Finding pcp = finding("DSCP trust");
  EXPECT_EQ(pcp.verdict, Verdict::kWarn);
  EXPECT_EQ(pcp.evidence, "no DSCP entry in eth9's DCB APP table: the port trusts PCP, and untagged (routed) RoCE frames "
                          "all land on priority 0");
  io.dscp_apps = {{26, 3}, {48, 6}, {0, 0}};
  const Finding dscp = finding("DSCP trust");
  EXPECT_EQ(dscp.verdict, Verdict::kOk);
  EXPECT_EQ(dscp.evidence, "trust dscp (3 entries in the DCB APP table): priority 0: DSCP 0; priority 3: DSCP 26; "
                           "priority 6: DSCP 48");
}

TEST_F(NetdevLink, FecCorrectionsThatKeepGrowingWarnAndUncorrectableFails) {
  const FecReading before = read_fec(netdev);
  ASSERT_EQ(before.corrected, std::optional<uint64_t>(40));
  ASSERT_EQ(before.uncorrectable, std::optional<uint64_t>(1));
  io.fec_corrected[0] += 50;  // 600 a minute
  Finding f = check_fec_growth("east", before, read_fec(netdev), 5);
  EXPECT_EQ(f.verdict, Verdict::kOk);
  EXPECT_EQ(f.evidence, "50 corrected, 0 uncorrectable blocks in 5 s (600 corrected a minute)");
  io.fec_corrected[0] += 150;  // 2,400 a minute
  f = check_fec_growth("east", before, read_fec(netdev), 5);
  EXPECT_EQ(f.verdict, Verdict::kWarn);
  EXPECT_NE(f.evidence.find("(2400 corrected a minute): above 1,000 a minute"), std::string::npos) << f.evidence;
  io.fec_uncorrectable[0] += 1;
  EXPECT_EQ(check_fec_growth("east", before, read_fec(netdev), 5).verdict, Verdict::kFail);
  EXPECT_EQ(check_fec_growth("east", FecReading{}, FecReading{}, 5).verdict, Verdict::kSkipped);
}

}  // namespace
}  // namespace lr::doctor
