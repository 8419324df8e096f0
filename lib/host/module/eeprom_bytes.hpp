#pragma once
// Field readers shared by the EEPROM decoders: big-endian words, space-padded ASCII,
// and the SFF checksums (low byte of the sum of a range).

#include <cstdint>
#include <span>
#include <string>

namespace lr::module {

inline uint16_t be16(std::span<const uint8_t> b, size_t at) { return static_cast<uint16_t>(b[at] << 8 | b[at + 1]); }
inline int16_t be16s(std::span<const uint8_t> b, size_t at) { return static_cast<int16_t>(be16(b, at)); }

/// ASCII field, trailing spaces removed, anything unprintable shown as '?'.
inline std::string ascii(std::span<const uint8_t> b, size_t from, size_t len) {
  std::string out;
  for (size_t i = from; i < from + len; ++i) out += (b[i] >= 0x20 && b[i] < 0x7F) ? static_cast<char>(b[i]) : '?';
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

/// Whether byte `at` holds the low byte of the sum of bytes from..to.
inline bool checksum_ok(std::span<const uint8_t> b, size_t from, size_t to, size_t at) {
  uint32_t sum = 0;
  for (size_t i = from; i <= to; ++i) sum += b[i];
  return (sum & 0xFF) == b[at];
}

}  // namespace lr::module
