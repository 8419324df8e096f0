#pragma once
// `linerate module decode FILE` and `linerate module show PORT`: a module EEPROM image
// (SFF-8472, SFF-8636 or CMIS) printed like `ethtool -m`, or as JSON.

#include <cstdint>
#include <string>
#include <vector>

#include "control/command/exit_codes.hpp"

namespace lr::ctl {

/// Decodes and prints `bytes` (read from `source`, named in errors). Returns the exit
/// code: 0 decoded, 1 the image could not be decoded, kExitChecksumsBad decoded but its
/// checksums do not hold.
int print_module(const std::vector<uint8_t>& bytes, const std::string& source, bool as_json, bool hex);

/// As print_module for a saved image (e.g. `ethtool -m IFACE raw on > FILE`); 2 when the
/// file cannot be read.
int decode_module_file(const std::string& path, bool as_json, bool hex);

}  // namespace lr::ctl
