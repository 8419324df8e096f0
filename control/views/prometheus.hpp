#pragma once
// Prometheus text exposition (format 0.0.4) of a data plane's state: port counters,
// per-stream results and latency, the merged counter view (ethdev, xstats, ethtool, FEC)
// with priority / lane / queue labels, and the software switches' counters.
// Pure: built from the contract's types (what a scrape read), so it is tested without a
// data plane.

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "lib/api/capture_spec.hpp"
#include "lib/api/neighbor_report.hpp"
#include "lib/api/run_report.hpp"
#include "lib/api/switch_report.hpp"

namespace lr::ctl {

/// What one scrape read from the data plane.
struct Scrape {
  std::vector<api::PortReport> ports;                             ///< stats.ports
  std::vector<api::StreamReport> streams;                         ///< stats.streams
  std::map<std::string, std::vector<api::NicCounter>> counters;   ///< port.counters, by port name
  std::vector<api::SwitchReport> switches;                        ///< stats.switches
  std::vector<api::CaptureReport> captures;                       ///< capture.list
  std::vector<api::PortNeighbors> neighbors;                      ///< neighbors.list: the emulated hosts
};

/// A scrape from the control socket's answers, read by the contract's codecs: `ports`
/// stats.ports, `streams` stats.streams, `counters` {port name: port.counters},
/// `switches` stats.switches.
Scrape scrape_from_json(const nlohmann::json& ports, const nlohmann::json& streams, const nlohmann::json& counters,
                        const nlohmann::json& switches = nlohmann::json::array());

/// The page: lr_up 1, then the ports', streams', counters' and switches' families.
std::string prometheus_text(const Scrape& scrape);

/// The page when the data plane cannot be reached: lr_up 0 and nothing else.
std::string prometheus_down_text();

}  // namespace lr::ctl
