#include "control/cli/suites/lossless_command.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "control/suites/bench/lossless_cases.hpp"
#include "control/suites/bench/lossless_report.hpp"
#include "control/command/exit_codes.hpp"
#include "control/views/lossless_views.hpp"
#include "control/reports/quantity_text.hpp"
#include "control/suites/bench/bench_sections.hpp"
#include "lib/api/json_fields.hpp"

namespace lr::bench {

using nlohmann::json;

namespace {

json lossless_settings(const BenchProfile& profile) {
  const bench::LosslessCfg& c = *profile.lossless;
  json out = api::write_fields(c, LR_JSON_FIELDS(cases, senders, receiver, lossless, lossy, frame_size, rate_percent,
                                                 incast_rate_percent, quanta, quanta_tolerance_percent,
                                                 learning_frames));
  out["duration_s"] = static_cast<double>(c.duration_ns) / 1e9;
  out["storm_s"] = static_cast<double>(c.storm_ns) / 1e9;
  out["rest_s"] = static_cast<double>(c.rest_ns) / 1e9;
  out["global_pause"] = c.global_pause_honoured ? "honoured" : "ignored";
  out["response_time_s"] = c.response_time_ns != 0 ? json(static_cast<double>(c.response_time_ns) / 1e9) : json("auto");
  out["quanta_tolerance_s"] = static_cast<double>(c.quanta_tolerance_ns) / 1e9;
  if (c.headroom_bytes != 0) {
    std::vector<double> delays_s;
    for (const uint64_t ns : c.headroom_delays_ns) delays_s.push_back(static_cast<double>(ns) / 1e9);
    out["headroom_bytes"] = c.headroom_bytes;
    out["headroom_delays_s"] = delays_s.empty() ? json("from headroom and the sender's rate") : json(delays_s);
  }
  if (c.watchdog)
    out["watchdog"] = {{"detect_s", static_cast<double>(c.watchdog_detect_ns) / 1e9},
                       {"restore_s", static_cast<double>(c.watchdog_restore_ns) / 1e9},
                       {"action", c.watchdog_forward ? "forward" : "drop"},
                       {"tolerance_s", c.watchdog_tolerance_ns != 0 ? json(static_cast<double>(c.watchdog_tolerance_ns) / 1e9)
                                                                    : json("a tenth of each time")}};
  if (c.ecn)
    out["ecn"] = {{"kmin_bytes", c.ecn_kmin_bytes}, {"kmax_bytes", c.ecn_kmax_bytes}, {"pmax", c.ecn_pmax}, {"fill_bytes", c.ecn_fill_bytes}};
  return out;
}

// Each case's checks, the measured number beside its bound, and the runs it took: how
// many, how many the host spoiled and why (the first such reason).
void print_checks(const LosslessReport& plan) {
  std::printf("\nchecks (measured beside the bound)\n  %-18s %-64s %16s  %-22s %s\n", "case", "check", "measured",
              "bound", "result");
  for (const LosslessCaseReport& c : plan.cases)
    for (const Check& check : c.outcome.checks) {
      const std::string measured = ctl::text::plain_number(check.value) + " " + check.unit;  // no exponent
      const char* result = !check.not_judged.empty() ? "not judged" : check.ok ? "ok" : "FAIL";
      std::printf("  %-18s %-64s %16s  %-22s %s\n", c.outcome.name.c_str(), check.what.c_str(), measured.c_str(),
                  check.bound.c_str(), result);
    }
  std::map<std::string, std::pair<int, int>> runs;  // case -> (runs, invalid)
  std::map<std::string, std::string> first_invalid;
  std::vector<std::string> order;
  for (const LosslessRun& run : plan.runs) {
    if (!runs.contains(run.case_name)) order.push_back(run.case_name);
    ++runs[run.case_name].first;
    if (run.valid()) continue;
    ++runs[run.case_name].second;
    first_invalid.emplace(run.case_name, run.invalid_reason);
  }
  std::printf("\nruns per case (a run the host spoiled is invalid and run again)\n");
  for (const std::string& name : order) {
    const auto [all, invalid] = runs[name];
    std::printf("  %-18s %d run%s, %d invalid%s\n", name.c_str(), all, all == 1 ? "" : "s", invalid,
                invalid == 0 ? "" : fmt::format(" (first: {})", first_invalid[name]).c_str());
  }
}

void print_verdicts(const json& report) {
  const LosslessReport plan = lossless_report_from_json(report);
  std::printf("\nlossless test plan\n%-18s %-8s %s\n", "case", "verdict", "why");
  for (const LosslessCaseReport& c : plan.cases)
    std::printf("%-18s %-8s %s\n", c.outcome.name.c_str(), verdict_text(c.outcome.verdict), c.outcome.explanation.c_str());
  print_checks(plan);
  // Against linerate's own switch, its counters are in every run; against another device,
  // the user reads its counters beside what the tester counted.
  if (plan.own_switch()) {
    std::printf("(the switch's own counters: report.json trials[].report.switches)\n");
    return;
  }
  std::printf("\nto compare with the DUT's counters (report.json cases[].compare_with_dut):\n");
  for (const LosslessCaseReport& c : plan.cases)
    for (const std::string& line : c.compare_with_dut) std::printf("  %-16s %s\n", c.outcome.name.c_str(), line.c_str());
}

// A FAIL is against the device; a case not judged (SKIPPED) is no pass either, and is
// told apart from a FAIL.
int verdict_code(const json& report) {
  int code = 0;
  for (const LosslessCaseReport& c : lossless_report_from_json(report).cases) {
    if (c.outcome.verdict == CaseVerdict::kFail) return ctl::kExitFailed;
    if (c.outcome.verdict != CaseVerdict::kPass) code = ctl::kExitIncomplete;
  }
  return code;
}

}  // namespace

int run_lossless(const BenchOptions& options) {
  const Suite suite{"lossless",
                    "linerate.lossless/1",
                    section_of<&BenchProfile::lossless>,
                    lossless_settings,
                    [](const BenchProfile& p) { return expected_lossless_runs(*p.lossless); },
                    run_lossless_cases,
                    print_verdicts,
                    {ctl::lossless_csv, ctl::lossless_html},
                    verdict_code};
  return run_suite(suite, options);
}

}  // namespace lr::bench
