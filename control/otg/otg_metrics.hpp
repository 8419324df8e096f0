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

/// A port's metric from what linerate sent and received on it.
nlohmann::json port_metric(const std::string& name, const std::string& location, const api::PortTraffic& traffic,
                           bool link_up, const std::string& transmit);

}  // namespace lr::otg
