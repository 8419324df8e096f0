#include "dataplane/engine/report.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace lr::dp {

nlohmann::json to_json(const StreamReport& s) {
  using nlohmann::json;
  json j{
      {"name", s.name},
      {"tx_port", s.tx_port},
      {"rx_port", s.rx_port ? json(*s.rx_port) : json(nullptr)},
      {"frame_bytes_mean", s.frame_bytes_mean},
      {"target_pps", s.target_pps == 0 ? json(nullptr) : json(s.target_pps)},
      {"tx_packets", s.tx_packets},
      {"tx_bytes", s.tx_bytes},
      {"tx_pps_achieved", s.tx_pps_achieved},
      {"tx_l1_bps_achieved", s.tx_l1_bps_achieved},
      {"tx_queue_full", s.tx_queue_full},
  };
  if (s.rx_port) {
    const LatencySummary& l = s.latency;
    j.update(json{
        {"rx_packets", s.rx_packets},
        {"rx_bytes", s.rx_bytes},
        {"lost", s.lost},
        {"duplicate", s.duplicate},
        {"out_of_order", s.out_of_order},
        {"late", s.late},
        {"beyond_window", s.beyond_window},
        {"misdelivered", s.misdelivered},
        {"latency_ns",
         {{"samples", l.samples},
          {"min", l.min_ns},
          {"mean", l.mean_ns},
          {"p50", l.p50_ns},
          {"p90", l.p90_ns},
          {"p99", l.p99_ns},
          {"p999", l.p999_ns},
          {"p9999", l.p9999_ns},
          {"max", l.max_ns},
          {"jitter", l.jitter_ns}}},
    });
  }
  return j;
}

nlohmann::json to_json(const PortReport& p) {
  return nlohmann::json{
      {"name", p.name},
      {"device", p.device},
      {"driver", p.driver},
      {"port_id", p.port_id},
      {"socket", p.socket},
      {"link_up", p.link_up},
      {"link_speed_bps", p.link_speed_bps},
      {"ipackets", p.counters.ipackets},
      {"opackets", p.counters.opackets},
      {"ibytes", p.counters.ibytes},
      {"obytes", p.counters.obytes},
      {"imissed", p.counters.imissed},
      {"ierrors", p.counters.ierrors},
      {"oerrors", p.counters.oerrors},
      {"rx_nombuf", p.counters.rx_nombuf},
      {"rx_no_signature", p.rx_no_signature},
      {"rx_after_drain", p.rx_after_drain},
  };
}

nlohmann::json to_json(const RunReport& r) {
  using nlohmann::json;
  json streams = json::array();
  for (const StreamReport& s : r.streams) streams.push_back(to_json(s));
  json ports = json::array();
  for (const PortReport& p : r.ports) ports.push_back(to_json(p));
  return json{
      {"schema", "linerate.run_report/1"},
      {"profile", r.profile_path},
      {"started_at", r.started_at},
      {"duration_s", r.duration_s},
      {"interrupted", r.interrupted},
      {"streams", std::move(streams)},
      {"ports", std::move(ports)},
      {"mbufs_not_returned", r.mbufs_not_returned},
      {"warnings", r.warnings},
  };
}

std::string format_table(const RunReport& r) {
  std::string out;
  out += fmt::format("{:<16} {:>12} {:>10} {:>12} {:>10} {:>6} {:>6} {:>6} {:>9} {:>9} {:>9} {:>9}\n", "stream",
                     "tx_packets", "tx_Mpps", "rx_packets", "lost", "dup", "ooo", "late", "lat_min", "lat_p50",
                     "lat_p99", "lat_max");
  for (const StreamReport& s : r.streams) {
    if (s.rx_port) {
      out += fmt::format("{:<16} {:>12} {:>10.4f} {:>12} {:>10} {:>6} {:>6} {:>6} {:>9} {:>9} {:>9} {:>9}\n", s.name,
                         s.tx_packets, s.tx_pps_achieved / 1e6, s.rx_packets, s.lost, s.duplicate, s.out_of_order,
                         s.late, fmt::format("{}ns", s.latency.min_ns), fmt::format("{}ns", s.latency.p50_ns),
                         fmt::format("{}ns", s.latency.p99_ns), fmt::format("{}ns", s.latency.max_ns));
    } else {
      out += fmt::format("{:<16} {:>12} {:>10.4f} {:>12}   (transmit only)\n", s.name, s.tx_packets,
                         s.tx_pps_achieved / 1e6, "-");
    }
  }
  out += fmt::format("\n{:<16} {:<10} {:>12} {:>12} {:>9} {:>9} {:>9} {:>12}\n", "port", "driver", "opackets",
                     "ipackets", "imissed", "ierrors", "oerrors", "no_signature");
  for (const PortReport& p : r.ports)
    out += fmt::format("{:<16} {:<10} {:>12} {:>12} {:>9} {:>9} {:>9} {:>12}\n", p.name, p.driver,
                       p.counters.opackets, p.counters.ipackets, p.counters.imissed, p.counters.ierrors,
                       p.counters.oerrors, p.rx_no_signature);
  if (r.mbufs_not_returned != 0)
    out += fmt::format("\nWARNING: {} mbufs did not return to their pools\n", r.mbufs_not_returned);
  return out;
}

}  // namespace lr::dp
