#pragma once
// device.* and neighbors.list: the emulated hosts on the ports (ARP, neighbour discovery,
// echo; their gateways resolved) and what they resolved (dataplane/hosts). Thread: mgmt.

#include "dataplane/engine/engine.hpp"
#include "dataplane/mgmt/dispatcher.hpp"

namespace lr::dp {

void register_host_methods(Dispatcher& d, Engine& engine, PortOwnership& ownership);

}  // namespace lr::dp
