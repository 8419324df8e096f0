#pragma once
// The one-shot run: start the engine, print a live line per second, stop when every
// finite stream is done or on `interrupt` (SIGINT / SIGTERM), drain, and return the
// report. Thread: mgmt.

#include <atomic>
#include <cstdio>
#include <functional>

#include "dataplane/engine/engine.hpp"

namespace lr::dp {

/// `live`: where the per-second lines go (nullptr: none); `every_second`, if set, is
/// called about once a second while traffic runs (e.g. to publish telemetry), and
/// `every_100ms` ten times as often (e.g. to look for link changes); `before_close` as in
/// Engine::finish.
Result<RunReport> run_oneshot(Engine& engine, const std::atomic<bool>& interrupt, std::FILE* live,
                              const std::function<void()>& every_second = {},
                              const std::function<void()>& every_100ms = {},
                              const std::function<void()>& before_close = {});

/// One live line: per port Mpps and Gbit/s (L1) over `seconds`, from two samples.
std::string format_live_line(double elapsed_s, const std::vector<PortLiveCounters>& before,
                             const std::vector<PortLiveCounters>& after, double seconds);

}  // namespace lr::dp
