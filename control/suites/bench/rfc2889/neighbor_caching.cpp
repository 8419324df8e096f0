// neighbor_caching: a routed device's neighbour table capacity, by a binary search (issue
// 50's "beyond the anchors"): the most of hosts_device's hosts it resolves and forwards to
// without loss, each trial from a table emptied by a link flap.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "control/client/stop_signal.hpp"
#include "control/suites/bench/rfc2889/address_search.hpp"
#include "control/suites/bench/rfc2889/neighbor_streams.hpp"
#include "control/suites/bench/rfc2889/tests.hpp"

namespace lr::bench::rfc2889 {

namespace {

// Between the learning pass (the device resolves each host as its first frame comes) and
// the test pass: a resolution that needed a retry has had it.
constexpr uint64_t kResolveToTestNs = 500'000'000;
// The hosts' port's link down this long, between its flap and the next trial's traffic.
constexpr double kFlapDownS = 0.1;

// The hosts' port's link down and up: a router forgets a port's neighbours when its link
// goes down, so the trial starts with none of the hosts in its table.
void flap_hosts_port(Plan& p) {
  const std::string& port = device_named(p.profile, p.cfg.hosts_device).first.port;
  p.runner.set_link(port, false);
  ctl::sleep_unless_stopped(kFlapDownS);
  p.runner.set_link(port, true);
}

// One trial: `n` hosts loaded, the flap, then one frame to each host at host_rate (the
// device resolves them as they come), a pause, and one frame to each again: those it
// could not keep in its table are lost.
AddressTrial neighbor_trial(Plan& p, uint32_t n) {
  AddressTrial t;
  t.addresses = n;
  t.learning_fps = p.cfg.host_rate_fps;
  const api::DeviceSpec& hosts = device_named(p.profile, p.cfg.hosts_device);
  Streams streams(p, {});
  const auto pass_ns = static_cast<uint64_t>(std::ceil(n / p.cfg.host_rate_fps * 1e9));
  for (const char* name : {"learning", "test"}) {
    api::StreamSpec s = routed_stream(p, name, host_ipv4(hosts, 0));
    s.rate = {api::RateKind::kPps, p.cfg.host_rate_fps};
    s.count = n;
    s.start_after_ns = std::string_view(name) == "test" ? pass_ns + kResolveToTestNs : 0;
    s.vary.push_back({api::VaryField::kIpDst, api::VaryOp::kIncrement, n, hosts.ipv4_step, {}});
    streams.add(std::move(s));
  }
  const double traffic_s = static_cast<double>(2 * pass_ns + kResolveToTestNs) / 1e9;
  const std::string label = fmt::format("{} hosts", n);
  // Every run, the first and any again, from an empty table: the hosts loaded, the flap.
  p.runner.load_devices(devices_with_hosts(p, n));
  const auto flapped_run = [&](bool& interrupted) {
    flap_hosts_port(p);
    return p.runner.run_streams(streams.specs(), "neighbor_caching " + label, interrupted);
  };
  const auto spoiled = [&](const api::RunReport& report) {
    return invalid_reason(report, traffic_s, {"learning", "test"});
  };
  const Measured m = measure(p, "neighbor_caching", label, flapped_run, spoiled);
  t.valid = m.valid();
  t.invalid = m.interrupted ? "interrupted" : m.invalid;
  if (!t.valid) return t;
  const api::StreamReport& tested = stream_of(m.run.report, "test");
  t.flooded = tested.misdelivered;
  t.lost = tested.lost;
  t.learning_lost = stream_of(m.run.report, "learning").lost;
  return t;
}

}  // namespace

void neighbor_caching(Plan& p) {
  Result result = entry("neighbor_caching", "-");
  const api::DeviceSpec& hosts = device_named(p.profile, p.cfg.hosts_device);
  const uint32_t max_hosts = p.cfg.max_hosts != 0 ? p.cfg.max_hosts : hosts.count;
  std::vector<AddressTrialRow> trials;
  std::string why;
  bool capped = false;
  const auto found = search<uint32_t>(
      p.cfg.min_hosts, max_hosts, [&](uint32_t n) { return neighbor_trial(p, n); },
      [](uint32_t lo, uint32_t hi) { return hi - lo <= 1; }, trials, why, capped);
  p.runner.load_devices(p.profile.devices);  // the profile's hosts again, for what comes next
  result.sender_device = p.cfg.sender_device;
  result.hosts_device = p.cfg.hosts_device;
  result.host_rate_fps = p.cfg.host_rate_fps;
  result.trials = std::move(trials);
  if (found && !why.empty()) {
    cut_short<uint64_t>(result, result.hosts_at_least, *found, why,
                        fmt::format("at least {} hosts were forwarded to", *found));
  } else if (found) {
    result.hosts = *found;
    result.why = capped ? fmt::format(
                              "every one of the {} hosts was forwarded to without loss: the table holds at "
                              "least that",
                              *found)
                        : fmt::format("{} hosts forwarded to without loss, not {}", *found, *found + 1);
    if (capped) result.at_least = true;
  } else {
    result.verdict = why.empty() ? "measured" : "SKIPPED";  // hosts: none, written as null
    result.why = why.empty() ? fmt::format("frames were lost already with min_hosts ({})", p.cfg.min_hosts) : why;
  }
  p.result(result);
}

}  // namespace lr::bench::rfc2889
