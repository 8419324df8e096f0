// neighbor_reresolution: how long after a link flap a routed device forwards to each host
// again (issue 50's "beyond the anchors"): from the hosts' port's link coming up, on the data
// plane's clock, to the first frame each host's stream received after it (its timeline).

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <vector>

#include "control/suites/bench/rfc2889/neighbor_streams.hpp"
#include "control/suites/bench/rfc2889/tests.hpp"

namespace lr::bench::rfc2889 {

namespace {

// Traffic this long before the link goes down, and after it is up.
constexpr uint64_t kBeforeFlapNs = 1'000'000'000;
constexpr uint64_t kAfterFlapNs = 2'000'000'000;
constexpr uint64_t kReresolutionBinNs = 100'000;  // the timeline's bins: the timing's resolution

// The first bin at or after `from_s` that holds a received frame: its start (at least
// `from_s`), in seconds of the run; none when no frame came after.
std::optional<double> first_rx_after(const api::TimelineReport& timeline, double from_s) {
  const auto first = static_cast<size_t>(std::max(0.0, std::floor(from_s / timeline.bin_s)));
  for (size_t i = first; i < timeline.rx.size(); ++i)
    if (timeline.rx[i] > 0) return std::max(from_s, static_cast<double>(i) * timeline.bin_s);
  return std::nullopt;
}

// The hosts' port's link coming up in the run (the data plane's clock): its last up event.
std::optional<double> link_up_s(const api::RunReport& report, const std::string& port) {
  std::optional<double> up;
  for (const api::PortReport& r : report.ports)
    if (r.name == port)
      for (const api::LinkEventReport& e : r.link_events)
        if (e.up && e.run_s) up = *e.run_s;
  return up;
}

// The streams run with `run`'s settings, the port's link taken down kBeforeFlapNs into the
// run and up `down_ns` later (up again at the end if a stop request came in between).
ctl::EndedRun run_with_flap(Plan& p, const Streams& streams, const api::RunSpec& run, const std::string& port,
                            uint64_t down_ns, bool& interrupted) {
  const auto down_at = std::chrono::nanoseconds(kBeforeFlapNs);
  const auto up_at = down_at + std::chrono::nanoseconds(down_ns);
  bool down = false, up = false;
  ctl::EndedRun ended = p.runner.run_streams(streams.specs(), "neighbor_reresolution", interrupted, run,
                                             [&](std::chrono::steady_clock::duration elapsed) {
                                               if (!down && elapsed >= down_at) {
                                                 p.runner.set_link(port, false);
                                                 down = true;
                                               }
                                               if (down && !up && elapsed >= up_at) {
                                                 p.runner.set_link(port, true);
                                                 up = true;
                                               }
                                             });
  if (down && !up) p.runner.set_link(port, true);  // interrupted while it was down
  return ended;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

void neighbor_reresolution(Plan& p) {
  Result result = entry("neighbor_reresolution", "-");
  const api::DeviceSpec& hosts = device_named(p.profile, p.cfg.hosts_device);
  const std::string& port = hosts.first.port;
  const uint32_t k = std::min(p.cfg.reresolution_hosts, hosts.count);
  result.sender_device = p.cfg.sender_device;
  result.hosts_device = p.cfg.hosts_device;
  result.link_down_s = static_cast<double>(p.cfg.link_down_ns) / 1e9;
  result.timeline_bin_ms = static_cast<double>(kReresolutionBinNs) / 1e6;
  Streams streams(p, {});
  const uint64_t duration_ns = kBeforeFlapNs + p.cfg.link_down_ns + kAfterFlapNs;
  for (uint32_t i = 0; i < k; ++i) {
    api::StreamSpec s = routed_stream(p, fmt::format("host-{}", i), host_ipv4(hosts, i));
    s.rate = {api::RateKind::kPps, p.cfg.reresolution_rate_fps / k};
    s.duration_ns = duration_ns;
    s.catch_up = true;  // its rate is not what is measured: a held-up lane sends what it owes
    streams.add(std::move(s));
  }
  // Only the hosts timed: the others' announcements and resolutions after the flap would
  // only crowd the host's CPUs (and the device) while it is timed.
  p.runner.load_devices(devices_with_hosts(p, k));
  api::RunSpec run;
  run.timeline_bin_ns = kReresolutionBinNs;
  const auto flapping_run = [&](bool& interrupted) {
    return run_with_flap(p, streams, run, port, p.cfg.link_down_ns, interrupted);
  };
  const auto spoiled = [&](const api::RunReport& report) {
    std::string why = invalid_reason(report, static_cast<double>(duration_ns) / 1e9, {}, port);
    if (why.empty() && !link_up_s(report, port))
      why = fmt::format("the report has no time on the run's clock for port '{}''s link coming up", port);
    return why;
  };
  const Measured m = measure(p, "neighbor_reresolution", "", flapping_run, spoiled);
  p.runner.load_devices(p.profile.devices);  // the profile's hosts again
  if (!m.valid()) return p.skipped(result, m);
  const double up_s = *link_up_s(m.run.report, port);
  std::vector<HostReresolution> rows;
  std::vector<double> times;
  for (uint32_t i = 0; i < k; ++i) {
    const api::StreamReport& s = stream_of(m.run.report, fmt::format("host-{}", i));
    HostReresolution row{fmt::format("{}[{}]", hosts.name, i), ipv4_text(host_ipv4(hosts, i)), std::nullopt, s.lost};
    if (s.timeline)
      if (const auto at = first_rx_after(*s.timeline, up_s)) row.reresolved_ms = (*at - up_s) * 1e3;
    if (row.reresolved_ms) times.push_back(*row.reresolved_ms);
    rows.push_back(std::move(row));
  }
  result.hosts_not_reresolved = k - times.size();
  if (!times.empty()) {
    result.reresolved_min_ms = *std::min_element(times.begin(), times.end());
    result.reresolved_median_ms = median(times);
    result.reresolved_max_ms = *std::max_element(times.begin(), times.end());
  }
  const double interval_ms = k / p.cfg.reresolution_rate_fps * 1e3;
  result.why =
      times.empty()
          ? fmt::format("no host got a frame in the {:g} s after the link came up",
                        static_cast<double>(kAfterFlapNs) / 1e9)
          : fmt::format(
                "{} of {} hosts forwarded to again {:.1f} to {:.1f} ms (median {:.1f}) after the link "
                "came up (each host's frames {:.2f} ms apart, timed to {:g} ms; the hosts see their link up within 5 "
                "ms and announce themselves, which a router may wait for)",
                times.size(), k, *result.reresolved_min_ms, *result.reresolved_max_ms, *result.reresolved_median_ms,
                interval_ms, *result.timeline_bin_ms);
  result.reresolution = std::move(rows);
  p.result(result);
}

}  // namespace lr::bench::rfc2889
