#include "control/cli/suites/rfc2544_command.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <map>

#include "control/suites/bench/rfc2544_procedures.hpp"
#include "control/client/stop_signal.hpp"
#include "control/views/bench_csv.hpp"
#include "control/views/bench_html.hpp"
#include "control/reports/bench_report.hpp"
#include "control/suites/bench/bench_sections.hpp"
#include "lib/api/json_fields.hpp"

namespace lr::bench {

using nlohmann::json;

namespace {

void print_rfc2544_answers(const json& json_report) {
  const BenchReport report = bench_report_from_json(json_report);
  if (!report.throughput.empty()) {
    std::printf("\nthroughput (RFC 2544 §26.1, loss tolerance %g %%)\n%10s %12s %14s %14s %14s  %s\n",
                report.loss_tolerance_percent, "frame_B", "% of line", "Mpps", "L1 Gbit/s", "L2 Gbit/s", "limited by");
    for (const RateAnswer& r : report.throughput) {
      if (!r.percent_line_rate) {
        std::printf("%10s %12s   (%s)\n", r.frame_size.text.c_str(), "none", r.why.value_or("").c_str());
        continue;
      }
      std::printf("%10s %12.4f %14.6f %14.6f %14.6f  %s\n", r.frame_size.text.c_str(), *r.percent_line_rate,
                  r.pps.value_or(0) / 1e6, r.l1_bps.value_or(0) / 1e9, r.l2_bps.value_or(0) / 1e9, r.limited_by.value_or("").c_str());
    }
  }
  if (!report.latency.empty()) {
    std::printf("\nlatency (RFC 2544 §26.2, all trials, us)\n%10s %8s %10s %10s %10s %10s %10s %10s\n", "frame_B",
                "trials", "min", "mean", "p50", "p99", "p99.9", "max");
    for (const LatencyAnswer& r : report.latency) {
      if (!r.across_trials) {
        std::printf("%10s   (%s)\n", r.frame_size.text.c_str(), r.why.c_str());
        continue;
      }
      const LatencyNs& a = *r.across_trials;
      std::printf("%10s %8llu %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f\n", r.frame_size.text.c_str(),
                  static_cast<unsigned long long>(r.trials), a.min / 1e3, a.mean / 1e3, a.p50 / 1e3, a.p99 / 1e3,
                  a.p999 / 1e3, a.max / 1e3);
    }
  }
  if (!report.frame_loss.empty()) {
    std::printf("\nframe loss rate (RFC 2544 §26.3)\n%10s %12s %14s\n", "frame_B", "offered %", "lost %");
    for (const FrameLossPoint& p : report.frame_loss)
      std::printf("%10s %12.4f %14.6f%s\n", p.frame_size.text.c_str(), p.offered_percent, p.loss_percent,
                  p.valid ? "" : "  (tester-limited)");
  }
  if (!report.back_to_back.empty()) {
    std::printf("\nback-to-back (RFC 2544 §26.4, RFC 9004)\n%10s %8s %14s %10s %10s %16s %16s\n", "frame_B",
                "searches", "mean frames", "min", "max", "implied buf s", "corrected buf s");
    for (const BackToBackAnswer& r : report.back_to_back) {
      if (r.searches == 0) {  // no burst length found: no figures to show as zeros
        std::printf("%10s %8u %14s   (%s)\n", r.frame_size.text.c_str(), 0u, "none", r.note.value_or("").c_str());
        continue;
      }
      std::printf("%10s %8llu %14.1f %10llu %10llu %16.6g %16s  %s\n", r.frame_size.text.c_str(),
                  static_cast<unsigned long long>(r.searches), r.mean_frames.value_or(0),
                  static_cast<unsigned long long>(r.min_frames.value_or(0)),
                  static_cast<unsigned long long>(r.max_frames.value_or(0)), r.implied_buffer_time_s.value_or(0),
                  r.corrected_buffer_time_s ? fmt::format("{:.6g}", *r.corrected_buffer_time_s).c_str() : "-",
                  r.note.value_or("").c_str());
    }
  }
}

json rfc2544_settings(const BenchProfile& profile) {
  const bench::Rfc2544Cfg& cfg = *profile.rfc2544;
  json sizes = json::array();
  for (const bench::BenchFrameSize& s : cfg.frame_sizes) sizes.push_back(frame_size_json(s));
  json out = api::write_fields(cfg, LR_JSON_FIELDS(tests, resolution_percent, loss_tolerance_percent, lower_bound_percent,
                                                   confirmations, learning_frames, latency_trials,
                                                   frame_loss_step_percent, back_to_back_trials));
  out["frame_sizes"] = std::move(sizes);
  out["trial_duration_s"] = static_cast<double>(cfg.trial_duration_ns) / 1e9;
  out["rest_s"] = static_cast<double>(cfg.rest_ns) / 1e9;
  out["warm_up_s"] = static_cast<double>(cfg.warm_up_ns) / 1e9;
  out["back_to_back_duration_s"] = static_cast<double>(cfg.back_to_back_duration_ns) / 1e9;
  return out;
}

unsigned rfc2544_expected_trials(const BenchProfile& profile) {
  const bench::Rfc2544Cfg& cfg = *profile.rfc2544;
  unsigned per_size = 0;
  if (cfg.runs("throughput")) per_size += expected_throughput_trials(cfg);
  if (cfg.runs("latency")) per_size += cfg.latency_trials;
  if (cfg.runs("frame_loss")) per_size += expected_frame_loss_trials(cfg.frame_loss_step_percent);
  if (cfg.runs("back_to_back")) per_size += expected_back_to_back_trials(cfg);
  return per_size * static_cast<unsigned>(cfg.frame_sizes.size());
}

// Test by test, each over every frame size (RFC 2544 §26 orders them so), latency at
// the throughput each size reached.
void run_rfc2544_tests(const BenchProfile& profile, TrialRunner& runner, BenchSession& session) {
  const bench::Rfc2544Cfg& cfg = *profile.rfc2544;
  Procedure procedure{runner, session, cfg};
  std::map<std::string, ThroughputFound> throughput;
  for (const char* test : {"throughput", "latency", "frame_loss", "back_to_back"}) {
    if (!cfg.runs(test)) continue;
    session.report()[test] = json::array();
    for (const bench::BenchFrameSize& size : cfg.frame_sizes) {
      if (ctl::stop_requested()) return;
      const std::string t = test;
      const auto found = throughput.find(size.name);
      if (t == "throughput") {
        if (const auto rate = run_throughput(procedure, size)) throughput[size.name] = *rate;
      } else if (t == "latency") {
        if (found == throughput.end()) {
          LatencyAnswer none;
          none.frame_size = frame_size_name(size);
          none.why = "no throughput was found at this size";
          session.report()["latency"].push_back(to_json(none));
          session.add_expected_trials(-static_cast<int>(cfg.latency_trials));
          continue;
        }
        run_latency(procedure, size, found->second.rate_percent, cfg.latency_trials);
      } else if (t == "frame_loss") {
        run_frame_loss(procedure, size, cfg.frame_loss_step_percent);
      } else {
        run_back_to_back(procedure, size, cfg.back_to_back_trials, cfg.back_to_back_duration_ns,
                         found == throughput.end() ? std::nullopt : std::optional<double>(found->second.offered_percent));
      }
    }
  }
}

}  // namespace

int run_rfc2544(const BenchOptions& options) {
  const Suite suite{"rfc2544",
                    "linerate.rfc2544/1",
                    section_of<&BenchProfile::rfc2544>,
                    rfc2544_settings,
                    rfc2544_expected_trials,
                    run_rfc2544_tests,
                    print_rfc2544_answers,
                    {ctl::bench_csv, ctl::bench_html}};
  return run_suite(suite, options);
}

}  // namespace lr::bench
