#pragma once
// A QSFP28 100GBASE-SR4 EEPROM image field by field from SFF-8636, shared by the decoder
// tests and the optics qualification replays (which change its live values per sample).

#include <cstddef>
#include <cstdint>

#include "tests/unit/module/eeprom_image.hpp"

namespace lr::module::test {

// A QSFP28 100GBASE-SR4, 640-byte dump as `ethtool -m raw on` gives it.
class Sff8636Image : public EepromImage {
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

}  // namespace lr::module::test
