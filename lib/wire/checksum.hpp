#pragma once
// HOT PATH: worker lcores only. No alloc, throw, log, lock, syscall.
//
// Internet checksum (RFC 1071) pieces. Sums are kept unfolded in 32 bits and folded
// once per packet; adding a field's 16-bit words to a base sum that was computed with
// that field zeroed is the incremental update of RFC 1624.

#include <cstddef>
#include <cstdint>

namespace lr::wire {

/// Ones'-complement sum of `len` bytes as big-endian 16-bit words. `odd_start` says the
/// first byte sits at an odd offset from the start of the checksummed region.
inline uint32_t csum_partial(const uint8_t* data, size_t len, bool odd_start = false) noexcept {
  uint32_t sum = 0;
  size_t i = 0;
  if (odd_start && len > 0) {
    sum += data[0];
    i = 1;
  }
  for (; i + 1 < len; i += 2) sum += static_cast<uint32_t>(data[i] << 8 | data[i + 1]);
  if (i < len) sum += static_cast<uint32_t>(data[i]) << 8;
  return sum;
}

inline uint16_t csum_fold(uint32_t sum) noexcept {
  sum = (sum & 0xFFFF) + (sum >> 16);
  sum = (sum & 0xFFFF) + (sum >> 16);
  return static_cast<uint16_t>(sum);
}

/// The 16-bit words of a 32-bit value (e.g. an IPv4 address in host order).
constexpr uint32_t csum_words(uint32_t value) noexcept { return (value >> 16) + (value & 0xFFFF); }

inline void store_be16(uint8_t* dst, uint16_t value) noexcept {
  dst[0] = static_cast<uint8_t>(value >> 8);
  dst[1] = static_cast<uint8_t>(value);
}

inline void store_be32(uint8_t* dst, uint32_t value) noexcept {
  dst[0] = static_cast<uint8_t>(value >> 24);
  dst[1] = static_cast<uint8_t>(value >> 16);
  dst[2] = static_cast<uint8_t>(value >> 8);
  dst[3] = static_cast<uint8_t>(value);
}

inline uint16_t load_be16(const uint8_t* src) noexcept {
  return static_cast<uint16_t>(src[0] << 8 | src[1]);
}

inline uint32_t load_be32(const uint8_t* src) noexcept {
  return static_cast<uint32_t>(src[0]) << 24 | static_cast<uint32_t>(src[1]) << 16 |
         static_cast<uint32_t>(src[2]) << 8 | src[3];
}

}  // namespace lr::wire
