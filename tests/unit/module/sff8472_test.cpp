// SFF-8472 images built here from the specification, field by field, then decoded.

#include "lib/host/module/sff8472.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

#include "tests/unit/module/eeprom_image.hpp"

namespace lr::module {
namespace {

// A0h + A2h of a 25G SR optic: internal calibration, average RX power, DDM.
class Sff8472Image {
 public:
  Sff8472Image() : bytes_(512, 0) {
    a0(0) = 0x03;  // SFP
    a0(1) = 0x04;
    a0(2) = 0x07;  // LC
    a0(3) = 0x10;  // 10GBASE-SR
    a0(12) = 0xFF;  // rate in byte 66
    a0(66) = 103;   // 103 x 250 MBd = 25750 MBd
    a0(19) = 7;     // OM3: 70 m
    a0(18) = 10;    // OM4: 100 m
    put_ascii(20, 16, "ACME OPTICS");
    a0(36) = 0x02;  // 25GBASE-SR
    a0(37) = 0x00, a0(38) = 0x90, a0(39) = 0x65;
    put_ascii(40, 16, "SFP28-SR-100");
    put_ascii(56, 4, "B1");
    put_be16(0, 60, 850);
    put_ascii(68, 16, "SN0001234");
    put_ascii(84, 8, "24061501");
    a0(92) = 0x68;  // DDM implemented, internally calibrated, average power
    fix_checksums();
    // Thresholds: temperature 75/-5/70/0 C; voltage 3.6/3.0/3.5/3.1 V; bias 12/2/11/3 mA;
    // TX power 1.2589/0.0794/1.0/0.1 mW; RX power 1.2589/0.0398/1.0/0.0501 mW.
    set_temperature_raw(0, 75 * 256), set_temperature_raw(2, -5 * 256), set_temperature_raw(4, 70 * 256),
        set_temperature_raw(6, 0);
    put_be16(256, 8, 36000), put_be16(256, 10, 30000), put_be16(256, 12, 35000), put_be16(256, 14, 31000);
    put_be16(256, 16, 6000), put_be16(256, 18, 1000), put_be16(256, 20, 5500), put_be16(256, 22, 1500);
    put_be16(256, 24, 12589), put_be16(256, 26, 794), put_be16(256, 28, 10000), put_be16(256, 30, 1000);
    put_be16(256, 32, 12589), put_be16(256, 34, 398), put_be16(256, 36, 10000), put_be16(256, 38, 501);
    // Live: 35.5 C, 3.3 V, 6.0 mA, 0.5 mW, 0.04 mW (below the RX power low warning).
    set_temperature_raw(96, static_cast<int16_t>(35.5 * 256));
    put_be16(256, 98, 33000);
    put_be16(256, 100, 3000);
    put_be16(256, 102, 5000);
    put_be16(256, 104, 400);
    bytes_[256 + 117] = 0x40;  // RX power low warning flag
  }

