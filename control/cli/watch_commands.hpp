#pragma once
// The `linerate` subcommands that keep polling until Ctrl-C: top (a live terminal
// view), stats --watch, xstats --watch (the merged counters), record (a JSONL time series).

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "control/client/dataplane_client.hpp"
#include "control/client/run_client.hpp"

namespace lr::ctl {

/// What the ports were asked to pause so far (run_views' pause_text): the MAC Control
/// frames linerate received (`stats_ports`, a stats.ports result) and the NIC's
/// per-priority pause counters (port.counters); "" when none.
std::string pause_now(DataplaneClient& client, const nlohmann::json& stats_ports);

/// What follows the stream table in `stats` and `top`: pause_now, then the software
/// switches' counters (stats.switches, run_views' switch_text), each after a blank line;
/// "" when there is neither.
std::string below_stream_table(DataplaneClient& client, const nlohmann::json& stats_ports);

/// Full-screen view refreshed every second: per port Rx/Tx Mpps and Gbit/s, per stream
/// loss, reorder and latency. A data plane that goes away is shown ("data plane away:
/// REASON (retrying)") and tried again with backoff (dataplane_watch.hpp) until it serves.
/// Restores the terminal on exit. Returns the exit code.
int run_top(DataplaneClient& client);

/// Per-stream results every second (with `as_json`, one JSON line each).
int run_stats_watch(DataplaneClient& client, bool as_json);

/// A port's merged counters (port.counters) every second; with `rates`, per-second changes.
int run_xstats_watch(DataplaneClient& client, const std::string& port, const std::string& filter, bool rates);

/// One sample of `record`: time, `t` (seconds since recording began), and RunClient's
/// snapshot (traffic status, ports, streams, the merged counters of `ports`), in one round
/// trip. `ports`: the port names, read first when empty, and left as the sample found them.
/// Throws ConnectionError when the data plane went away, before anything is written (a
/// sample that failed is never zeros).
nlohmann::json record_sample(RunClient& run, std::vector<std::string>& ports, double t);

/// A line of `record` in place of a sample: the data plane's `state` ("away": it went away;
/// "refused": it refused a read) and why. Samples have no "dataplane" key.
nlohmann::json record_marker(const std::string& state, const std::string& reason, double t);

/// Appends one JSON object per `interval_ms` to `path`: time, ports (stats.ports),
/// streams (stats.streams) and the merged counters per port. Each line is flushed as written.
/// A data plane that goes away is a marker line ({"dataplane": "away", "reason": ...}),
/// tried again with backoff (dataplane_watch.hpp, said on stderr), and a marker when it
/// serves again ({"dataplane": "back", "away_s", "tries"}); recording goes on until Ctrl-C.
int run_record(DataplaneClient& client, const std::string& path, double interval_s);

}  // namespace lr::ctl
