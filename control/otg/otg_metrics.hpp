#pragma once
// linerate's exact per-stream and per-port counts in the OTG model's metric objects
// (POST /monitor/metrics): Flow.Metric and Port.Metric of open-traffic-generator/models.

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "dataplane/api/run_report.hpp"

namespace lr::otg {

/// A flow's metric from its stream's report: frames and bytes each way, rates, loss in
/// percent of the frames sent, latency minimum / maximum / average in ns, and with
/// `timestamps` the first and last frame received, in ns since the run's start (from its
/// timeline). `transmit`: "started", "paused" or "stopped"; `port_names`: the data plane's
/// port -> the config's name.
nlohmann::json flow_metric(const api::StreamReport& stream, const std::string& transmit,
                           const std::map<std::string, std::string>& port_names, bool timestamps);

/// A port's rates over the time between two of its traffic samples.
struct PortRates {
  double frames_tx = 0, frames_rx = 0, bytes_tx = 0, bytes_rx = 0;  ///< per second
};
PortRates port_rates(const api::PortTraffic& before, const api::PortTraffic& after, double seconds);

/// A port's metric from what linerate sent and received on it, its rates over the last
/// interval between metric requests, and whether a capture runs on it.
nlohmann::json port_metric(const std::string& name, const std::string& location, const api::PortTraffic& traffic,
                           const PortRates& rates, bool link_up, bool capturing, const std::string& transmit);

}  // namespace lr::otg
