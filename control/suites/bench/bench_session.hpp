#pragma once
// What every benchmark suite shares around its procedures: the report directory and
// its files (report.json, the truth, rewritten with results.csv after every trial so
// that Ctrl-C or a data plane that goes away never costs a measurement; report.html at
// the end), the trial JSON, and the progress line with an ETA.

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "control/reports/bench_report.hpp"
#include "control/suites/bench/bench_sections.hpp"
#include "control/suites/bench/trial_runner.hpp"

namespace lr::bench {

class BenchSession {
 public:
  /// The views of a report: results.csv and report.html, rebuilt from report.json.
  struct Views {
    std::function<std::string(const nlohmann::json&)> csv;
    std::function<std::string(const nlohmann::json&)> html;
  };

  /// `report_dir` "" : `<suite>-<UTC time>`. Check ok() before any traffic.
  BenchSession(std::string suite, std::string schema, const std::string& profile_path, std::string report_dir,
               Views views);

  /// "" when the directory can hold the report, else why not.
  const std::string& problem() const noexcept { return problem_; }
  const std::string& dir() const noexcept { return dir_; }
  std::string report_path() const;
  nlohmann::json& report() noexcept { return report_; }

  /// Adds the trial to `trials[]` and writes report.json and results.csv.
  void record(const std::string& test, const Trial& trial, bool passed, bool confirmation = false);
  void save();
  /// Marks the end (`finished_at`, `interrupted`) and writes every file, report.html too.
  void finish(bool interrupted);

  /// Progress: about how many trials the whole suite takes, refined as it goes.
  void expect_trials(unsigned total) noexcept { expected_trials_ = total; }
  void add_expected_trials(int delta) noexcept;
  /// The rest between trials, counted in the ETA.
  void set_rest_s(double seconds) noexcept { rest_s_ = seconds; }
  /// One line per trial: what, offered, loss, the verdict and next step, and the ETA.
  void progress(const std::string& what, const Trial& trial, const std::string& verdict);

 private:
  std::string suite_;
  Views views_;
  std::string dir_;
  std::string problem_;
  nlohmann::json report_;
  unsigned expected_trials_ = 0;
  unsigned trials_done_ = 0;
  double trial_wall_total_s_ = 0;
  double rest_s_ = 0;
};

/// A trial as `trials[]` holds it: its row, and the data plane's run report of it.
TrialRow trial_row(const std::string& test, const Trial& trial, bool passed, bool confirmation);
nlohmann::json trial_json(const std::string& test, const Trial& trial, bool passed, bool confirmation);

/// The frame size as reports name it: the number of bytes, or the mix's name ("imix").
FrameSizeName frame_size_name(const bench::BenchFrameSize& size);
nlohmann::json frame_size_json(const bench::BenchFrameSize& size);

/// A latency summary as reports hold it (ns): samples, min, mean, p50, p99, p999, max, jitter.
LatencyNs latency_of(const LatencyStats& stats);
nlohmann::json latency_json(const LatencyStats& stats);

/// "1h02m", "3m20s", "45s".
std::string duration_text(double seconds);

}  // namespace lr::bench
