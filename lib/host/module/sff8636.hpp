#pragma once
// SFF-8636 (QSFP+ / QSFP28) module EEPROM decoder: the lower page (live values and
// flags), upper page 00h (serial ID) and, in a full image, upper page 03h (thresholds).
// Pure, like the SFF-8472 decoder, and sharing its Monitor.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lib/host/module/module_identity.hpp"

namespace lr::module {

struct Sff8636 : ModuleIdentity {
  bool rx_power_is_average = false;
  bool has_thresholds = false;    ///< the image holds upper page 03h
  std::vector<Monitor> monitors;  ///< temperature, voltage, then bias / tx_power / rx_power per lane ("bias[1]")
};

/// Decodes 256 bytes (lower page + upper page 00h) or 640 bytes (+ pages 01h, 02h, 03h,
/// as `ethtool -m raw on` dumps them). Throws DecodeError.
Sff8636 decode_sff8636(std::span<const uint8_t> image);

std::string format_sff8636(const Sff8636& module);

}  // namespace lr::module
