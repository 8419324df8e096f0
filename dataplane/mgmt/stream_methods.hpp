#pragma once
// stream.*: the engine's streams listed, loaded (in their JSON form, or TOML text as before),
// added, removed, re-rated and stopped. Thread: mgmt.

#include "dataplane/engine/engine.hpp"
#include "dataplane/mgmt/dispatcher.hpp"

namespace lr::dp {

void register_stream_methods(Dispatcher& d, Engine& engine, PortOwnership& ownership);

}  // namespace lr::dp
