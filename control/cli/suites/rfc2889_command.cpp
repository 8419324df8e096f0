#include "control/cli/suites/rfc2889_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "control/suites/bench/rfc2889/tests.hpp"
#include "control/command/exit_codes.hpp"
#include "control/client/stop_signal.hpp"
#include "control/reports/rfc2889_report.hpp"
#include "control/views/rfc2889_views.hpp"
#include "lib/api/json_fields.hpp"

namespace lr::bench {

using nlohmann::json;

namespace {

json rfc2889_settings(const BenchProfile& profile) {
  const Rfc2889Cfg& c = *profile.rfc2889;
  json out = api::write_fields(c, LR_JSON_FIELDS(tests, ports, devices, frame_sizes, loads_percent, resolution_percent,
                                                 address_rate_fps, min_addresses, max_addresses, min_learning_rate_fps,
                                                 max_learning_rate_fps, learning_resolution_percent,
                                                 broadcast_load_percent));
  out["trial_duration_s"] = static_cast<double>(c.trial_duration_ns) / 1e9;
  out["rest_s"] = static_cast<double>(c.rest_ns) / 1e9;
  out["age_time_s"] = static_cast<double>(c.age_time_ns) / 1e9;
  out["learning_addresses"] = c.learning_addresses != 0 ? json(c.learning_addresses) : json("from address_caching");
  out["oversize_frame"] = c.oversize_bytes;
  if (!c.hosts_device.empty()) {
    out.update(api::write_fields(c, LR_JSON_FIELDS(sender_device, hosts_device, min_hosts, host_rate_fps,
                                                   reresolution_hosts, reresolution_rate_fps)));
    out["max_hosts"] = c.max_hosts != 0 ? json(c.max_hosts) : json("hosts_device's count");
    out["link_down_s"] = static_cast<double>(c.link_down_ns) / 1e9;
  }
  return out;
}

// About how many runs the suite takes (the searches' length is a guess), for the ETA.
unsigned rfc2889_expected_runs(const BenchProfile& profile) {
  const Rfc2889Cfg& c = *profile.rfc2889;
  const auto sizes = static_cast<unsigned>(c.frame_sizes.size());
  const auto loads = static_cast<unsigned>(c.loads_percent.size());
  unsigned runs = 0;
  if (c.runs("fully_meshed")) runs += sizes * (loads + 3);
  if (c.runs("partially_meshed")) runs += 2 * sizes * (loads + 3);
  if (c.runs("unidirectional")) runs += sizes * (loads + 3);
  if (c.runs("multiple_devices")) runs += sizes * (loads + 3);
  if (c.runs("congestion_control") || c.runs("broadcast")) runs += sizes * (c.runs("congestion_control") + c.runs("broadcast"));
  if (c.runs("address_caching")) runs += 2 + static_cast<unsigned>(std::log2(c.max_addresses - c.min_addresses + 2));
  if (c.runs("address_learning")) runs += 9;
  if (c.runs("errored_frames")) runs += 1;
  if (c.runs("neighbor_caching")) runs += 2 + static_cast<unsigned>(std::log2(c.max_hosts + 2));
  if (c.runs("neighbor_reresolution")) runs += 1;
  return runs;
}

// In the RFC's order (§5.1 ... §5.10), each test over its frame sizes.
void run_rfc2889_tests(const BenchProfile& profile, TrialRunner& runner, BenchSession& session) {
  const Rfc2889Cfg& cfg = *profile.rfc2889;
  rfc2889::Plan plan{profile, cfg, runner, session, false, std::nullopt};
  session.report()["results"] = json::array();
  using Test = void (*)(rfc2889::Plan&);
  const std::pair<const char*, Test> tests[] = {{"fully_meshed", rfc2889::fully_meshed},
                                                {"partially_meshed", rfc2889::partially_meshed},
                                                {"multiple_devices", rfc2889::multiple_devices},
                                                {"unidirectional", rfc2889::unidirectional},
                                                {"congestion_control", rfc2889::congestion_control},
                                                {"forward_pressure", rfc2889::forward_pressure},
                                                {"address_caching", rfc2889::address_caching},
                                                {"address_learning", rfc2889::address_learning},
                                                {"errored_frames", rfc2889::errored_frames},
                                                {"broadcast", rfc2889::broadcast},
                                                {"neighbor_caching", rfc2889::neighbor_caching},
                                                {"neighbor_reresolution", rfc2889::neighbor_reresolution}};
  for (const auto& [name, test] : tests) {
    if (!cfg.runs(name)) continue;
    if (plan.interrupted || ctl::stop_requested()) return;
    std::printf("%s\n", name);
    test(plan);
  }
}

// A FAIL is the device's (a judged verdict: errored frames forwarded); what is only
// measured or SKIPPED leaves the code at 0.
int rfc2889_verdict_code(const json& report) {
  const std::vector<rfc2889::Result> results = rfc2889::rfc2889_report_from_json(report).results;
  return std::ranges::any_of(results, [](const rfc2889::Result& r) { return r.verdict == "FAIL"; }) ? ctl::kExitFailed
                                                                                                   : 0;
}

}  // namespace

int run_rfc2889(const BenchOptions& options) {
  const Suite suite{"rfc2889",
                    "linerate.rfc2889/1",
                    section_of<&BenchProfile::rfc2889>,
                    rfc2889_settings,
                    rfc2889_expected_runs,
                    run_rfc2889_tests,
                    [](const json& report) { std::fputs(ctl::rfc2889_text(report).c_str(), stdout); },
                    {ctl::rfc2889_csv, ctl::rfc2889_html},
                    rfc2889_verdict_code};
  return run_suite(suite, options);
}

}  // namespace lr::bench
