#pragma once
// linerate's exact per-stream and per-port counts in the OTG model's metric objects
// (POST /monitor/metrics): Flow.Metric and Port.Metric of open-traffic-generator/models.

#include <nlohmann/json.hpp>

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "lib/api/run_report.hpp"

namespace lr::otg {

/// Rates of counters per second between samples of them at least 100 ms apart, per key (a
/// port, a flow): a client polling faster gets the last interval's rates again; a count
/// that went down (a new run started) gives no rate for that interval.
class RateSampler {
 public:
  using Clock = std::chrono::steady_clock;
  std::vector<double> rates(const std::string& key, const std::vector<uint64_t>& counts, Clock::time_point now);

 private:
  struct Sample {
    Clock::time_point at;
    std::vector<uint64_t> counts;
    std::vector<double> rates;
  };
  std::map<std::string, Sample> samples_;
};

struct PortRates {
  double frames_tx = 0, frames_rx = 0, bytes_tx = 0, bytes_rx = 0;  ///< per second
};
struct FlowRates {
  double frames_tx = 0, frames_rx = 0;  ///< per second
};

/// A flow's metric from its stream's report: frames and bytes each way, `rates` (a
/// RateSampler's, between metric requests), loss in
/// percent of the frames sent, latency minimum / maximum / average in ns, and with
/// `timestamps` the first and last frame received, in ns since the run's start (from its
/// timeline). `transmit`: "started", "paused" or "stopped"; `port_names`: the data plane's
/// port -> the config's name.
nlohmann::json flow_metric(const api::StreamReport& stream, const FlowRates& rates, const std::string& transmit,
                           const std::map<std::string, std::string>& port_names, bool timestamps);

/// A port's metric from what linerate sent and received on it, its rates over the last
/// interval between metric requests, and whether a capture runs on it.
nlohmann::json port_metric(const std::string& name, const std::string& location, const api::PortTraffic& traffic,
                           const PortRates& rates, bool link_up, bool capturing, const std::string& transmit);

}  // namespace lr::otg
