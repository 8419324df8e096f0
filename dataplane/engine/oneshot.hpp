#pragma once
// The one-shot run: start the engine, show a live line per second, stop when every
// finite stream is done or on `interrupt` (SIGINT / SIGTERM), drain, and return the
// report. Thread: mgmt.

#include <atomic>
#include <vector>
#include <functional>

#include "dataplane/engine/engine.hpp"

namespace lr::dp {

/// Shows one second of traffic: (elapsed s, per-port counters a second ago, now, seconds between).
using LiveLine = std::function<void(double, const std::vector<PortTraffic>&, const std::vector<PortTraffic>&, double)>;

/// `live`: called once a second with the ports' counters (empty: nothing shown);
/// `every_second`, if set, is called about once a second while traffic runs (e.g. to
/// publish telemetry). The ports' links are polled every 100 ms for the report.
Result<RunReport> run_oneshot(Engine& engine, const std::atomic<bool>& interrupt, const LiveLine& live,
                              const std::function<void()>& every_second = {});

}  // namespace lr::dp
