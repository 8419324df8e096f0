#include "control/bench/rfc2544_command.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <map>

#include "control/bench/rfc2544_procedures.hpp"
#include "control/client/stop_signal.hpp"
#include "control/views/bench_csv.hpp"
#include "control/views/bench_html.hpp"
#include "control/bench/bench_sections.hpp"

namespace lr::bench {

using nlohmann::json;

namespace {

void print_rfc2544_answers(const json& report) {
  const json& settings = report.value("settings", json::object());
  if (const json& results = report.value("throughput", json::array()); !results.empty()) {
    std::printf("\nthroughput (RFC 2544 §26.1, loss tolerance %g %%)\n%10s %12s %14s %14s %14s  %s\n",
                settings.value("loss_tolerance_percent", 0.0), "frame_B", "% of line", "Mpps", "L1 Gbit/s",
                "L2 Gbit/s", "limited by");
    for (const json& r : results) {
      const std::string size = ctl::frame_size_text(r["frame_size"]);
      if (r["percent_line_rate"].is_null()) {
        std::printf("%10s %12s   (%s)\n", size.c_str(), "none", r.value("why", "").c_str());
        continue;
      }
      std::printf("%10s %12.4f %14.6f %14.6f %14.6f  %s\n", size.c_str(), r["percent_line_rate"].get<double>(),
                  r["pps"].get<double>() / 1e6, r["l1_bps"].get<double>() / 1e9, r["l2_bps"].get<double>() / 1e9,
                  r.value("limited_by", "").c_str());
    }
  }
  if (const json& results = report.value("latency", json::array()); !results.empty()) {
    std::printf("\nlatency (RFC 2544 §26.2, all trials, us)\n%10s %8s %10s %10s %10s %10s %10s %10s\n", "frame_B",
                "trials", "min", "mean", "p50", "p99", "p99.9", "max");
    for (const json& r : results) {
      if (!r.contains("across_trials")) {
        std::printf("%10s   (%s)\n", ctl::frame_size_text(r["frame_size"]).c_str(), r.value("why", "").c_str());
        continue;
      }
      const json& a = r["across_trials"];
      std::printf("%10s %8u %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f\n", ctl::frame_size_text(r["frame_size"]).c_str(),
                  r.value("trials", 0u), a.value("min", 0.0) / 1e3, a.value("mean", 0.0) / 1e3,
                  a.value("p50", 0.0) / 1e3, a.value("p99", 0.0) / 1e3, a.value("p999", 0.0) / 1e3,
                  a.value("max", 0.0) / 1e3);
    }
  }
  if (const json& points = report.value("frame_loss", json::array()); !points.empty()) {
    std::printf("\nframe loss rate (RFC 2544 §26.3)\n%10s %12s %14s\n", "frame_B", "offered %", "lost %");
    for (const json& p : points)
      std::printf("%10s %12.4f %14.6f%s\n", ctl::frame_size_text(p["frame_size"]).c_str(), p.value("offered_percent", 0.0),
                  p.value("loss_percent", 0.0), p.value("valid", true) ? "" : "  (tester-limited)");
  }
  if (const json& results = report.value("back_to_back", json::array()); !results.empty()) {
    std::printf("\nback-to-back (RFC 2544 §26.4, RFC 9004)\n%10s %8s %14s %10s %10s %16s %16s\n", "frame_B",
                "searches", "mean frames", "min", "max", "implied buf s", "corrected buf s");
    for (const json& r : results) {
      if (r.value("searches", 0u) == 0) {  // no burst length found: no figures to show as zeros
        std::printf("%10s %8u %14s   (%s)\n", ctl::frame_size_text(r["frame_size"]).c_str(), 0u, "none",
                    r.value("note", "").c_str());
        continue;
      }
      std::printf("%10s %8u %14.1f %10llu %10llu %16.6g %16s  %s\n", ctl::frame_size_text(r["frame_size"]).c_str(),
                  r.value("searches", 0u), r.value("mean_frames", 0.0),
                  static_cast<unsigned long long>(r.value("min_frames", uint64_t{0})),
                  static_cast<unsigned long long>(r.value("max_frames", uint64_t{0})),
                  r.value("implied_buffer_time_s", 0.0),
                  r.contains("corrected_buffer_time_s") ? fmt::format("{:.6g}", r["corrected_buffer_time_s"].get<double>()).c_str() : "-",
                  r.value("note", "").c_str());
    }
  }
}

json rfc2544_settings(const BenchProfile& profile) {
  const bench::Rfc2544Cfg& cfg = *profile.rfc2544;
  json sizes = json::array();
  for (const bench::BenchFrameSize& s : cfg.frame_sizes) sizes.push_back(frame_size_json(s));
  return {{"tests", cfg.tests},
          {"frame_sizes", sizes},
          {"trial_duration_s", static_cast<double>(cfg.trial_duration_ns) / 1e9},
          {"resolution_percent", cfg.resolution_percent},
          {"loss_tolerance_percent", cfg.loss_tolerance_percent},
          {"lower_bound_percent", cfg.lower_bound_percent},
          {"rest_s", static_cast<double>(cfg.rest_ns) / 1e9},
          {"confirmations", cfg.confirmations},
          {"learning_frames", cfg.learning_frames},
          {"warm_up_s", static_cast<double>(cfg.warm_up_ns) / 1e9},
          {"latency_trials", cfg.latency_trials},
          {"frame_loss_step_percent", cfg.frame_loss_step_percent},
          {"back_to_back_trials", cfg.back_to_back_trials},
          {"back_to_back_duration_s", static_cast<double>(cfg.back_to_back_duration_ns) / 1e9}};
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
          session.report()["latency"].push_back(
              {{"frame_size", frame_size_json(size)}, {"why", "no throughput was found at this size"}});
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
                    [](const BenchProfile& p) -> const bench::BenchCfg* { return p.rfc2544 ? &*p.rfc2544 : nullptr; },
                    rfc2544_settings,
                    rfc2544_expected_trials,
                    run_rfc2544_tests,
                    print_rfc2544_answers,
                    {ctl::bench_csv, ctl::bench_html}};
  return run_suite(suite, options);
}

}  // namespace lr::bench
