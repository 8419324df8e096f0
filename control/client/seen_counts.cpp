#include "control/client/seen_counts.hpp"

#include <fmt/format.h>

#include "lib/common/utc_time.hpp"

namespace lr::ctl {

SeenCounts::SeenCounts(Clock::time_point started)
    : started_at_(utc_now_iso8601()), started_(started), seen_at_(started) {}

std::vector<api::PortTraffic> SeenCounts::poll(RunClient& run, Clock::time_point now) {
  nlohmann::json ports = run.port_stats_json();
  std::vector<api::StreamReport> streams = run.stream_stats();
  // Kept together only: streams and ports of one moment add up.
  std::vector<api::PortReport> port_reports;
  for (const nlohmann::json& p : ports) port_reports.push_back(api::port_report_from_json(p));
  streams_ = std::move(streams);
  ports_ = std::move(port_reports);
  seen_at_ = now;
  return port_traffic(ports);
}

EndedRun SeenCounts::cut_short(const std::string& reason) const {
  api::RunReport report;
  report.started_at = started_at_;
  report.duration_s = std::chrono::duration<double>(seen_at_ - started_).count();
  report.interrupted = true;
  report.interrupted_by = reason;
  report.streams = streams_;
  report.ports = ports_;
  report.warnings.push_back(fmt::format(
      "the counts are the last seen, {:.2f} s into the run, not final: frames sent or received after that, and those "
      "in flight (counted as lost here), are not in them; no drain ran",
      report.duration_s));
  nlohmann::json as_json = api::to_json(report);
  return {std::move(as_json), std::move(report)};
}

}  // namespace lr::ctl
