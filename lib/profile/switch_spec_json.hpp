#pragma once
// A software switch's JSON form: an object with the keys of a profile's [[switch]] table
// and their value forms, read back through the table's own reader. switch.list sends each
// switch's, so a client compares a serving data plane's switches with a profile's.

#include <nlohmann/json.hpp>

#include <string>

#include "lib/api/switch_spec.hpp"

namespace lr::profile {

/// Every setting the spec holds under its profile key (what is unset left out).
nlohmann::json to_json(const api::SwitchSpec& sw);

/// The switch its JSON form describes, with the [[switch]] table's checks. `where` names
/// it in errors. Throws ConfigError.
api::SwitchSpec switch_spec_from_json(const nlohmann::json& sw, const std::string& where);

}  // namespace lr::profile
