#include "control/suites/bench/bench_session.hpp"
#include "control/suites/bench/bench_sections.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>

#include "lib/common/utc_time.hpp"
#include "lib/views/report_file.hpp"

namespace lr::bench {

using nlohmann::json;

namespace {

void write(const std::string& path, const std::string& text) {
  if (const std::string failed = views::write_report_file(path, text); !failed.empty())
    std::fprintf(stderr, "linerate: writing '%s' failed: %s\n", path.c_str(), failed.c_str());
}

}  // namespace

LatencyNs latency_of(const LatencyStats& s) {
  return {s.samples, s.min_ns, s.mean_ns, s.p50_ns, s.p99_ns, s.p999_ns, s.max_ns, s.jitter_ns};
}

json latency_json(const LatencyStats& s) { return to_json(latency_of(s)); }

std::string duration_text(double seconds) {
  const auto s = static_cast<long>(std::lround(std::max(0.0, seconds)));
  if (s >= 3600) return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
  if (s >= 60) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}

FrameSizeName frame_size_name(const bench::BenchFrameSize& size) {
  return {size.is_mix() ? size.name : std::to_string(size.sizes.front())};
}

json frame_size_json(const bench::BenchFrameSize& size) {
  if (size.is_mix()) return size.name;
  return size.sizes.front();
}

TrialRow trial_row(const std::string& test, const Trial& t, bool passed, bool confirmation) {
  TrialRow row;
  row.test = test;
  row.frame_size = frame_size_name(t.spec.frame);
  row.frame_bytes_mean = t.spec.frame.mean();
  row.rate_percent = t.spec.percent;
  row.offered_percent = t.result.offered_percent;
  row.offered_pps = t.offered_pps;
  row.offered_l1_bps = t.offered_l1_bps;
  row.tx_packets = t.tx_packets;
  row.rx_packets = t.rx_packets;
  row.lost = t.lost;
  row.loss_percent = 100.0 * t.result.loss_ratio;
  row.latency_ns = latency_of(t.latency.stats);
  row.passed = passed;
  row.confirmation = confirmation;
  row.valid = t.result.valid;
  row.invalid_reason = t.invalid_reason;
  row.lost_though_sent_short = t.result.lost_anyway;  // counted as the device's loss
  row.interrupted = t.interrupted;
  if (t.spec.burst_frames > 0) row.burst_frames = t.spec.burst_frames;
  else row.duration_s = static_cast<double>(t.spec.duration_ns) / 1e9;
  if (t.spec.warm_up_ns > 0 && t.spec.burst_frames == 0) row.warm_up_s = static_cast<double>(t.spec.warm_up_ns) / 1e9;
  return row;
}

json trial_json(const std::string& test, const Trial& t, bool passed, bool confirmation) {
  json out = to_json(trial_row(test, t, passed, confirmation));
  // The data plane's own run report, as it sent it (its codec is lib/api's; the views do not read it).
  out["report"] = t.report;
  return out;
}

BenchSession::BenchSession(std::string suite, std::string schema, const std::string& profile_path, std::string report_dir,
                           Views views)
    : suite_(std::move(suite)), views_(std::move(views)), dir_(std::move(report_dir)) {
  if (dir_.empty()) dir_ = fmt::format("{}-{:%Y%m%dT%H%M%SZ}", suite_, fmt::gmtime(std::time(nullptr)));
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  problem_ = ec ? ec.message() : views::report_path_problem(report_path());
  report_ = {{"schema", schema},      {"suite", suite_},       {"profile", profile_path},
             {"started_at", utc_now_iso8601()}, {"interrupted", false}, {"trials", json::array()}};
}

std::string BenchSession::report_path() const { return (std::filesystem::path(dir_) / "report.json").string(); }

void BenchSession::record(const std::string& test, const Trial& trial, bool passed, bool confirmation) {
  report_["trials"].push_back(trial_json(test, trial, passed, confirmation));
  ++trials_done_;
  trial_wall_total_s_ += trial.wall_s;
  save();
}

void BenchSession::save() {
  write(report_path(), report_.dump(2) + "\n");
  try {
    write((std::filesystem::path(dir_) / "results.csv").string(), views_.csv(report_));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "linerate: results.csv not written: %s\n", error.what());
  }
}

void BenchSession::finish(bool interrupted) {
  report_["interrupted"] = interrupted;
  report_["finished_at"] = utc_now_iso8601();
  save();
  // The page is a view: a report it cannot show (a value of an unexpected type) costs
  // the page, never report.json.
  try {
    write((std::filesystem::path(dir_) / "report.html").string(), views_.html(report_));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "linerate: report.html not written: %s\n", error.what());
  }
}

void BenchSession::add_expected_trials(int delta) noexcept {
  expected_trials_ = static_cast<unsigned>(std::max(0, static_cast<int>(expected_trials_) + delta));
}

void BenchSession::progress(const std::string& what, const Trial& trial, const std::string& verdict) {
  expected_trials_ = std::max(expected_trials_, trials_done_);
  // Rest and overheads included: the mean wall time of the trials so far.
  const double per_trial = trials_done_ == 0 ? 0 : trial_wall_total_s_ / trials_done_ + rest_s_;
  std::printf("%s  trial %2u of ~%u  offered %8.4f %% (%.6f Mpps)  loss %.6f %%  %s  ETA %s\n", what.c_str(),
              trials_done_, expected_trials_, trial.result.offered_percent, trial.offered_pps / 1e6,
              100.0 * trial.result.loss_ratio, verdict.c_str(),
              duration_text(per_trial * (expected_trials_ - trials_done_)).c_str());
  std::fflush(stdout);
}

}  // namespace lr::bench
