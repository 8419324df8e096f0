#pragma once
// CMIS (QSFP-DD, OSFP, QSFP56 / QSFP112 with CMIS) module EEPROM decoder: the lower page
// (module state, module monitors and flags, application descriptors), upper page 00h
// (serial ID) and, for paged modules, pages 01h (lengths, wavelength, which monitors
// exist), 02h (thresholds) and 11h (per-lane monitors and flags) of bank 0. Pure, like
// the SFF decoders, so it is tested on images built from the specification and fuzzed.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lib/host/module/module_identity.hpp"

namespace lr::module {

/// One application the module advertises (lower page application descriptors).
struct CmisApplication {
  uint8_t host_interface = 0;  ///< SFF-8024 host electrical interface code
  uint8_t media_interface = 0; ///< SFF-8024 media interface code (table by media type)
  unsigned host_lanes = 0;
  unsigned media_lanes = 0;
  std::string host_interface_name;
};

struct Cmis : ModuleIdentity {
  unsigned revision_major = 0;
  unsigned revision_minor = 0;
  bool flat_memory = false;       ///< no upper pages beyond 00h (passive copper, mostly)
  std::string module_state;       ///< "ready", "low power", "fault", ...
  std::string media_type;         ///< "optical MMF", "optical SMF", "passive copper", ...
  std::string media_technology;   ///< "850 nm VCSEL", "copper cable unequalized", ...
  std::vector<CmisApplication> applications;
  unsigned media_lanes = 0;       ///< lanes with monitors: the first application's media lanes
  bool has_lane_pages = false;    ///< the image holds pages 01h, 02h, 10h and 11h
  bool rx_power_is_average = false;
  std::vector<Monitor> monitors;  ///< temperature, voltage, then bias / tx_power / rx_power per lane
};

/// Decodes 256 bytes (lower page + upper page 00h) or 768 bytes (+ upper pages 01h, 02h,
/// 10h and 11h of bank 0, in that order; what `linerate module show` reads from a paged
/// module). Throws DecodeError.
Cmis decode_cmis(std::span<const uint8_t> image);

std::string format_cmis(const Cmis& module);

}  // namespace lr::module
