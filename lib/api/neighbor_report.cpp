#include "lib/api/neighbor_report.hpp"

#include <nlohmann/json.hpp>

#include "lib/api/json_fields.hpp"

namespace lr::api {

using nlohmann::json;

namespace {

constexpr auto neighbor_entry_fields =
    LR_JSON_FIELDS(host, host_mac, host_address, vlan, address, role, state, mac, tries, resolved_at);
constexpr auto slow_path_count_fields =
    LR_JSON_FIELDS(answered, no_reply, not_for_us, malformed, unsupported, dropped, sent, send_failed);
constexpr auto port_neighbors_fields = LR_JSON_FIELDS(port, hosts, tx_queue, events);

}  // namespace

json to_json(const NeighborEntry& entry) { return write_fields(entry, neighbor_entry_fields); }

json to_json(const PortNeighbors& port) {
  json out = write_fields(port, port_neighbors_fields);
  out["counts"] = write_fields(port.counts, slow_path_count_fields);
  out["neighbors"] = json_array(port.neighbors);
  return out;
}

json to_json(const std::vector<PortNeighbors>& ports) { return json_array(ports); }

PortNeighbors one_port_neighbors_from_json(const json& item) {
  PortNeighbors port = read_fields<PortNeighbors>(item, port_neighbors_fields);
  if (const auto it = item.find("counts"); it != item.end())
    port.counts = read_fields<SlowPathCounts>(*it, slow_path_count_fields);
  read_field_items(item, "neighbors", port.neighbors, neighbor_entry_fields);
  return port;
}

std::vector<PortNeighbors> port_neighbors_from_json(const json& j) {
  std::vector<PortNeighbors> out;
  for (size_t i = 0; i < j.size(); ++i) {
    try {
      out.push_back(one_port_neighbors_from_json(j.at(i)));
    } catch (const json::exception& e) {
      throw_at("[" + std::to_string(i) + "]", e);
    }
  }
  return out;
}

}  // namespace lr::api
