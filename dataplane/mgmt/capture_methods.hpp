#pragma once
// capture.*: captures of what a port receives into pcapng files the data plane writes
// (dataplane/capture). A capture ends with the session that started it. Thread: mgmt.

#include "dataplane/engine/engine.hpp"
#include "dataplane/mgmt/dispatcher.hpp"

namespace lr::dp {

void register_capture_methods(Dispatcher& d, Engine& engine);

}  // namespace lr::dp
