#pragma once
// Prometheus text exposition (format 0.0.4) of a data plane's state: port counters,
// per-stream results and latency, and the merged counter view (ethdev, xstats, ethtool,
// FEC) with priority / lane / queue labels.
// Pure: built from the JSON the control socket returns, so it is tested without one.

#include <nlohmann/json.hpp>
#include <string>

namespace lr::ctl {

/// `ports`: stats.ports; `streams`: stats.streams; `counters`: {port name: port.counters}.
std::string prometheus_text(const nlohmann::json& ports, const nlohmann::json& streams, const nlohmann::json& counters);
/// The software switches' counters (stats.switches), per switch, port and priority.
std::string prometheus_switch_text(const nlohmann::json& switches);

/// A label value escaped as the exposition format asks (\\, \", \n).
std::string prometheus_label_value(const std::string& value);

/// The page when the data plane cannot be reached: lr_up 0 and nothing else.
std::string prometheus_down_text();

}  // namespace lr::ctl
