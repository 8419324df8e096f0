#include "control/cli/tables.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace lr::ctl {

using nlohmann::json;


std::string ports_table(const json& port_list) {
  std::vector<api::PortListing> ports;
  for (const json& p : port_list) ports.push_back(api::port_listing_from_json(p));
  // Long device strings ("net_af_packet0,iface=...,qdisc_bypass=0") widen their column.
  size_t name_w = 12, device_w = 28, driver_w = 14;
  for (const api::PortListing& p : ports) {
    name_w = std::max(name_w, p.port.name.size());
    device_w = std::max(device_w, p.port.device.size());
    driver_w = std::max(driver_w, p.port.driver.size());
  }
  std::string out = fmt::format("{:<{}} {:<{}} {:<{}} {:>6} {:>5} {:>11} {:>11} {:>7}\n", "port", name_w, "device",
                                device_w, "driver", driver_w, "socket", "link", "link_Gbit/s", "rate_Gbit/s", "owner");
  for (const api::PortListing& listing : ports) {
    const api::PortReport& p = listing.port;
    // rate_Gbit/s: what percentages and line rate refer to; "*" when the profile's `speed` set it.
    const std::string rate = fmt::format("{}{}", static_cast<double>(p.speed_bps) / 1e9, p.speed_from_profile ? "*" : "");
    out += fmt::format("{:<{}} {:<{}} {:<{}} {:>6} {:>5} {:>11} {:>11} {:>7}\n", p.name, name_w, p.device, device_w,
                       p.driver, driver_w, p.socket, p.link_up ? "up" : "down",
                       static_cast<double>(p.link_speed_bps) / 1e9, rate,
                       listing.owner ? std::to_string(*listing.owner) : std::string("-"));
  }
  if (std::any_of(ports.begin(), ports.end(), [](const api::PortListing& p) { return p.port.speed_from_profile; }))
    out += "(* the profile's speed)\n";
  return out;
}

std::string histogram_text(const json& histogram_json, const api::LatencySummary& l, bool every_bucket) {
  const api::LatencyHistogram histogram = api::latency_histogram_from_json(histogram_json);
  std::string out = fmt::format("stream '{}': {} samples; min {} ns, mean {:.1f} ns, p50 {} ns, p90 {} ns, p99 {} ns, "
                                "p99.9 {} ns, p99.99 {} ns, max {} ns, jitter {:.1f} ns\n",
                                histogram.stream, histogram.samples, l.min_ns, l.mean_ns, l.p50_ns, l.p90_ns, l.p99_ns,
                                l.p999_ns, l.p9999_ns, l.max_ns, l.jitter_ns);
  const auto total = static_cast<double>(std::max<uint64_t>(histogram.samples, 1));
  if (every_bucket) {
    out += fmt::format("{:>14} {:>14} {:>14}\n", "from_ns", "to_ns", "frames");
    for (const api::LatencyHistogram::Bucket& b : histogram.buckets)
      out += fmt::format("{:>14} {:>14} {:>14}\n", b.low_ns, b.high_ns, b.count);
    return out;
  }
  // Power-of-two ranges: a few rows whatever the spread (the buckets are 1.6 % wide).
  std::map<int, uint64_t> ranges;
  for (const api::LatencyHistogram::Bucket& b : histogram.buckets)
    ranges[b.low_ns == 0 ? -1 : 63 - __builtin_clzll(b.low_ns)] += b.count;
  out += fmt::format("{:>22} {:>14} {:>8}\n", "latency", "frames", "share");
  for (const auto& [power, count] : ranges) {
    const std::string range = power < 0 ? std::string("0 ns")
                                        : fmt::format("{}-{} ns", uint64_t{1} << power, (uint64_t{1} << (power + 1)) - 1);
    out += fmt::format("{:>22} {:>14} {:>7.2f}% {}\n", range, count, 100.0 * static_cast<double>(count) / total,
                       std::string(static_cast<size_t>(std::lround(40.0 * static_cast<double>(count) / total)), '#'));
  }
  return out;
}

std::string streams_table(const json& streams) {
  std::string out = fmt::format("{:<16} {:<10} {:<10} {:>10} {:>6} {:>14}\n", "stream", "tx_port", "rx_port",
                                "frame_B", "lanes", "target_Mpps");
  for (const json& item : streams) {
    const api::StreamListing s = api::stream_listing_from_json(item);
    out += fmt::format("{:<16} {:<10} {:<10} {:>10.1f} {:>6} {:>14}\n", s.name, s.tx_port, s.rx_port.value_or("-"),
                       s.frame_bytes_mean, s.lanes, s.target_pps ? fmt::format("{:.6f}", *s.target_pps / 1e6) : "max");
  }
  return out;
}

std::string counters_table(const api::PortCounterView& counters, const api::PortCounterView* before, double seconds) {
  std::map<std::string, uint64_t> earlier;
  if (before != nullptr)
    for (const api::NicCounter& c : before->counters) earlier[c.source + "/" + c.name] = c.total;
  const bool rates = !earlier.empty() && seconds > 0;
  std::string out = fmt::format("{:<28} {:<36} {:<8} {:>16} {:>18}{}\n", "canonical", "name", "source", "this_run",
                                "total", rates ? fmt::format(" {:>14}", "per_second") : "");
  for (const api::NicCounter& c : counters.counters) {
    out += fmt::format("{:<28} {:<36} {:<8} {:>16} {:>18}", c.canonical.value_or("-"), c.name, c.source, c.value, c.total);
    if (rates) {
      const auto it = earlier.find(c.source + "/" + c.name);
      out += it == earlier.end()
                 ? fmt::format(" {:>14}", "-")
                 : fmt::format(" {:>14.1f}", (static_cast<double>(c.total) - static_cast<double>(it->second)) / seconds);
    }
    out += "\n";
  }
  for (const std::string& e : counters.errors) out += "unreadable: " + e + "\n";
  return out;
}

}  // namespace lr::ctl
