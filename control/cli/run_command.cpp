#include "control/cli/run_command.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>

#include "control/cli/engines_run.hpp"
#include "control/cli/last_report.hpp"
#include "control/cli/profile_dataplane.hpp"
#include "control/cli/profile_file.hpp"
#include "control/cli/tables.hpp"
#include "control/client/capture_files.hpp"
#include "control/client/dataplane_client.hpp"
#include "control/client/run_client.hpp"
#include "control/client/seen_counts.hpp"
#include "control/client/stop_signal.hpp"
#include "control/command/exit_codes.hpp"
#include "lib/api/json_fields.hpp"
#include "lib/views/report_file.hpp"
#include "lib/views/run_views.hpp"

namespace lr::ctl {

using nlohmann::json;

namespace {

// How often the run's counts are read while it runs: what a run cut short by its data
// plane going away reports is at most this old (two cheap calls, stats.streams and
// stats.ports, four times a second).
constexpr std::chrono::milliseconds kSeenEvery{250};

// The profile's captures, then the run until every stream has sent all (or a stop
// request), a live line a second with --live; the run ended, its captures' files complete.
// `seen` keeps the counts last read, for a report when the data plane goes away (a
// ConnectionError out of here); it is set once the traffic started. A data plane on another
// host (`remote`) writes the captures in its capture directory: each is read back into the
// profile's file here once it ended.
EndedRun run_with_captures(RunClient& run, const profile::Profile& profile, const RunOptions& options,
                           std::optional<SeenCounts>& seen, bool remote) {
  // The profile's captures before the traffic: a filter or a file they refuse stops here.
  std::vector<uint32_t> captures;
  if (remote)
    for (const api::CaptureSpec& spec : profile.captures) check_capture_destination(spec.port, spec.file);
  for (api::CaptureSpec spec : profile.captures) {
    if (remote) spec.file = remote_capture_name("run", spec.port);
    captures.push_back(run.start_capture(spec).id);
  }
  run.start();
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  seen.emplace(t0);
  auto last = t0;
  std::vector<api::PortTraffic> previous = seen->poll(run, t0);
  run.wait_until_sent(std::chrono::milliseconds(50), [&] {
    const auto now = clock::now();
    if (now - seen->seen_at() < kSeenEvery) return;
    std::vector<api::PortTraffic> current = seen->poll(run, now);
    if (!options.live || options.as_json || now - last < std::chrono::seconds(1)) return;
    std::printf("%s\n", views::live_line(std::chrono::duration<double>(now - t0).count(), previous, current,
                                         std::chrono::duration<double>(now - last).count())
                            .c_str());
    std::fflush(stdout);
    previous = std::move(current);
    last = now;
  });
  EndedRun ended = run.stop();
  // Their files complete before the report says what is in them.
  for (size_t i = 0; i < captures.size(); ++i) {
    const uint32_t id = captures[i];
    std::optional<api::CaptureReport> final_report;  // each capture ended, listed in the report or not
    std::string lost;
    try {
      final_report = end_capture(run, id, profile.captures[i].file, remote);
    } catch (const ConnectionError& e) {  // the run ended: its report stands, this capture's end is unknown
      lost = fmt::format("the data plane went away before the capture ended: {}", e.what());
    }
    for (api::CaptureReport& listed : ended.report.captures) {
      if (listed.id != id) continue;
      if (final_report) listed = *final_report;
      else listed.error = lost;
    }
  }
  if (!captures.empty()) ended.json["captures"] = api::json_array(ended.report.captures);
  return ended;
}

}  // namespace

// The run's report printed, kept for `report --last` and written where asked; the exit code.
int show_report(const RunOptions& options, EndedRun& ended) {
  ended.report.interrupted = stop_requested() || ended.report.interrupted_by.has_value();
  ended.report.profile_path = options.profile_path;
  json& report = ended.json;
  report["interrupted"] = ended.report.interrupted;
  report["profile"] = options.profile_path;
  int code = 0;
  if (options.as_json) std::printf("%s\n", report.dump(2).c_str());
  else std::printf("\n%s", views::run_table(ended.report).c_str());
  if (ended.report.interrupted_by && !options.as_json)
    std::printf("(interrupted: %s; the counts are the last seen, %.2f s into the run, not final)\n",
                ended.report.interrupted_by->c_str(), ended.report.duration_s);
  else if (ended.report.interrupted && !options.as_json)
    std::printf("(interrupted: traffic stopped early, results cover what ran)\n");
  // Kept where `linerate report --last` finds it, whatever else is asked.
  const bool kept = keep_last_report(report);
  if (!options.report_path.empty()) {
    if (const std::string failed = views::write_report_file(options.report_path, report.dump(2) + "\n"); !failed.empty()) {
      if (!options.as_json) std::printf("%s\n", report.dump(2).c_str());  // the results are not lost
      std::fprintf(stderr, "linerate: writing the report file '%s' failed: %s; the report is on stdout\n",
                   options.report_path.c_str(), failed.c_str());
      code = 4;
    } else if (!options.as_json) {
      std::printf("report: %s\n", options.report_path.c_str());
    }
  } else if (kept && !options.as_json) {
    std::printf("report: %s\n", last_report_path().c_str());
  }
  // A capture the run asked for whose file is not where the profile said: not a run done.
  for (const api::CaptureReport& c : ended.report.captures) {
    if (c.error.empty()) continue;
    std::fprintf(stderr, "linerate: the capture on %s: %s\n", c.spec.port.c_str(), c.error.c_str());
    if (code == 0) code = kExitRefused;
  }
  return code;
}

int run_profile(const RunOptions& options) {
  std::ifstream file(options.profile_path);
  if (!file) {
    std::fprintf(stderr, "linerate: cannot read the profile %s: %s\n", options.profile_path.c_str(), std::strerror(errno));
    return 2;
  }
  const std::optional<profile::Profile> read = read_profile(options.profile_path);
  if (!read) return 2;
  const profile::Profile& profile = *read;
  // Before any traffic: a run must not end in "cannot write".
  if (const std::string problem = views::report_path_problem(options.report_path); !problem.empty()) {
    std::fprintf(stderr, "linerate: cannot write the report file '%s': %s\n", options.report_path.c_str(),
                 problem.c_str());
    return 4;
  }
  if (has_locations(profile)) return run_over_engines(profile, options);
  std::unique_ptr<ProfileDataplane> dataplane;
  if (const int code =
          ProfileDataplane::open(profile, options.profile_path, options.dataplane, options.adopt_ports, dataplane);
      code != 0)
    return code;
  RunClient run(dataplane->client());
  // A serving data plane takes this profile's streams and run settings (drain, timeline)
  // in place of its own (its emulated hosts, ProfileDataplane::open loaded). One started
  // for the profile starts its hosts and streams from the file.
  if (!dataplane->spawned()) run.load(profile.streams, options.profile_path, profile.run);

  // The plan, as the one-shot data plane prints it: in every mode, from the data plane
  // that runs it.
  const json plan = run.plan_json();
  if (options.plan_only) {
    if (options.as_json) std::printf("%s\n", plan.dump(2).c_str());
    else std::printf("%s", views::plan_text(api::run_plan_from_json(plan)).c_str());
    return 0;
  }
  if (!options.as_json) std::printf("%s", views::plan_text(api::run_plan_from_json(plan)).c_str());
  std::fflush(stdout);

  catch_stop_signals();
  std::optional<SeenCounts> seen;
  try {
    EndedRun ended = run_with_captures(run, profile, options, seen, !dataplane->client().address().engine.empty());
    return show_report(options, ended);
  } catch (const ConnectionError& e) {
    if (!seen) throw;  // no traffic ran: nothing to report (exit 3, as before the run)
    // Its own report went with it: what the polls saw is reported, marked as such.
    std::fprintf(stderr, "linerate: the data plane went away mid-run (%s); the report holds the counts last seen\n",
                 e.what());
    EndedRun cut = seen->cut_short(fmt::format("the data plane went away: {}", e.what()));
    const int code = show_report(options, cut);
    return code != 0 ? code : kExitDataplaneLost;
  }
}

}  // namespace lr::ctl
