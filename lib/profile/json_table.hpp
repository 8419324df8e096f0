#pragma once
// A spec's JSON form as the TOML table its section's reader takes, so that a stream, a
// port, a switch or a run sent over the socket gets the same checks and messages as one
// written in a profile.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <toml++/toml.h>

#include <fmt/format.h>

#include "lib/profile/load_toml.hpp"
#include "lib/profile/table_reader.hpp"

namespace lr::profile {

/// The object's keys as a TOML table. `where` and `key` name it in the ConfigError thrown
/// for a null or an integer beyond TOML's range.
toml::table table_of(const nlohmann::json& object, const std::string& where, const std::string& key);

/// A section's spec from its JSON form: `form` must be an object, read as the table `key`
/// by `read(TableReader&)`, its errors naming "key.name" in `where` (`what`: "a [[port]]
/// table's keys", for the error on a form that is no object). The spec keeps no key
/// locations: they would point into a TOML table that no file holds.
template <class Read>
auto read_json_section(const nlohmann::json& form, const std::string& where, const std::string& key, const char* what,
                       Read&& read) {
  if (!form.is_object())
    throw ConfigError(where, {}, key, fmt::format("expected an object with {}, found {}", what, form.type_name()));
  const toml::table table = table_of(form, where, key);
  TableReader reader(table, key + ".", where);
  auto spec = read(reader);
  if constexpr (requires { spec.key_locs.clear(); }) spec.key_locs.clear();
  return spec;
}

/// A DSCP -> priority map as a profile writes it: { "26": 3 }.
nlohmann::json dscp_map_json(const std::map<uint8_t, uint8_t>& map);

/// A priority mask (bit p: priority p) as a profile writes it: [3, 4].
nlohmann::json priority_list(uint8_t bits);

}  // namespace lr::profile
