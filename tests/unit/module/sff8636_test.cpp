// SFF-8636 images (lower page, upper pages 00h..03h) built from the specification.

#include "lib/host/module/sff8636.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/module/eeprom_image.hpp"
#include "tests/unit/module/sff8636_image.hpp"

namespace lr::module {
namespace {

using test::Sff8636Image;

const Monitor& monitor(const Sff8636& m, const std::string& name) { return test::monitor_named(m.monitors, name); }

TEST(Sff8636, SerialIdFromUpperPage00h) {
  Sff8636Image image;
  const Sff8636 m = decode_sff8636(image.bytes());
  EXPECT_EQ(m.identifier_name, "QSFP28");
  EXPECT_EQ(m.connector_name, "MPO 1x12");
  EXPECT_EQ(m.compliance, (std::vector<std::string>{"100GBASE-SR4"}));
  EXPECT_EQ(m.nominal_rate_mbd, 25750u);
  EXPECT_EQ(m.lengths_m, (std::vector<std::pair<std::string, uint32_t>>{{"OM3", 70}, {"copper or OM4", 50}}));
  EXPECT_DOUBLE_EQ(m.wavelength_nm, 850.0);
  EXPECT_EQ(m.vendor_name, "ACME OPTICS");
  EXPECT_EQ(m.vendor_pn, "QSFP28-SR4");
  EXPECT_EQ(m.vendor_rev, "A0");
  EXPECT_EQ(m.vendor_sn, "QSN42");
  EXPECT_EQ(m.date_code, "23111501");
  EXPECT_TRUE(m.base_checksum_ok);
  EXPECT_TRUE(m.ext_checksum_ok);
  EXPECT_TRUE(m.rx_power_is_average);
  EXPECT_TRUE(m.has_thresholds);
}

TEST(Sff8636, PerLaneMonitorsWithPage03hThresholdsAndFlags) {
  Sff8636Image image;
  const Sff8636 m = decode_sff8636(image.bytes());
  ASSERT_EQ(m.monitors.size(), 2u + 4 * 3);
  EXPECT_DOUBLE_EQ(monitor(m, "temperature").value, 40.25);
  EXPECT_DOUBLE_EQ(monitor(m, "temperature").low_alarm, -5.0);
  EXPECT_DOUBLE_EQ(monitor(m, "voltage").value, 3.28);
  EXPECT_DOUBLE_EQ(monitor(m, "bias[2]").value, 7.5);
  EXPECT_DOUBLE_EQ(monitor(m, "bias[2]").high_alarm, 30.0);
  EXPECT_DOUBLE_EQ(monitor(m, "tx_power[4]").value, 0.8);
  EXPECT_DOUBLE_EQ(monitor(m, "rx_power[1]").value, 0.6);
  EXPECT_EQ(monitor(m, "rx_power[1]").beyond(), "");
  const Monitor& weak = monitor(m, "rx_power[3]");
  EXPECT_DOUBLE_EQ(weak.value, 0.02);
  EXPECT_DOUBLE_EQ(weak.low_alarm, 0.0355);
  EXPECT_EQ(weak.beyond(), "low alarm");
  EXPECT_TRUE(weak.alarm_flag);
  EXPECT_FALSE(monitor(m, "rx_power[4]").alarm_flag);
  EXPECT_NE(format_sff8636(m).find("rx_power[3] status"), std::string::npos);
}

TEST(Sff8636, AllZeroThresholdsMeanNoneNotAnAlarm) {
  Sff8636Image image;
  image.thresholds(176, 0, 0, 0, 0);
  const Sff8636 m = decode_sff8636(image.bytes());
  EXPECT_EQ(monitor(m, "rx_power[1]").beyond(), "");
  EXPECT_NE(format_sff8636(m).find("rx_power[1] status                        : no thresholds set by the module"),
            std::string::npos);
}

TEST(Sff8636, ShortDumpHasNoThresholds) {
  Sff8636Image image;
  std::vector<uint8_t> short_dump(image.bytes().begin(), image.bytes().begin() + 256);
  const Sff8636 m = decode_sff8636(short_dump);
  EXPECT_FALSE(m.has_thresholds);
  EXPECT_DOUBLE_EQ(monitor(m, "rx_power[3]").value, 0.02);
  EXPECT_NE(format_sff8636(m).find("upper page 03h needs the 640-byte dump"), std::string::npos);
}

TEST(Sff8636, WrongSizesAndIdentifiersAreClearErrors) {
  Sff8636Image image;
  try {
    decode_sff8636(std::span<const uint8_t>(image.bytes()).first(300));
    FAIL();
  } catch (const DecodeError& e) {
    EXPECT_STREQ(e.what(), "SFF-8636 image is 300 bytes; expected 256 (lower page + page 00h) or 640 (+ pages 01h-03h)");
  }
  image.bytes()[128] = 0x0D;
  try {
    decode_sff8636(image.bytes());
    FAIL();
  } catch (const DecodeError& e) {
    EXPECT_STREQ(e.what(), "byte 128 (page 00h identifier) is 0x0d but byte 0 says 0x11: not one module's pages");
  }
}

}  // namespace
}  // namespace lr::module
