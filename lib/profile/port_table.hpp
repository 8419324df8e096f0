#pragma once
// A profile's [[port]] table, or a port's JSON form (port_spec_json.hpp) read through it.

#include "lib/api/port_spec.hpp"
#include "lib/profile/table_reader.hpp"

namespace lr::profile {

/// The port the table describes; throws ConfigError naming the key and why.
api::PortSpec read_port(TableReader& in);

}  // namespace lr::profile
