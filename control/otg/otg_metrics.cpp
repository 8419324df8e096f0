#include "control/otg/otg_metrics.hpp"

#include <cmath>

namespace lr::otg {

using nlohmann::json;

namespace {

std::string named(const std::map<std::string, std::string>& names, const std::string& port) {
  const auto it = names.find(port);
  return it == names.end() ? port : it->second;
}

// What OTG counts of a flow and of a port alike: frames and bytes each way, and the frame rates.
template <class Counts, class Rates>
json traffic_counts(const Counts& c, const Rates& rates) {
  return {{"frames_tx", c.tx_packets}, {"frames_rx", c.rx_packets},         {"bytes_tx", c.tx_bytes},
          {"bytes_rx", c.rx_bytes},    {"frames_tx_rate", rates.frames_tx}, {"frames_rx_rate", rates.frames_rx}};
}

}  // namespace

json flow_metric(const api::StreamReport& s, const FlowRates& rates, const std::string& transmit,
                 const std::map<std::string, std::string>& ports, bool timestamps) {
  const double loss = s.tx_packets == 0 ? 0 : 100.0 * static_cast<double>(s.lost) / static_cast<double>(s.tx_packets);
  json m = traffic_counts(s, rates);
  m.update({{"name", s.name},
            {"port_tx", named(ports, s.tx_port)},
            {"port_rx", s.rx_port ? named(ports, *s.rx_port) : ""},
            {"transmit", transmit},
            {"loss", loss}});
  if (s.latency.samples != 0)
    m["latency"] = {{"minimum_ns", static_cast<double>(s.latency.min_ns)},
                    {"maximum_ns", static_cast<double>(s.latency.max_ns)},
                    {"average_ns", s.latency.mean_ns}};
  if (timestamps) {
    m["timestamps"] = json::object();  // empty until a frame came
    if (s.timeline && s.timeline->rx_span_s)
      m["timestamps"] = {{"first_timestamp_ns", std::round(s.timeline->rx_span_s->first * 1e9)},
                         {"last_timestamp_ns", std::round(s.timeline->rx_span_s->second * 1e9)}};
  }
  return m;
}

std::vector<double> RateSampler::rates(const std::string& key, const std::vector<uint64_t>& counts, Clock::time_point now) {
  const auto found = samples_.find(key);
  if (found == samples_.end() || found->second.counts.size() != counts.size()) {
    samples_[key] = {now, counts, std::vector<double>(counts.size(), 0.0)};
    return samples_[key].rates;
  }
  Sample& s = found->second;
  const double seconds = std::chrono::duration<double>(now - s.at).count();
  if (seconds < 0.1) return s.rates;
  for (size_t i = 0; i < counts.size(); ++i)
    s.rates[i] = counts[i] < s.counts[i] ? 0.0 : static_cast<double>(counts[i] - s.counts[i]) / seconds;
  s.at = now;
  s.counts = counts;
  return s.rates;
}

json port_metric(const std::string& name, const std::string& location, const api::PortTraffic& t, const PortRates& rates,
                 bool link_up, bool capturing, const std::string& transmit) {
  json m = traffic_counts(t, rates);
  m.update({{"name", name},
            {"location", location},
            {"link", link_up ? "up" : "down"},
            {"capture", capturing ? "started" : "stopped"},
            {"bytes_tx_rate", rates.bytes_tx},
            {"bytes_rx_rate", rates.bytes_rx},
            {"transmit", transmit}});
  return m;
}

}  // namespace lr::otg
