#include "control/bench/rfc2544_command.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "control/bench/throughput_search.hpp"
#include "control/bench/trial_runner.hpp"
#include "control/cli/profile_dataplane.hpp"
#include "control/cli/profile_file.hpp"
#include "control/cli/stop_signal.hpp"
#include "control/views/report_file.hpp"

namespace lr::bench {

using nlohmann::json;

namespace {

constexpr const char* kSchema = "linerate.rfc2544/1";

std::string utc_now() {
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::time(nullptr)));
}

json trial_json(const Trial& t, bool passed, bool confirmation) {
  return json{{"frame_size", t.spec.frame_size},
              {"rate_percent", t.spec.percent},
              {"offered_percent", t.result.offered_percent},
              {"offered_pps", t.offered_pps},
              {"tx_packets", t.tx_packets},
              {"rx_packets", t.rx_packets},
              {"lost", t.lost},
              {"loss_percent", 100.0 * t.result.loss_ratio},
              {"passed", passed},
              {"confirmation", confirmation},
              {"valid", t.result.valid},
              {"invalid_reason", t.invalid_reason},
              {"interrupted", t.interrupted},
              {"report", t.report}};
}

}  // namespace

int run_rfc2544(const BenchOptions& options) {
  const std::optional<profile::Profile> read = ctl::read_profile(options.profile_path);
  if (!read) return 2;
  if (!read->rfc2544) {
    std::fprintf(stderr, "linerate: %s has no [rfc2544] section (config/README.md lists its keys)\n",
                 options.profile_path.c_str());
    return 2;
  }
  const profile::Rfc2544Cfg& cfg = *read->rfc2544;
  std::ifstream file(options.profile_path);
  std::stringstream text;
  text << file.rdbuf();

  const std::string dir = options.report_dir.empty()
                              ? fmt::format("rfc2544-{:%Y%m%dT%H%M%SZ}", fmt::gmtime(std::time(nullptr)))
                              : options.report_dir;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string report_path = (std::filesystem::path(dir) / "report.json").string();
  if (const std::string problem = ctl::report_path_problem(report_path); !problem.empty() || ec) {
    std::fprintf(stderr, "linerate: cannot write the report directory '%s': %s\n", dir.c_str(),
                 ec ? ec.message().c_str() : problem.c_str());
    return 4;
  }

  std::unique_ptr<ctl::ProfileDataplane> dataplane;
  if (const int code = ctl::ProfileDataplane::open(*read, options.profile_path, options.socket, options.adopt_ports,
                                                   dataplane);
      code != 0)
    return code;
  ctl::catch_stop_signals();
  TrialRunner runner(dataplane->client(), text.str(), options.profile_path);

  json report{{"schema", kSchema},
              {"profile", options.profile_path},
              {"started_at", utc_now()},
              {"settings",
               {{"tests", cfg.tests},
                {"frame_sizes", cfg.frame_sizes},
                {"trial_duration_s", static_cast<double>(cfg.trial_duration_ns) / 1e9},
                {"resolution_percent", cfg.resolution_percent},
                {"loss_tolerance_percent", cfg.loss_tolerance_percent},
                {"lower_bound_percent", cfg.lower_bound_percent},
                {"rest_s", static_cast<double>(cfg.rest_ns) / 1e9},
                {"confirmations", cfg.confirmations},
                {"drain_s", static_cast<double>(read->run.drain_ns) / 1e9}}},
              {"throughput", json::array()},
              {"trials", json::array()},
              {"interrupted", false}};
  const auto save = [&] {
    if (const std::string failed = ctl::write_report_file(report_path, report.dump(2) + "\n"); !failed.empty())
      std::fprintf(stderr, "linerate: writing '%s' failed: %s\n", report_path.c_str(), failed.c_str());
  };

  int code = 0;
  try {
    for (uint16_t size : cfg.frame_sizes) {
      ThroughputSearch search({cfg.lower_bound_percent, 100.0, cfg.resolution_percent,
                               cfg.loss_tolerance_percent / 100.0, cfg.confirmations});
      std::optional<Trial> best;
      for (unsigned k = 1; search.next() && !ctl::stop_requested(); ++k) {
        const double rate = *search.next();
        const size_t before = search.steps().size();
        Trial trial = runner.run({size, rate, cfg.trial_duration_ns});
        if (trial.interrupted) {
          report["trials"].push_back(trial_json(trial, false, false));
          break;
        }
        search.record(trial.result);
        const auto& step = search.steps().back();
        const bool passed = search.steps().size() > before && step.passed;
        if (passed && (!best || rate >= best->spec.percent)) best = trial;
        report["trials"].push_back(trial_json(trial, passed, step.confirmation));
        save();
        std::printf("%5u B  trial %2u  offered %8.4f %% (%.6f Mpps)  loss %.6f %%  %s%s\n", size, k,
                    trial.result.offered_percent, trial.offered_pps / 1e6, 100.0 * trial.result.loss_ratio,
                    !trial.result.valid ? "invalid: " : passed ? "pass" : "fail",
                    !trial.result.valid ? trial.invalid_reason.c_str()
                    : search.next()     ? fmt::format(" -> next {:.4f} %", *search.next()).c_str()
                                        : " -> done");
        std::fflush(stdout);
        if (search.next()) ctl::sleep_unless_stopped(static_cast<double>(cfg.rest_ns) / 1e9);
      }
      if (ctl::stop_requested()) break;
      json result{{"frame_size", size}, {"trials", search.steps().size()}, {"tester_limited_at_percent", search.tester_limited()}};
      if (const auto found = search.result(); found && best) {
        // Above the answer, did the device lose frames, or could the tester not offer more?
        const bool tester = std::any_of(search.tester_limited().begin(), search.tester_limited().end(),
                                        [&](double rate) { return rate > *found; });
        result["limited_by"] = tester ? "tester" : *found >= 100.0 ? "line rate" : "device";
        result["percent_line_rate"] = *found;
        result["pps"] = best->offered_pps;
        result["l1_bps"] = best->offered_l1_bps;
        result["l2_bps"] = best->offered_pps * size * 8.0;
      } else {
        result["percent_line_rate"] = nullptr;
        result["why"] = "frames were lost even at the lower bound";
      }
      report["throughput"].push_back(result);
      save();
    }
  } catch (const std::exception& error) {
    // A data plane that refuses or disappears ends the suite with what was measured.
    std::fprintf(stderr, "linerate: the benchmark stopped: %s\n", error.what());
    code = 1;
  }
  report["interrupted"] = ctl::stop_requested();
  report["finished_at"] = utc_now();
  save();

  std::printf("\nthroughput (RFC 2544 §26.1, loss tolerance %g %%)\n%10s %12s %14s %14s %14s  %s\n",
              cfg.loss_tolerance_percent, "frame_B", "% of line", "Mpps", "L1 Gbit/s", "L2 Gbit/s", "limited by");
  for (const json& r : report["throughput"]) {
    if (r["percent_line_rate"].is_null()) {
      std::printf("%10u %12s   (%s)\n", r.value("frame_size", 0u), "none", r.value("why", "").c_str());
      continue;
    }
    std::printf("%10u %12.4f %14.6f %14.6f %14.6f  %s\n", r.value("frame_size", 0u), r["percent_line_rate"].get<double>(),
                r["pps"].get<double>() / 1e6, r["l1_bps"].get<double>() / 1e9, r["l2_bps"].get<double>() / 1e9,
                r.value("limited_by", "").c_str());
  }
  if (report["interrupted"].get<bool>()) std::printf("(interrupted: the report holds every trial that finished)\n");
  std::printf("report: %s\n", report_path.c_str());
  return code;
}

}  // namespace lr::bench
