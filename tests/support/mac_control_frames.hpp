#pragma once
// MAC Control frames as a device under test sends them (no signature), written out by
// hand from IEEE 802.3 Annex 31B / 802.1Qbb rather than with the TX writer under test.

#include <array>
#include <cstdint>

namespace lr::test {

/// 60 bytes (64 with the FCS): destination 01:80:C2:00:00:01, EtherType 0x8808,
/// `opcode`, then `word16` (PFC: the class-enable vector; PAUSE: its quanta) and, for
/// PFC, the eight `quanta`; zero padding after.
inline std::array<uint8_t, 60> mac_control_frame(uint16_t opcode, uint16_t word16, std::array<uint16_t, 8> quanta = {}) {
  std::array<uint8_t, 60> f{0x01, 0x80, 0xC2, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x07, 0x88, 0x08};
  const auto put = [&f](unsigned at, uint16_t v) {
    f[at] = static_cast<uint8_t>(v >> 8);
    f[at + 1] = static_cast<uint8_t>(v);
  };
  put(14, opcode);
  put(16, word16);
  for (unsigned p = 0; p < 8; ++p) put(18 + 2 * p, quanta[p]);
  return f;
}

inline std::array<uint8_t, 60> pfc_frame(uint16_t class_enable, std::array<uint16_t, 8> quanta) {
  return mac_control_frame(0x0101, class_enable, quanta);
}

inline std::array<uint8_t, 60> pause_frame(uint16_t quanta) { return mac_control_frame(0x0001, quanta); }

}  // namespace lr::test
