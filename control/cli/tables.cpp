#include "control/cli/tables.hpp"

#include <fmt/format.h>

#include <map>

namespace lr::ctl {

using nlohmann::json;

namespace {

std::string text_or_dash(const json& value) {
  if (value.is_null()) return "-";
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

}  // namespace

std::vector<api::PortTraffic> port_traffic(const json& stats_ports) {
  std::vector<api::PortTraffic> out;
  for (const json& port : stats_ports) {
    api::PortTraffic traffic = api::port_traffic_from_json(port.value("linerate", json::object()));
    traffic.name = port.value("name", "");
    out.push_back(std::move(traffic));
  }
  return out;
}

std::vector<api::StreamReport> stream_reports(const json& stats_streams) {
  std::vector<api::StreamReport> out;
  for (const json& stream : stats_streams) out.push_back(api::stream_report_from_json(stream));
  return out;
}

std::string ports_table(const json& ports) {
  std::string out = fmt::format("{:<12} {:<28} {:<14} {:>6} {:>5} {:>10} {:>7}\n", "port", "device", "driver",
                                "socket", "link", "Gbit/s", "owner");
  for (const json& p : ports)
    out += fmt::format("{:<12} {:<28} {:<14} {:>6} {:>5} {:>10} {:>7}\n", p.value("name", ""), p.value("device", ""),
                       p.value("driver", ""), p.value("socket", -1), p.value("link_up", false) ? "up" : "down",
                       p.value("link_speed_bps", uint64_t{0}) / 1e9, text_or_dash(p.value("owner", json())));
  return out;
}

std::string streams_table(const json& streams) {
  std::string out = fmt::format("{:<16} {:<10} {:<10} {:>10} {:>6} {:>14}\n", "stream", "tx_port", "rx_port",
                                "frame_B", "lanes", "target_Mpps");
  for (const json& s : streams) {
    const json target = s.value("target_pps", json());
    out += fmt::format("{:<16} {:<10} {:<10} {:>10.1f} {:>6} {:>14}\n", s.value("name", ""), s.value("tx_port", ""),
                       text_or_dash(s.value("rx_port", json())), s.value("frame_bytes_mean", 0.0), s.value("lanes", 0),
                       target.is_number() ? fmt::format("{:.6f}", target.get<double>() / 1e6) : std::string("max"));
  }
  return out;
}

std::string counters_table(const json& counters, const json& before, double seconds) {
  std::map<std::string, double> earlier;
  if (before.is_object())
    for (const json& c : before.value("counters", json::array()))
      earlier[c.value("source", "") + "/" + c.value("name", "")] = c.value("total", 0.0);
  const bool rates = !earlier.empty() && seconds > 0;
  std::string out = fmt::format("{:<28} {:<36} {:<8} {:>16} {:>18}{}\n", "canonical", "name", "source", "this_run",
                                "total", rates ? fmt::format(" {:>14}", "per_second") : "");
  for (const json& c : counters.value("counters", json::array())) {
    const json canonical = c.value("canonical", json());
    const std::string key = c.value("source", "") + "/" + c.value("name", "");
    out += fmt::format("{:<28} {:<36} {:<8} {:>16} {:>18}", canonical.is_string() ? canonical.get<std::string>() : "-",
                       c.value("name", ""), c.value("source", ""), c.value("value", uint64_t{0}),
                       c.value("total", uint64_t{0}));
    if (rates) {
      const auto it = earlier.find(key);
      out += it == earlier.end() ? fmt::format(" {:>14}", "-")
                                 : fmt::format(" {:>14.1f}", (c.value("total", 0.0) - it->second) / seconds);
    }
    out += "\n";
  }
  for (const json& e : counters.value("errors", json::array())) out += "unreadable: " + e.get<std::string>() + "\n";
  return out;
}

}  // namespace lr::ctl
