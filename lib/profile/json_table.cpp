#include "lib/profile/json_table.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <limits>

#include "lib/profile/load_toml.hpp"

namespace lr::profile {

using nlohmann::json;

namespace {

toml::array array_of(const json& array, const std::string& where, const std::string& key) {
  toml::array out;
  for (const json& item : array) {
    if (item.is_object()) out.push_back(table_of(item, where, key));
    else if (item.is_array()) out.push_back(array_of(item, where, key));
    else if (item.is_string()) out.push_back(item.get<std::string>());
    else if (item.is_boolean()) out.push_back(item.get<bool>());
    else if (item.is_number_float()) out.push_back(item.get<double>());
    else if (item.is_number_unsigned() && item.get<uint64_t>() > uint64_t{std::numeric_limits<int64_t>::max()})
      throw ConfigError(where, {}, key, fmt::format("{} is out of range", item.dump()));
    else if (item.is_number()) out.push_back(item.get<int64_t>());
    else throw ConfigError(where, {}, key, "null is not a value (leave the key out for its default)");
  }
  return out;
}

}  // namespace

toml::table table_of(const json& object, const std::string& where, const std::string& key) {
  toml::table out;
  for (const auto& [name, value] : object.items()) {
    const std::string path = key.empty() ? name : key + "." + name;
    // One element arrays carry the scalar rules (range, null) of array_of.
    toml::array one = array_of(json::array({value}), where, path);
    out.insert(name, std::move(*one.get(0)));
  }
  return out;
}

json dscp_map_json(const std::map<uint8_t, uint8_t>& map) {
  json out = json::object();
  for (const auto& [dscp, priority] : map) out[std::to_string(dscp)] = priority;
  return out;
}

json priority_list(uint8_t bits) {
  json list = json::array();
  for (unsigned p = 0; p < 8; ++p)
    if ((bits >> p) & 1) list.push_back(p);
  return list;
}

}  // namespace lr::profile