  uint8_t& a0(size_t at) { return bytes_[at]; }
  void put_ascii(size_t at, size_t len, const std::string& s) {
    for (size_t i = 0; i < len; ++i) bytes_[at + i] = i < s.size() ? static_cast<uint8_t>(s[i]) : ' ';
  }
  void put_be16(size_t page, size_t at, uint16_t v) {
    bytes_[page + at] = static_cast<uint8_t>(v >> 8);
    bytes_[page + at + 1] = static_cast<uint8_t>(v);
  }
  void set_temperature_raw(size_t at, int v) { put_be16(256, at, static_cast<uint16_t>(static_cast<int16_t>(v))); }
  void fix_checksums() {
    uint32_t sum = 0;
    for (size_t i = 0; i <= 62; ++i) sum += bytes_[i];
    bytes_[63] = static_cast<uint8_t>(sum);
    sum = 0;
    for (size_t i = 64; i <= 94; ++i) sum += bytes_[i];
    bytes_[95] = static_cast<uint8_t>(sum);
  }
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

const Monitor& monitor(const Sff8472& m, const std::string& name) { return test::monitor_named(m.monitors, name); }

TEST(Sff8472, SerialIdFields) {
  Sff8472Image image;
  const Sff8472 m = decode_sff8472(image.bytes());
  EXPECT_EQ(m.identifier_name, "SFP/SFP+/SFP28");
  EXPECT_EQ(m.connector_name, "LC");
  EXPECT_EQ(m.vendor_name, "ACME OPTICS");
  EXPECT_EQ(m.vendor_oui, (std::array<uint8_t, 3>{0x00, 0x90, 0x65}));
  EXPECT_EQ(m.vendor_pn, "SFP28-SR-100");
  EXPECT_EQ(m.vendor_rev, "B1");
  EXPECT_EQ(m.vendor_sn, "SN0001234");
  EXPECT_EQ(m.date_code, "24061501");
  EXPECT_EQ(m.wavelength_nm, 850);
  EXPECT_EQ(m.nominal_rate_mbd, 25750u);
  EXPECT_EQ(m.compliance, (std::vector<std::string>{"10GBASE-SR", "25GBASE-SR"}));
  EXPECT_EQ(m.lengths_m, (std::vector<std::pair<std::string, uint32_t>>{{"OM4", 100}, {"OM3", 70}}));
  EXPECT_TRUE(m.base_checksum_ok);
  EXPECT_TRUE(m.ext_checksum_ok);
  EXPECT_TRUE(m.ddm_implemented);
  EXPECT_FALSE(m.externally_calibrated);
  EXPECT_TRUE(m.rx_power_is_average);
}

TEST(Sff8472, DiagnosticsInTheirUnitsWithThresholds) {
  Sff8472Image image;
  const Sff8472 m = decode_sff8472(image.bytes());
  ASSERT_EQ(m.monitors.size(), 5u);
  const Monitor& t = monitor(m, "temperature");
  EXPECT_DOUBLE_EQ(t.value, 35.5);
  EXPECT_DOUBLE_EQ(t.high_alarm, 75);
  EXPECT_DOUBLE_EQ(t.low_alarm, -5);
  EXPECT_EQ(t.beyond(), "");
  EXPECT_DOUBLE_EQ(monitor(m, "voltage").value, 3.3);
  EXPECT_DOUBLE_EQ(monitor(m, "voltage").low_warning, 3.1);
  EXPECT_DOUBLE_EQ(monitor(m, "bias").value, 6.0);
  EXPECT_DOUBLE_EQ(monitor(m, "bias").high_alarm, 12.0);
  EXPECT_DOUBLE_EQ(monitor(m, "tx_power").value, 0.5);
  EXPECT_NEAR(mw_to_dbm(monitor(m, "tx_power").value), -3.0103, 1e-4);
  const Monitor& rx = monitor(m, "rx_power");
  EXPECT_DOUBLE_EQ(rx.value, 0.04);
  EXPECT_DOUBLE_EQ(rx.low_warning, 0.0501);
  EXPECT_EQ(rx.beyond(), "low warning");
  EXPECT_TRUE(rx.warning_flag);
  EXPECT_FALSE(rx.alarm_flag);
  EXPECT_TRUE(std::isinf(mw_to_dbm(0)));
}

TEST(Sff8472, NegativeTemperatureAndHighAlarm) {
  Sff8472Image image;
  image.set_temperature_raw(96, -10 * 256 - 128);  // -10.5 C
  image.put_be16(256, 100, 6500);                  // 13 mA: above the 12 mA alarm
  image.bytes()[256 + 112] = 0x08;                 // bias high alarm flag
  const Sff8472 m = decode_sff8472(image.bytes());
  EXPECT_DOUBLE_EQ(monitor(m, "temperature").value, -10.5);
  EXPECT_EQ(monitor(m, "temperature").beyond(), "low alarm");
  EXPECT_EQ(monitor(m, "bias").beyond(), "high alarm");
  EXPECT_TRUE(monitor(m, "bias").alarm_flag);
}

TEST(Sff8472, ExternalCalibrationAppliesSlopesOffsetsAndRxPolynomial) {
  Sff8472Image image;
  image.a0(92) = 0x58;  // DDM, externally calibrated, average power
  image.fix_checksums();
  auto put_float = [&](size_t at, float f) {
    const uint32_t raw = std::bit_cast<uint32_t>(f);
    for (int i = 0; i < 4; ++i) image.bytes()[256 + at + i] = static_cast<uint8_t>(raw >> (24 - 8 * i));
  };
  put_float(56, 0), put_float(60, 0), put_float(64, 0), put_float(68, 2.0f), put_float(72, 10.0f);  // Rx_PWR(4..0)
  image.put_be16(256, 76, 512);  // bias slope 2.0
  image.put_be16(256, 78, 100);  // bias offset +100 (x 2 uA)
  image.put_be16(256, 84, 256);  // temperature slope 1.0
  image.put_be16(256, 86, static_cast<uint16_t>(-256));  // offset -1 C
  image.put_be16(256, 88, 256);  // voltage slope 1
  image.put_be16(256, 80, 256);  // tx power slope 1
  const Sff8472 m = decode_sff8472(image.bytes());
  EXPECT_TRUE(m.externally_calibrated);
  EXPECT_DOUBLE_EQ(monitor(m, "bias").value, (2.0 * 3000 + 100) * 2e-3);  // 12.2 mA
  EXPECT_DOUBLE_EQ(monitor(m, "temperature").value, 34.5);
  EXPECT_DOUBLE_EQ(monitor(m, "rx_power").value, (10.0 + 2.0 * 400) * 1e-4);  // Rx_PWR(0) + Rx_PWR(1) x raw
}

TEST(Sff8472, WithoutDiagnosticsOrA2hPage) {
  Sff8472Image image;
  std::vector<uint8_t> a0_only(image.bytes().begin(), image.bytes().begin() + 256);
  const Sff8472 m = decode_sff8472(a0_only);
  EXPECT_TRUE(m.ddm_implemented);
  EXPECT_TRUE(m.monitors.empty());
  EXPECT_NE(format_sff8472(m).find("implemented, but the image has no A2h page"), std::string::npos);
}

TEST(Sff8472, BadChecksumIsReportedNotFatal) {
  Sff8472Image image;
  image.a0(63) ^= 0xFF;
  const Sff8472 m = decode_sff8472(image.bytes());
  EXPECT_FALSE(m.base_checksum_ok);
  EXPECT_NE(format_sff8472(m).find("BAD, ok"), std::string::npos);
}

TEST(Sff8472, TruncatedOrForeignImagesGiveClearErrors) {
  Sff8472Image image;
  try {
    decode_sff8472(std::span<const uint8_t>(image.bytes()).first(100));
    FAIL();
  } catch (const DecodeError& e) {
    EXPECT_STREQ(e.what(), "SFF-8472 image is 100 bytes; the A0h page needs 256");
  }
  try {
    decode_sff8472(std::span<const uint8_t>(image.bytes()).first(300));
    FAIL();
  } catch (const DecodeError& e) {
    EXPECT_STREQ(e.what(), "SFF-8472 image is 300 bytes; expected 256 (A0h) or 512 (A0h + A2h)");
  }
  image.a0(0) = 0x11;  // QSFP28
  try {
    decode_sff8472(image.bytes());
    FAIL();
  } catch (const DecodeError& e) {
    EXPECT_STREQ(e.what(), "byte 0 (identifier) is 0x11, not an SFF-8472 module (0x03 SFP)");
  }
}

}  // namespace
}  // namespace lr::module
