#pragma once
// The neighbours the emulated hosts resolved (neighbors.list, api::PortNeighbors) in the
// OTG model's states (POST /monitor/states, models 1.60.0 States.Response): each ARP or
// neighbour cache entry of a host as Neighborsv4.State / Neighborsv6.State, under the name
// of the ethernet the host is (otg_devices.hpp: a device per ethernet, named as it).

#include <nlohmann/json.hpp>

#include <vector>

#include "control/otg/otg_devices.hpp"
#include "control/otg/otg_requests.hpp"
#include "lib/api/neighbor_report.hpp"

namespace lr::otg {

/// {"choice": "ipv4_neighbors", "ipv4_neighbors": [{ethernet_name, ipv4_address,
/// link_layer_address}]} (ipv6 likewise): every neighbour of the kind asked, in the order
/// the data plane lists them, of the ethernets named (none: of every host); a neighbour
/// not resolved yet (or that failed) has link_layer_address null. A name that is not an
/// ethernet of `devices` is refused (ConfigRefused) at its path.
nlohmann::json neighbor_states(const NeighborStatesRequest& request, const std::vector<api::PortNeighbors>& ports,
                               const OtgDevices& devices);

}  // namespace lr::otg
