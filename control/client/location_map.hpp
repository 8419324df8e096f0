#pragma once
// Names for data planes (`--locations FILE`), so a profile's `location = "leaf1;p0"` need not
// spell the HOST:PORT each data plane serves on, and a lab moves a data plane by editing one
// line. The file is JSON in the shape KENG's location_map has: a list of
// {"location": NAME, "endpoint": "HOST:PORT"}, or an object holding it as "location_map".

#include <map>
#include <string>

#include "lib/common/result.hpp"

namespace lr::ctl {

/// NAME -> HOST:PORT.
using LocationMap = std::map<std::string, std::string, std::less<>>;

/// The map in `path`. Errors (kInvalid): the file, the entry and what is wrong with it
/// (unreadable, not JSON, an entry without location or endpoint, a name given twice, an
/// endpoint that is not HOST:PORT).
Result<LocationMap> read_location_map(const std::string& path);

}  // namespace lr::ctl
