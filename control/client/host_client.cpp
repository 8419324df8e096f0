#include "control/client/host_client.hpp"

namespace lr::ctl {

using nlohmann::json;

uint32_t HostClient::load_devices(const json& devices_json, const std::string& path) {
  return loaded_hosts(load_devices_json(devices_json, path));
}

json HostClient::load_devices_json(const json& devices_json, const std::string& path) {
  json params = {{"devices", devices_json}};
  if (!path.empty()) params["path"] = path;
  return client_.call("device.load", params);
}

json HostClient::devices_json() { return client_.call("device.list"); }

std::vector<api::PortNeighbors> HostClient::neighbors(const std::optional<std::string>& port) {
  return api::port_neighbors_from_json(neighbors_json(port));
}

json HostClient::neighbors_json(const std::optional<std::string>& port) {
  json params = json::object();
  if (port) params["port"] = *port;
  return client_.call("neighbors.list", params);
}

uint32_t loaded_hosts(const json& load_answer) { return load_answer.at("hosts").get<uint32_t>(); }

}  // namespace lr::ctl
