#pragma once
// A run's settings as JSON: an object with the keys of a profile's [run] table (durations
// as "500000000ns"), read back through the table's own reader. stream.load takes one
// beside the streams, so a profile's drain and timeline hold on a serving data plane too.

#include <nlohmann/json.hpp>

#include <string>

#include "lib/api/run_spec.hpp"

namespace lr::profile {

/// Every setting under its [run] key (a timeline left out when there is none).
nlohmann::json to_json(const api::RunSpec& run);

/// The run settings its JSON form describes (keys left out keep their defaults), with
/// the [run] table's checks. `where` names it in errors. Throws ConfigError.
api::RunSpec run_spec_from_json(const nlohmann::json& run, const std::string& where);

}  // namespace lr::profile
