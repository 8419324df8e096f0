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

std::string ns(const json& latency, const char* key) {
  return latency.is_object() ? fmt::format("{}ns", latency.value(key, uint64_t{0})) : "-";
}

}  // namespace

std::vector<PortRate> port_rates(const json& before, const json& after, double seconds) {
  std::vector<PortRate> out;
  for (size_t i = 0; i < after.size() && i < before.size(); ++i) {
    const json& a = after[i]["linerate"];
    const json& b = before[i]["linerate"];
    const auto per_second = [&](const char* key) { return (a.value(key, 0.0) - b.value(key, 0.0)) / seconds; };
    PortRate r;
    r.name = after[i].value("name", "");
    r.tx_pps = per_second("tx_packets");
    r.rx_pps = per_second("rx_packets");
    r.tx_l1_bps = (per_second("tx_bytes") + r.tx_pps * 20) * 8;
    r.rx_l1_bps = (per_second("rx_bytes") + r.rx_pps * 20) * 8;
    out.push_back(std::move(r));
  }
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

std::string stream_stats_table(const json& stats) {
  std::string out = fmt::format("{:<16} {:>12} {:>9} {:>12} {:>10} {:>6} {:>6} {:>9} {:>9} {:>9}\n", "stream",
                                "tx_packets", "tx_Mpps", "rx_packets", "lost", "dup", "ooo", "lat_p50", "lat_p99",
                                "lat_max");
  for (const json& s : stats) {
    const bool rx = s.contains("rx_packets");
    const json latency = s.value("latency_ns", json());
    out += fmt::format("{:<16} {:>12} {:>9.4f} {:>12} {:>10} {:>6} {:>6} {:>9} {:>9} {:>9}\n", s.value("name", ""),
                       s.value("tx_packets", uint64_t{0}), s.value("tx_pps_achieved", 0.0) / 1e6,
                       rx ? std::to_string(s.value("rx_packets", uint64_t{0})) : "-",
                       rx ? std::to_string(s.value("lost", int64_t{0})) : "-",
                       rx ? std::to_string(s.value("duplicate", uint64_t{0})) : "-",
                       rx ? std::to_string(s.value("out_of_order", uint64_t{0})) : "-", ns(latency, "p50"),
                       ns(latency, "p99"), ns(latency, "max"));
  }
  return out;
}

std::string report_table(const json& report) {
  std::string out = stream_stats_table(report.value("streams", json::array()));
  out += fmt::format("\n{:<12} {:>12} {:>12} {:>9} {:>9} {:>9} {:>12}\n", "port", "opackets", "ipackets", "imissed",
                     "ierrors", "oerrors", "no_signature");
  for (const json& p : report.value("ports", json::array()))
    out += fmt::format("{:<12} {:>12} {:>12} {:>9} {:>9} {:>9} {:>12}\n", p.value("name", ""),
                       p.value("opackets", uint64_t{0}), p.value("ipackets", uint64_t{0}),
                       p.value("imissed", uint64_t{0}), p.value("ierrors", uint64_t{0}), p.value("oerrors", uint64_t{0}),
                       p.value("rx_no_signature", uint64_t{0}));
  if (report.value("mbufs_not_returned", uint64_t{0}) != 0)
    out += fmt::format("\nWARNING: {} mbufs did not return to their pools\n", report["mbufs_not_returned"].get<uint64_t>());
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
