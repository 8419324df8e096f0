#pragma once
// Frame bytes as lowercase hex, the form the reference frames are written in.

#include <cstddef>
#include <cstdint>
#include <string>

namespace lr::test {

inline std::string hex(const uint8_t* data, size_t len) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * len);
  for (size_t i = 0; i < len; ++i) {
    out += kDigits[data[i] >> 4];
    out += kDigits[data[i] & 15];
  }
  return out;
}

}  // namespace lr::test
