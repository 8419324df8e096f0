#pragma once
// flow.*: rte_flow rules in the flow language, validated, created, listed with their
// counters, destroyed, flushed; isolated mode. Thread: mgmt.

#include "dataplane/mgmt/dispatcher.hpp"
#include "dataplane/port/port_controls.hpp"

namespace lr::dp {

void register_flow_methods(Dispatcher& d, PortControls& ports, PortOwnership& ownership);

}  // namespace lr::dp
