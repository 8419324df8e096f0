#pragma once
// `linerate module decode FILE`: decodes a saved module EEPROM image (e.g. from
// `ethtool -m IFACE raw on > FILE`) like `ethtool -m` prints it, or as JSON.

#include <string>

namespace lr::ctl {

/// Returns the exit code: 0 decoded, 1 the image could not be decoded, 2 unreadable file.
int decode_module_file(const std::string& path, bool as_json, bool hex);

}  // namespace lr::ctl
