#pragma once
// The data plane's control methods, registered on a Dispatcher over one Engine:
// hello, methods.list, port.*, stream.*, traffic.*, stats.*, session.*.
// Thread: mgmt (the Asio loop on the main lcore).

#include <functional>

#include "dataplane/engine/engine.hpp"
#include "dataplane/mgmt/dispatcher.hpp"

namespace lr::dp {

/// `before_run` (may be empty) is called as each run starts, e.g. to take counter baselines.
void register_dataplane_methods(Dispatcher& dispatcher, Engine& engine, PortOwnership& ownership,
                                std::function<void()> before_run = {});

}  // namespace lr::dp
