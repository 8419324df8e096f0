#pragma once
// Human tables for the `linerate` subcommands, from the data plane's JSON results
// (the same objects `--json` prints).

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lr::ctl {

/// What linerate sent and received on a port between two stats.ports results.
struct PortRate {
  std::string name;
  double tx_pps = 0;
  double tx_l1_bps = 0;  ///< frame bytes (FCS included) plus 20 bytes of preamble, SFD and gap each
  double rx_pps = 0;
  double rx_l1_bps = 0;
};

/// Per-port rates from two stats.ports results taken `seconds` apart.
std::vector<PortRate> port_rates(const nlohmann::json& before, const nlohmann::json& after, double seconds);

std::string ports_table(const nlohmann::json& ports);
std::string streams_table(const nlohmann::json& streams);
/// stats.streams: per stream tx / rx / loss / reorder / latency.
std::string stream_stats_table(const nlohmann::json& stats);
/// A run report (traffic.stop): the stream table, then the ports' own counters.
std::string report_table(const nlohmann::json& report);

/// port.counters as a table: canonical name, the driver's name, source, this run, total;
/// with `before` (an earlier port.counters) and `seconds`, also the change per second.
std::string counters_table(const nlohmann::json& counters, const nlohmann::json& before = nullptr, double seconds = 0);

}  // namespace lr::ctl
