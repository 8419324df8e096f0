// CMIS images (lower page, upper pages 00h, 01h, 02h, 10h, 11h of bank 0) built from the
// specification field by field.

#include "lib/host/module/cmis.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "lib/host/module/decoded_module.hpp"
#include "tests/unit/module/eeprom_image.hpp"

namespace lr::module {
namespace {

// A QSFP-DD with two applications (CAUI-4 C2M on 4 host / 4 media lanes, 100GAUI-2 C2M
// on 2 / 2), SMF 500 m, 1311 nm, all monitors advertised: the 768-byte read.
class CmisImage : public test::EepromImage {
 public:
  CmisImage() : EepromImage(768) {
    b_[0] = 0x18;       // QSFP-DD
    b_[1] = 0x50;       // CMIS 5.0
    b_[3] = 3 << 1;     // module state: ready
    b_[85] = 0x02;      // optical SMF
    b_[86] = 0x0B, b_[87] = 0x1C, b_[88] = 0x44, b_[89] = 0x01;  // application 1: 4 host / 4 media lanes
    b_[90] = 0x0D, b_[91] = 0x1D, b_[92] = 0x22, b_[93] = 0x05;  // application 2: 100GAUI-2, 2 / 2 lanes
    b_[94] = 0xFF;      // end of the list
    be16(14, static_cast<uint16_t>(static_cast<int16_t>(-2.5 * 256)));  // -2.5 C
    be16(16, 33000);    // 3.3 V
    b_[9] = 0x08;       // temperature low warning flag (bit 3)
    b_[128] = 0x18;
    ascii(129, 16, "ACME PHOTONICS");
    b_[145] = 0x00, b_[146] = 0x90, b_[147] = 0x65;
    ascii(148, 16, "QDD-DR4-400");
    ascii(164, 2, "B1");
    ascii(166, 16, "CM2611");
    ascii(182, 8, "26113001");
    b_[202] = 0x00;     // no cable assembly length: a separable optic
    b_[203] = 0x0C;     // MPO 1x12
    b_[212] = 0x04;     // 1310 nm DFB
    fix_checksum();
    page(0x01, 132) = 0x05;        // SMF, x0.1 km: 500 m
    be16(upper(0x01, 138), 1311 * 20);  // wavelength in 0.05 nm
    page(0x01, 151) = 0x10;        // Rx power is average
    page(0x01, 160) = 0x07 | 0x08; // bias, Tx power and Rx power monitors; bias multiplier x2
    // Page 02h thresholds: high alarm, low alarm, high warning, low warning.
    thresholds(128, 80 * 256, static_cast<uint16_t>(static_cast<int16_t>(-10 * 256)), 75 * 256, 0);
    thresholds(136, 36300, 29700, 34650, 31350);
    thresholds(176, 40000, 500, 30000, 1000);   // Tx power 4 / 0.05 / 3 / 0.1 mW
    thresholds(184, 6000, 500, 5000, 1000);     // bias raw, x 2 uA x 2: 24 / 2 / 20 / 4 mA
    thresholds(192, 40000, 316, 30000, 631);    // Rx power 4 / 0.0316 / 3 / 0.0631 mW
    for (unsigned lane = 0; lane < 8; ++lane) {
      be16(upper(0x11, 154 + 2 * lane), 12000);              // Tx 1.2 mW
      be16(upper(0x11, 170 + 2 * lane), 2500);               // bias 2500 x 4 uA = 10 mA
      be16(upper(0x11, 186 + 2 * lane), lane == 2 ? 100 : 9000);  // Rx 0.9 mW, lane 3 0.01 mW
    }
    page(0x11, 150) = 1 << 2;  // Rx power low alarm, lane 3
  }
  static size_t upper(uint8_t p, size_t b) {
    const size_t slot = p == 0x01 ? 0 : p == 0x02 ? 1 : p == 0x10 ? 2 : 3;
    return 256 + slot * 128 + b - 128;
  }
  uint8_t& page(uint8_t p, size_t b) { return b_[upper(p, b)]; }
  void thresholds(size_t page_byte, uint16_t ha, uint16_t la, uint16_t hw, uint16_t lw) {
    const size_t at = upper(0x02, page_byte);
    be16(at, ha), be16(at + 2, la), be16(at + 4, hw), be16(at + 6, lw);
  }
  void fix_checksum() { checksum(128, 221, 222); }
};

const Monitor& monitor(const Cmis& m, const std::string& name) { return test::monitor_named(m.monitors, name); }

TEST(Cmis, IdentityApplicationsAndPage01hAdvertising) {
  CmisImage image;
  const Cmis m = decode_cmis(image.bytes());
  EXPECT_EQ(m.identifier_name, "QSFP-DD");
  EXPECT_EQ(m.revision_major, 5u);
  EXPECT_EQ(m.revision_minor, 0u);
  EXPECT_EQ(m.module_state, "ready");
  EXPECT_EQ(m.media_type, "optical SMF");
  EXPECT_EQ(m.media_technology, "1310 nm DFB");
  ASSERT_EQ(m.applications.size(), 2u);
  EXPECT_EQ(m.applications[1].host_interface_name, "100GAUI-2 C2M");
  EXPECT_EQ(m.applications[1].media_interface, 0x1D);
  EXPECT_EQ(m.compliance[0], "CAUI-4 C2M, media 0x1c, 4 host / 4 media lanes");
  EXPECT_EQ(m.media_lanes, 4u);
  EXPECT_EQ(m.connector_name, "MPO 1x12");
  EXPECT_EQ(m.vendor_name, "ACME PHOTONICS");
  EXPECT_EQ(m.vendor_oui, (std::array<uint8_t, 3>{0x00, 0x90, 0x65}));
  EXPECT_EQ(m.vendor_pn, "QDD-DR4-400");
  EXPECT_EQ(m.vendor_rev, "B1");
  EXPECT_EQ(m.vendor_sn, "CM2611");
  EXPECT_EQ(m.date_code, "26113001");
  EXPECT_TRUE(m.base_checksum_ok);
  EXPECT_EQ(m.lengths_m, (std::vector<std::pair<std::string, uint32_t>>{{"SMF", 500}}));
  EXPECT_DOUBLE_EQ(m.wavelength_nm, 1311.0);
  EXPECT_TRUE(m.rx_power_is_average);
  EXPECT_TRUE(m.has_lane_pages);
}

TEST(Cmis, ModuleAndLaneMonitorsWithPage02hThresholdsAndPage11hFlags) {
  CmisImage image;
  const Cmis m = decode_cmis(image.bytes());
  ASSERT_EQ(m.monitors.size(), 2u + 4 * 3);  // 4 media lanes, three monitors each
  const Monitor& temperature = monitor(m, "temperature");
  EXPECT_DOUBLE_EQ(temperature.value, -2.5);
  EXPECT_DOUBLE_EQ(temperature.low_alarm, -10.0);
  EXPECT_DOUBLE_EQ(temperature.low_warning, 0.0);
  EXPECT_EQ(temperature.beyond(), "low warning");
  EXPECT_TRUE(temperature.warning_flag);
  EXPECT_FALSE(temperature.alarm_flag);
  EXPECT_DOUBLE_EQ(monitor(m, "voltage").value, 3.3);
  EXPECT_DOUBLE_EQ(monitor(m, "voltage").high_alarm, 3.63);
  EXPECT_DOUBLE_EQ(monitor(m, "bias[1]").value, 10.0);
  EXPECT_DOUBLE_EQ(monitor(m, "bias[1]").high_alarm, 24.0);
  EXPECT_DOUBLE_EQ(monitor(m, "tx_power[4]").value, 1.2);
  EXPECT_DOUBLE_EQ(monitor(m, "tx_power[4]").low_warning, 0.1);
  EXPECT_DOUBLE_EQ(monitor(m, "rx_power[1]").value, 0.9);
  EXPECT_EQ(monitor(m, "rx_power[1]").beyond(), "");
  const Monitor& dark = monitor(m, "rx_power[3]");
  EXPECT_DOUBLE_EQ(dark.value, 0.01);
  EXPECT_DOUBLE_EQ(dark.low_alarm, 0.0316);
  EXPECT_EQ(dark.beyond(), "low alarm");
  EXPECT_TRUE(dark.alarm_flag);
  EXPECT_FALSE(monitor(m, "rx_power[2]").alarm_flag);
  const std::string text = format_cmis(m);
  EXPECT_NE(text.find("rx_power[3] status                        : BEYOND: low alarm, module alarm flag set"),
            std::string::npos);
  EXPECT_NE(text.find("Module state                              : ready"), std::string::npos);
}

TEST(Cmis, OnlyAdvertisedLaneMonitorsAreDecoded) {
  CmisImage image;
  image.page(0x01, 160) = 0x04;  // Rx power only
  const Cmis m = decode_cmis(image.bytes());
  EXPECT_EQ(m.monitors.size(), 2u + 4);
  EXPECT_DOUBLE_EQ(monitor(m, "rx_power[2]").value, 0.9);
  EXPECT_THROW(monitor(m, "bias[1]"), std::runtime_error);
}

TEST(Cmis, FlatMemoryAndShortImagesHaveModuleMonitorsOnly) {
  CmisImage image;
  std::vector<uint8_t> lower_and_00h(image.bytes().begin(), image.bytes().begin() + 256);
  Cmis m = decode_cmis(lower_and_00h);
  EXPECT_FALSE(m.has_lane_pages);
  EXPECT_EQ(m.monitors.size(), 2u);
  EXPECT_NE(format_cmis(m).find("pages 01h-11h need the 768-byte read"), std::string::npos);
  image.bytes()[2] = 0x80;  // flat memory: the pages after 00h are not the module's
  m = decode_cmis(image.bytes());
  EXPECT_TRUE(m.flat_memory);
  EXPECT_EQ(m.monitors.size(), 2u);
  EXPECT_DOUBLE_EQ(m.monitors[0].high_alarm, 0.0);
}

TEST(Cmis, CableAssemblyLengthUsesItsMultiplier) {
  CmisImage image;
  image.bytes()[202] = 0x40 | 3;  // x1 m, 3
  image.fix_checksum();
  EXPECT_EQ(decode_cmis(image.bytes()).lengths_m[0], (std::pair<std::string, uint32_t>{"cable assembly", 3}));
}

TEST(Cmis, WrongSizesIdentifiersAndChecksumAreReported) {
  CmisImage image;
  try {
    decode_cmis(std::span<const uint8_t>(image.bytes()).first(640));
    FAIL();
  } catch (const DecodeError& e) {
    EXPECT_STREQ(e.what(), "CMIS image is 640 bytes; expected 256 (lower page + page 00h) or 768 (+ pages 01h, 02h, "
                           "10h, 11h)");
  }
  image.bytes()[150] ^= 0xFF;  // a serial-number byte: checksum no longer matches
  EXPECT_FALSE(decode_cmis(image.bytes()).base_checksum_ok);
  image.bytes()[128] = 0x19;
  EXPECT_THROW(decode_cmis(image.bytes()), DecodeError);
}

TEST(DecodedModule, ChoosesTheLayoutByIdentifierAndSaysWhyOtherwise) {
  CmisImage image;
  EXPECT_TRUE(std::holds_alternative<Cmis>(decode_module(image.bytes())));
  EXPECT_EQ(module_to_json(decode_module(image.bytes()))["layout"], "CMIS");
  EXPECT_EQ(module_to_json(decode_module(image.bytes()))["monitors"][13]["name"], "rx_power[4]");
  try {
    decode_module(std::vector<uint8_t>{});
    FAIL();
  } catch (const DecodeError& e) {
    EXPECT_STREQ(e.what(), "the image is empty");
  }
  std::vector<uint8_t> unknown(256, 0);
  unknown[0] = 0x42;
  try {
    decode_module(unknown);
    FAIL();
  } catch (const DecodeError& e) {
    EXPECT_STREQ(e.what(), "byte 0 (identifier) is 0x42, which none of the three formats names: SFF-8472 (0x03 "
                           "SFP/SFP+/SFP28), SFF-8636 (0x0c QSFP, 0x0d QSFP+, 0x11 QSFP28) or CMIS (0x18 QSFP-DD, 0x19 "
                           "OSFP, 0x1e QSFP+ with CMIS)");
  }
  // 640 zero bytes: no module, whatever the length.
  try {
    decode_module(std::vector<uint8_t>(640, 0));
    FAIL();
  } catch (const DecodeError& e) {
    EXPECT_STREQ(e.what(), "byte 0 (identifier) is 0x00: no module type is set (a blank, unprogrammed or unread EEPROM)");
  }
}

}  // namespace
}  // namespace lr::module
