// SFF-8636 images (lower page, upper pages 00h..03h) built from the specification.

#include "dataplane/port/module/sff8636.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/module/eeprom_image.hpp"

namespace lr::module {
namespace {

// A QSFP28 100GBASE-SR4, 640-byte dump as `ethtool -m raw on` gives it.
class Sff8636Image : public test::EepromImage {
 public:
  Sff8636Image() : EepromImage(640) {
    b_[0] = 0x11;
    b_[128] = 0x11;
    b_[130] = 0x0C;  // MPO 1x12
    b_[131] = 0x80;  // extended compliance in byte 192
    b_[192] = 0x02;  // 100GBASE-SR4
    b_[140] = 0xFF;
    b_[222] = 103;   // 25750 MBd per lane
    b_[143] = 35;    // OM3 70 m
    b_[146] = 50;    // OM4 100 m
    ascii(148, 16, "ACME OPTICS");
    b_[165] = 0x00, b_[166] = 0x17, b_[167] = 0x6A;
    ascii(168, 16, "QSFP28-SR4");
    ascii(184, 2, "A0");
    be16(186, 850 * 20);
    ascii(196, 16, "QSN42");
    ascii(212, 8, "23111501");
    b_[220] = 0x08;  // average RX power
    fix_checksums();
    // Live values: 40.25 C, 3.28 V; lanes: bias 7.5 mA, TX 0.8 mW, RX 0.6 mW, lane 3 RX 0.02 mW.
    be16(22, static_cast<uint16_t>(40.25 * 256));
    be16(26, 32800);
    for (int lane = 0; lane < 4; ++lane) {
      be16(42 + 2 * lane, 3750);
      be16(50 + 2 * lane, 8000);
      be16(34 + 2 * lane, lane == 2 ? 200 : 6000);
    }
    b_[10] = 0x40;  // RX power flags, lanes 3/4: lane 3 low alarm (bit 6)
    // Page 03h thresholds (image offset 512 + byte - 128).
    thresholds(128, 75 * 256, static_cast<uint16_t>(-5 * 256), 70 * 256, 0);
    thresholds(144, 36000, 30000, 35000, 31000);
    thresholds(176, 34674, 355, 17378, 708);  // RX power 3.4674 / 0.0355 / 1.7378 / 0.0708 mW
    thresholds(184, 7500 * 2, 1000, 6500 * 2, 1500);
    thresholds(192, 34674, 1000, 17378, 1500);
  }
  void thresholds(size_t page_byte, uint16_t ha, uint16_t la, uint16_t hw, uint16_t lw) {
    const size_t at = 512 + page_byte - 128;
    be16(at, ha), be16(at + 2, la), be16(at + 4, hw), be16(at + 6, lw);
  }
  void fix_checksums() {
    checksum(128, 190, 191);
    checksum(192, 222, 223);
  }
};

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
