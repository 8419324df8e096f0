#pragma once
// Human tables for the `linerate` subcommands, from the data plane's JSON results
// (the same objects `--json` prints). The views of a run (streams, report, live line)
// are in control/views, shared with the data plane.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lib/api/run_report.hpp"
#include "lib/api/traffic.hpp"

namespace lr::ctl {

std::string ports_table(const nlohmann::json& ports);

/// A stats.histogram result as a summary (from `latency`, the stream's exact figures) and
/// its distribution over power-of-two ranges; `every_bucket`: each non-empty bucket instead.
std::string histogram_text(const nlohmann::json& histogram, const api::LatencySummary& latency, bool every_bucket);
/// stream.list as a table: ports, mean frame size, lanes, target rate.
std::string streams_table(const nlohmann::json& streams);

/// port.counters as a table: canonical name, the driver's name, source, this run, total;
/// with `before` (an earlier port.counters) and `seconds`, also the change per second.
std::string counters_table(const api::PortCounterView& counters, const api::PortCounterView* before = nullptr,
                           double seconds = 0);

}  // namespace lr::ctl
