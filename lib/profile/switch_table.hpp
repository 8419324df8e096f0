#pragma once
// A profile's [[switch]] table, or a switch's JSON form (switch_spec_json.hpp) read through it.

#include "lib/api/switch_spec.hpp"
#include "lib/profile/table_reader.hpp"

namespace lr::profile {

/// The switch the table describes; throws ConfigError naming the key and why.
api::SwitchSpec read_switch(TableReader& in);

}  // namespace lr::profile
