// libFuzzer target: any bytes as a module EEPROM image (SFF-8472 and SFF-8636 decoders). Decoding must give a result or a
// DecodeError, never crash or read outside the image. Run by scripts/fuzz.sh.

#include <cstddef>
#include <cstdint>
#include <span>

#include "dataplane/port/module/sff8472.hpp"
#include "dataplane/port/module/sff8636.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const lr::module::Sff8472 m = lr::module::decode_sff8472(std::span<const uint8_t>(data, size));
    (void)lr::module::format_sff8472(m);
  } catch (const lr::module::DecodeError&) {
  }
  try {
    (void)lr::module::format_sff8636(lr::module::decode_sff8636(std::span<const uint8_t>(data, size)));
  } catch (const lr::module::DecodeError&) {
  }
  return 0;
}
