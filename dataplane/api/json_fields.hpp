#pragma once
// The two walkers of the codecs' field lists (fn(name, member)): each struct's JSON names
// are written once, and to_json and the reader both walk them.

#include <nlohmann/json.hpp>

namespace lr::api {

/// Writes each field under its name.
inline auto writer(nlohmann::json& j) {
  return [&j](const char* key, const auto& value) { j[key] = value; };
}

/// Reads each field present (and not null); an absent one keeps its default. Throws
/// nlohmann::json::exception on a field of the wrong type.
inline auto reader(const nlohmann::json& j) {
  return [&j](const char* key, auto& value) {
    const auto it = j.find(key);
    if (it != j.end() && !it->is_null()) it->get_to(value);
  };
}

}  // namespace lr::api
