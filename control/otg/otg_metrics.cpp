#include "control/otg/otg_metrics.hpp"

#include <cmath>

namespace lr::otg {

using nlohmann::json;

namespace {

std::string named(const std::map<std::string, std::string>& names, const std::string& port) {
  const auto it = names.find(port);
  return it == names.end() ? port : it->second;
}

}  // namespace

json flow_metric(const api::StreamReport& s, const std::string& transmit, const std::map<std::string, std::string>& ports,
                 bool timestamps) {
  const double loss = s.tx_packets == 0 ? 0 : 100.0 * static_cast<double>(s.lost) / static_cast<double>(s.tx_packets);
  json m{{"name", s.name},
         {"port_tx", named(ports, s.tx_port)},
         {"port_rx", s.rx_port ? named(ports, *s.rx_port) : ""},
         {"transmit", transmit},
         {"frames_tx", s.tx_packets},
         {"frames_rx", s.rx_packets},
         {"bytes_tx", s.tx_bytes},
         {"bytes_rx", s.rx_bytes},
         {"frames_tx_rate", s.tx_pps_achieved},
         {"frames_rx_rate", s.tx_packets == 0 ? 0.0 : s.tx_pps_achieved * static_cast<double>(s.rx_packets) /
                                                          static_cast<double>(s.tx_packets)},
         {"loss", loss}};
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

PortRates port_rates(const api::PortTraffic& before, const api::PortTraffic& after, double seconds) {
  // A new run starts the counts again: no rate across it.
  if (seconds <= 0 || after.tx_packets < before.tx_packets || after.rx_packets < before.rx_packets) return {};
  const auto per_second = [&](uint64_t a, uint64_t b) { return static_cast<double>(b - a) / seconds; };
  return {per_second(before.tx_packets, after.tx_packets), per_second(before.rx_packets, after.rx_packets),
          per_second(before.tx_bytes, after.tx_bytes), per_second(before.rx_bytes, after.rx_bytes)};
}

json port_metric(const std::string& name, const std::string& location, const api::PortTraffic& t, const PortRates& rates,
                 bool link_up, bool capturing, const std::string& transmit) {
  return {{"name", name},
          {"location", location},
          {"link", link_up ? "up" : "down"},
          {"capture", capturing ? "started" : "stopped"},
          {"frames_tx", t.tx_packets},
          {"frames_rx", t.rx_packets},
          {"bytes_tx", t.tx_bytes},
          {"bytes_rx", t.rx_bytes},
          {"frames_tx_rate", rates.frames_tx},
          {"frames_rx_rate", rates.frames_rx},
          {"bytes_tx_rate", rates.bytes_tx},
          {"bytes_rx_rate", rates.bytes_rx},
          {"transmit", transmit}};
}

}  // namespace lr::otg
