#include "control/client/location_map.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "control/client/dataplane_address.hpp"

namespace lr::ctl {

using nlohmann::json;

Result<LocationMap> read_location_map(const std::string& path) {
  std::ifstream file(path);
  if (!file)
    return make_error(Errc::kInvalid, fmt::format("--locations {}: cannot read it: {}", path, std::strerror(errno)));
  std::stringstream text;
  text << file.rdbuf();
  json map;
  try {
    map = json::parse(text.str());
  } catch (const json::exception& error) {
    return make_error(Errc::kInvalid, fmt::format("--locations {}: not JSON: {}", path, error.what()));
  }
  if (map.is_object() && map.contains("location_map")) map = map["location_map"];
  if (!map.is_array())
    return make_error(Errc::kInvalid, fmt::format("--locations {}: expected a list of {{\"location\": NAME, "
                                                  "\"endpoint\": \"HOST:PORT\"}} (or {{\"location_map\": [...]}})",
                                                  path));
  LocationMap out;
  for (size_t i = 0; i < map.size(); ++i) {
    const json& entry = map[i];
    const auto field = [&](const char* key) {
      return entry.is_object() && entry.contains(key) && entry[key].is_string() ? entry[key].get<std::string>()
                                                                                : std::string();
    };
    const std::string name = field("location");
    const std::string endpoint = field("endpoint");
    std::string host, port;
    if (name.empty() || endpoint.empty())
      return make_error(Errc::kInvalid, fmt::format("--locations {}: entry {}: give \"location\" (a name) and "
                                                    "\"endpoint\" (HOST:PORT), both strings",
                                                    path, i));
    if (name.find(';') != std::string::npos)
      return make_error(Errc::kInvalid, fmt::format("--locations {}: entry {}: location '{}' has a ';', which "
                                                    "parts the engine from the port",
                                                    path, i, name));
    if (!split_engine_address(endpoint, host, port))
      return make_error(Errc::kInvalid, fmt::format("--locations {}: entry {} ('{}'): endpoint '{}' is not HOST:PORT",
                                                    path, i, name, endpoint));
    if (!out.emplace(name, endpoint).second)
      return make_error(Errc::kInvalid,
                        fmt::format("--locations {}: entry {}: location '{}' is named twice", path, i, name));
  }
  return out;
}

}  // namespace lr::ctl
