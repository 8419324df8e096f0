#pragma once
// A port's JSON form: an object with the keys of a profile's [[port]] table and their
// value forms (speed "40000Mbps", durations "5000ns"), read back through the table's own
// reader. port.list sends each port's, so a client compares a serving data plane's ports
// with a profile's key by key.

#include <nlohmann/json.hpp>

#include <string>

#include "lib/api/port_spec.hpp"

namespace lr::profile {

/// Every setting the spec holds under its profile key (what a default leaves as it is
/// included, what is unset left out).
nlohmann::json to_json(const api::PortSpec& port);

/// The port its JSON form describes, with the [[port]] table's checks. `where` names it
/// in errors. Throws ConfigError.
api::PortSpec port_spec_from_json(const nlohmann::json& port, const std::string& where);

}  // namespace lr::profile
