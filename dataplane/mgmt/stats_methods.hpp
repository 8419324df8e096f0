#pragma once
// stats.*: a run's live results so far, per stream, port, switch and lcore, and a
// stream's latency histogram. Thread: mgmt.


#include "dataplane/engine/engine.hpp"
#include "dataplane/mgmt/dispatcher.hpp"

namespace lr::dp {

void register_stats_methods(Dispatcher& d, const Engine& engine);

}  // namespace lr::dp
