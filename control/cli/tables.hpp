#pragma once
// Human tables for the `linerate` subcommands, from the data plane's JSON results
// (the same objects `--json` prints).

#include <nlohmann/json.hpp>
#include <string>

namespace lr::ctl {

std::string ports_table(const nlohmann::json& ports);
std::string streams_table(const nlohmann::json& streams);
/// stats.streams: per stream tx / rx / loss / reorder / latency.
std::string stream_stats_table(const nlohmann::json& stats);
/// A run report (traffic.stop): the stream table, then the ports' own counters.
std::string report_table(const nlohmann::json& report);

}  // namespace lr::ctl
