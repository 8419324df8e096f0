// libFuzzer target: any bytes as a module EEPROM image, through the decoder chosen by the
// identifier (SFF-8472, SFF-8636, CMIS) and straight into each layout's decoder. Decoding
// must give a result or a DecodeError, never crash or read outside the image. Run by
// scripts/fuzz.sh.

#include <cstddef>
#include <cstdint>
#include <span>

#include "lib/host/module/decoded_module.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> image(data, size);
  try {
    const lr::module::DecodedModule m = lr::module::decode_module(image);
    (void)lr::module::format_module(m);
    (void)lr::module::module_to_json(m).dump();
  } catch (const lr::module::DecodeError&) {
  }
  // Each decoder on its own, so a mismatched identifier still exercises the others' checks.
  try {
    (void)lr::module::format_sff8636(lr::module::decode_sff8636(image));
  } catch (const lr::module::DecodeError&) {
  }
  try {
    (void)lr::module::format_cmis(lr::module::decode_cmis(image));
  } catch (const lr::module::DecodeError&) {
  }
  return 0;
}
