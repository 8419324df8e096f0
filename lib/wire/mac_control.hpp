#pragma once
// HOT PATH: worker lcores only. No alloc, throw, log, lock, syscall.
//
// MAC Control frames (IEEE 802.3 Annex 31B, PAUSE 31B; 802.1Qbb PFC), as written by a
// `kind = "pfc" | "pause"` stream and read on RX:
//
//   offset  size  field
//   0       6     destination 01:80:C2:00:00:01
//   6       6     source
//   12      2     EtherType 0x8808
//   14      2     opcode: 0x0001 PAUSE, 0x0101 PFC
//   16      2     PAUSE: quanta.  PFC: class-enable vector (bit n = priority n; high byte reserved)
//   18      16    PFC: eight quanta, priority 0 first
//   ...           zero padding to 60 bytes (64 with the FCS)
//
// One quantum is 512 bit times at the link's speed; quanta 0 is XON (resume now).

#include <array>
#include <cstdint>

#include "lib/wire/checksum.hpp"

namespace lr::wire {

inline constexpr std::array<uint8_t, 6> kMacControlDst{0x01, 0x80, 0xC2, 0x00, 0x00, 0x01};
inline constexpr uint16_t kMacControlEtherType = 0x8808;
inline constexpr uint16_t kOpcodePause = 0x0001;
inline constexpr uint16_t kOpcodePfc = 0x0101;
/// A MAC Control frame without its FCS: always the minimum frame.
inline constexpr uint32_t kMacControlBytes = 60;

/// Whether a received frame of `len` bytes (without FCS) is a MAC Control frame. The
/// length is tested first: every other frame is then told apart without reading it.
inline bool is_mac_control(const uint8_t* frame, uint32_t len) noexcept {
  return len == kMacControlBytes && load_be16(frame + 12) == kMacControlEtherType;
}

/// A MAC Control frame's fields. For PAUSE, quanta[0] holds its one quanta and
/// class_enable is 0; for an unknown opcode only `opcode` is meaningful.
struct MacControlFields {
  uint16_t opcode = 0;
  uint16_t class_enable = 0;  ///< the whole 16-bit vector, reserved byte included
  uint16_t quanta[8]{};
};

inline MacControlFields read_mac_control(const uint8_t* frame) noexcept {
  MacControlFields f;
  f.opcode = load_be16(frame + 14);
  if (f.opcode == kOpcodePfc) {
    f.class_enable = load_be16(frame + 16);
    for (unsigned p = 0; p < 8; ++p) f.quanta[p] = load_be16(frame + 18 + 2 * p);
  } else if (f.opcode == kOpcodePause) {
    f.quanta[0] = load_be16(frame + 16);
  }
  return f;
}

}  // namespace lr::wire
