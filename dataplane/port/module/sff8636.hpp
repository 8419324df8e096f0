#pragma once
// SFF-8636 (QSFP+ / QSFP28) module EEPROM decoder: the lower page (live values and
// flags), upper page 00h (serial ID) and, in a full image, upper page 03h (thresholds).
// Pure, like the SFF-8472 decoder, and reusing its Monitor.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dataplane/port/module/sff8472.hpp"

namespace lr::module {

struct Sff8636 {
  uint8_t identifier = 0;
  std::string identifier_name;
  std::string connector_name;
  std::vector<std::string> compliance;
  uint32_t nominal_rate_mbd = 0;
  std::vector<std::pair<std::string, uint32_t>> lengths_m;
  double wavelength_nm = 0;
  std::string vendor_name;
  std::array<uint8_t, 3> vendor_oui{};
  std::string vendor_pn;
  std::string vendor_rev;
  std::string vendor_sn;
  std::string date_code;
  bool base_checksum_ok = false;
  bool ext_checksum_ok = false;
  bool rx_power_is_average = false;
  bool has_thresholds = false;  ///< the image holds upper page 03h
  std::vector<Monitor> monitors;  ///< temperature, voltage, then bias / tx_power / rx_power per lane ("bias[1]")
};

/// Decodes 256 bytes (lower page + upper page 00h) or 640 bytes (+ pages 01h, 02h, 03h,
/// as `ethtool -m raw on` dumps them). Throws DecodeError.
Sff8636 decode_sff8636(std::span<const uint8_t> image);

std::string format_sff8636(const Sff8636& module);

}  // namespace lr::module
