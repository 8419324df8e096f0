#pragma once
// SFF-8472 (SFP / SFP+ / SFP28) module EEPROM decoder: the A0h page (serial ID) and,
// when the module implements digital diagnostics, the A2h page (thresholds, live
// values, alarm and warning flags). Pure: bytes in, values in their units out, so it is
// tested on images built from the specification and fuzzed.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lib/host/module/module_identity.hpp"

namespace lr::module {

struct Sff8472 : ModuleIdentity {
  bool ddm_implemented = false;
  bool externally_calibrated = false;
  bool rx_power_is_average = false;  ///< else OMA
  std::vector<Monitor> monitors;     ///< empty without diagnostics (or without the A2h page)
};

/// Decodes `image`: 256 bytes (A0h) or 512 bytes (A0h then A2h, as `ethtool -m raw on`
/// gives them). Throws DecodeError for an image that is too short or not SFF-8472.
Sff8472 decode_sff8472(std::span<const uint8_t> image);

/// The decoded module as `ethtool -m` prints it, with the thresholds and what is beyond.
std::string format_sff8472(const Sff8472& module);

}  // namespace lr::module
