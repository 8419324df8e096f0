#pragma once
// Test helpers shared by the EEPROM decoder tests: an image built field by field and the
// monitor lookup by name.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "lib/host/module/module_identity.hpp"

namespace lr::module::test {

class EepromImage {
 public:
  explicit EepromImage(size_t size) : b_(size, 0) {}
  void ascii(size_t at, size_t len, const std::string& s) {
    for (size_t i = 0; i < len; ++i) b_[at + i] = i < s.size() ? static_cast<uint8_t>(s[i]) : ' ';
  }
  void be16(size_t at, uint16_t v) {
    b_[at] = static_cast<uint8_t>(v >> 8);
    b_[at + 1] = static_cast<uint8_t>(v);
  }
  /// Byte `at` = low byte of the sum of bytes from..to (the SFF and CMIS checksums).
  void checksum(size_t from, size_t to, size_t at) {
    uint32_t sum = 0;
    for (size_t i = from; i <= to; ++i) sum += b_[i];
    b_[at] = static_cast<uint8_t>(sum);
  }
  std::vector<uint8_t>& bytes() { return b_; }

 protected:
  std::vector<uint8_t> b_;
};

inline const Monitor& monitor_named(const std::vector<Monitor>& monitors, const std::string& name) {
  for (const Monitor& mon : monitors)
    if (mon.name == name) return mon;
  throw std::runtime_error("no monitor " + name);
}

}  // namespace lr::module::test
