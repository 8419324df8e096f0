#pragma once
// Any module image to its decoded form, chosen by the SFF-8024 identifier in byte 0, and
// that form as text (like `ethtool -m`) or JSON. Used by `linerate module decode FILE`
// and `linerate module show PORT` alike.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <variant>

#include "lib/host/module/cmis.hpp"
#include "lib/host/module/sff8472.hpp"
#include "lib/host/module/sff8636.hpp"

namespace lr::module {

using DecodedModule = std::variant<Sff8472, Sff8636, Cmis>;

/// Throws DecodeError: empty image, unknown identifier, or the layout's own errors.
DecodedModule decode_module(std::span<const uint8_t> image);

/// "" when the image's checksums hold, else which do not.
std::string checksum_problem(const DecodedModule& module);

std::string format_module(const DecodedModule& module);

nlohmann::json module_to_json(const DecodedModule& module);

/// Rows of 16 bytes with their offset, as `ethtool -m hex on`.
std::string hex_dump(std::span<const uint8_t> bytes);

}  // namespace lr::module
