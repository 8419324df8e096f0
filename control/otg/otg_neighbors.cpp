#include "control/otg/otg_neighbors.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "control/otg/otg_config.hpp"

namespace lr::otg {

using nlohmann::json;

json neighbor_states(const NeighborStatesRequest& request, const std::vector<api::PortNeighbors>& ports,
                     const OtgDevices& devices) {
  const bool v6 = request.kind == NeighborStatesRequest::Kind::kIpv6;
  const char* kind = v6 ? "ipv6_neighbors" : "ipv4_neighbors";
  std::vector<std::string> errors;
  for (size_t i = 0; i < request.ethernet_names.size(); ++i) {
    const std::string& name = request.ethernet_names[i];
    const auto it = devices.endpoints.find(name);
    if (it == devices.endpoints.end() || it->second.kind != OtgEndpoint::Kind::kEthernet)
      errors.push_back(
          fmt::format("{}.ethernet_names[{}]: '{}' is not an ethernet of the config's devices", kind, i, name));
  }
  if (!errors.empty()) throw ConfigRefused(std::move(errors));
  const auto wanted = [&](const std::string& ethernet) {
    return request.ethernet_names.empty() || std::find(request.ethernet_names.begin(), request.ethernet_names.end(),
                                                       ethernet) != request.ethernet_names.end();
  };
  json states = json::array();
  for (const api::PortNeighbors& port : ports)
    for (const api::NeighborEntry& n : port.neighbors) {
      const std::string ethernet = ethernet_of_host(n.host);
      // An IPv6 address is the one with a colon.
      if (!wanted(ethernet) || (n.address.find(':') != std::string::npos) != v6) continue;
      states.push_back({{"ethernet_name", ethernet},
                        {v6 ? "ipv6_address" : "ipv4_address", n.address},
                        {"link_layer_address", n.state == "resolved" && n.mac ? json(*n.mac) : json()}});
    }
  return {{"choice", kind}, {kind, states}};
}

}  // namespace lr::otg
