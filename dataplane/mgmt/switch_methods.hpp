#pragma once
// switch.*: the software switches this data plane runs, as configured. Thread: mgmt.

#include "dataplane/engine/engine.hpp"
#include "dataplane/mgmt/dispatcher.hpp"

namespace lr::dp {

void register_switch_methods(Dispatcher& d, const Engine& engine);

}  // namespace lr::dp
