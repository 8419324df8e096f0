#pragma once
// A run's counts as its polls last saw them, for the report of a run its data plane did
// not end: one that went away mid-run (killed, crashed, restarted) takes the run's own
// report with it, and what the polls saw is then all there is. `linerate run` keeps one.

#include <chrono>
#include <string>
#include <vector>

#include "control/client/run_client.hpp"
#include "lib/api/run_report.hpp"

namespace lr::ctl {

class SeenCounts {
 public:
  using Clock = std::chrono::steady_clock;

  /// A run whose traffic started at `started` (now, and in UTC for started_at).
  explicit SeenCounts(Clock::time_point started = Clock::now());

  /// Reads every stream's and port's counts (stats.streams, stats.ports) as of `now`.
  /// Throws ConnectionError or RpcCallError, what was seen before staying as it was.
  /// Returns what linerate sent and received per port (the live line's).
  std::vector<api::PortTraffic> poll(RunClient& run, Clock::time_point now = Clock::now());
  /// When the counts kept were read (the start before the first poll).
  Clock::time_point seen_at() const noexcept { return seen_at_; }

  /// The report of a run cut short by `reason`: the counts last seen, over the time from
  /// the start to that poll, marked interrupted with the reason and a warning that they
  /// are not final. As a run's report, JSON and struct.
  EndedRun cut_short(const std::string& reason) const;

 private:
  std::string started_at_;  ///< ISO 8601, UTC
  Clock::time_point started_;
  Clock::time_point seen_at_;
  std::vector<api::StreamReport> streams_;
  std::vector<api::PortReport> ports_;
};

}  // namespace lr::ctl
