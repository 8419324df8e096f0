// CLOCK_REALTIME against a NIC's PTP hardware clock: the offset from the sample with the
// narrowest window, the TAI-UTC offset taken off only on PTP's timescale, and each way the
// measurement fails said with the interface and the device. This VM (Firecracker) has no
// /dev/ptp* at all, so PTP_SYS_OFFSET_EXTENDED is seen here only refused (ENOTTY on a plain
// file); a host with a PHC reads it through the same code.
#include "lib/host/phc_offset.hpp"

#include <gtest/gtest.h>
#include <linux/ethtool.h>
#include <stdlib.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <vector>

namespace lr::host {
namespace {

constexpr int64_t kS = 1'000'000'000;
constexpr int64_t kNow = 1'700'000'000 * kS;  // CLOCK_REALTIME in 2023
constexpr int64_t kTai = kNow + 37 * kS;     // the PHC on PTP's timescale, TAI - UTC = 37 s

TEST(PhcOffset, TheNarrowestSampleGivesTheOffsetAndHalfItsWindow) {
  // Windows of 400, 101 and 300 ns: the second, whose midpoint (rounded down) is kNow + 2050,
  // when the PHC read kTai + 2000, i.e. UTC kNow + 2000.
  const std::vector<PhcSample> samples = {{kNow + 1000, kTai + 1100, kNow + 1400},
                                          {kNow + 2000, kTai + 2000, kNow + 2101},
                                          {kNow + 3000, kTai + 2900, kNow + 3300}};
  const auto offset = realtime_minus_phc(samples, PhcTimescale::kPtp, 37);
  ASSERT_TRUE(offset);
  EXPECT_EQ(offset->offset_ns, 50);
  EXPECT_EQ(offset->error_ns, 51u);  // ceil(101 / 2): the truth lies between 2000 and 2101
}

TEST(PhcOffset, TheTaiOffsetIsTakenOffOnlyOnPtpTimescale) {
  const std::vector<PhcSample> samples = {{kNow, kTai - 120, kNow + 40}};
  EXPECT_EQ(realtime_minus_phc(samples, PhcTimescale::kPtp, 37)->offset_ns, 140);
  EXPECT_EQ(realtime_minus_phc(samples, PhcTimescale::kArbitrary, 37)->offset_ns, 140 - 37 * kS);
  EXPECT_EQ(realtime_minus_phc(samples, PhcTimescale::kArbitrary, 37)->error_ns, 20u);
}

TEST(PhcOffset, EqualWindowsTakeTheFirstAndBackwardOnesNone) {
  const std::vector<PhcSample> samples = {{kNow + 500, kNow, kNow + 300},  // after before before: skipped
                                          {kNow, kNow - 10, kNow + 20},
                                          {kNow + 100, kNow + 100, kNow + 120}};
  const auto offset = realtime_minus_phc(samples, PhcTimescale::kArbitrary, 0);
  ASSERT_TRUE(offset);
  EXPECT_EQ(offset->offset_ns, 20);
  EXPECT_EQ(offset->error_ns, 10u);
  EXPECT_FALSE(realtime_minus_phc(std::span(samples).first(1), PhcTimescale::kArbitrary, 0));
  EXPECT_FALSE(realtime_minus_phc({}, PhcTimescale::kPtp, 37));
}

// An interface answering ETHTOOL_GET_TS_INFO with `phc_index`, or refusing it with `error`.
class TsInfoKernel final : public dp::KernelIo {
 public:
  int phc_index = -1;
  int error = 0;
  int ethtool(const std::string& ifname, void* command) override {
    if (ifname != "eth9") return -ENODEV;
    if (error != 0) return error;
    auto* info = static_cast<ethtool_ts_info*>(command);
    if (info->cmd != ETHTOOL_GET_TS_INFO) return -EOPNOTSUPP;
    info->phc_index = phc_index;
    return 0;
  }
  dp::NetlinkReply netlink(int, std::span<const uint8_t>) override { return {-EOPNOTSUPP, "", {}}; }
  int get_mtu(const std::string&, uint32_t&) override { return -EOPNOTSUPP; }
  int set_mtu(const std::string&, uint32_t) override { return -EOPNOTSUPP; }
  int get_flags(const std::string&, uint32_t&) override { return -EOPNOTSUPP; }
  int set_flags(const std::string&, uint32_t) override { return -EOPNOTSUPP; }
};

TEST(PhcOffset, AnInterfaceWithAClockNamesItsDevice) {
  TsInfoKernel kernel;
  kernel.phc_index = 3;
  const PhcMeasurement m = find_phc(kernel, "eth9");
  EXPECT_EQ(m.problem, "");
  EXPECT_EQ(m.device, "/dev/ptp3");
  EXPECT_EQ(m.interface, "eth9");
}

TEST(PhcOffset, AnInterfaceWithoutOneSaysSo) {
  TsInfoKernel kernel;
  EXPECT_EQ(find_phc(kernel, "eth9").problem, "eth9 has no PTP hardware clock");
  EXPECT_EQ(find_phc(kernel, "eth9").device, "");
  EXPECT_EQ(find_phc(kernel, "fake0").problem,
            "cannot ask fake0 for its PTP hardware clock (ETHTOOL_GET_TS_INFO): No such device");
  kernel.error = -EOPNOTSUPP;
  EXPECT_EQ(find_phc(kernel, "eth9").problem,
            "cannot ask eth9 for its PTP hardware clock (ETHTOOL_GET_TS_INFO): Operation not supported");
  EXPECT_EQ(find_phc(kernel, "").problem, "ptp4l named no interface for its port");
  // Not found: nothing is opened, the problem stays.
  EXPECT_EQ(measure_phc(kernel, "eth9", PhcTimescale::kPtp, 37).problem,
            "cannot ask eth9 for its PTP hardware clock (ETHTOOL_GET_TS_INFO): Operation not supported");
}

TEST(PhcOffset, ADeviceThatCannotBeReadSaysWhyAndWhich) {
  char dir[] = "/tmp/lr-phc-offset-XXXXXX";
  const std::string root = ::mkdtemp(dir);
  PhcMeasurement found;
  found.interface = "eth9";
  found.device = root + "/ptp7";
  EXPECT_EQ(read_phc(found, PhcTimescale::kPtp, 37).problem,
            "cannot open " + found.device + " (eth9's PTP hardware clock): No such file or directory");
  std::ofstream(found.device) << "not a clock";
  const PhcMeasurement m = read_phc(found, PhcTimescale::kPtp, 37);
  EXPECT_EQ(m.problem, "PTP_SYS_OFFSET_EXTENDED on " + found.device +
                           " (eth9's PTP hardware clock) failed: Inappropriate ioctl for device");
  EXPECT_EQ(m.device, found.device);
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace lr::host
