// `linerate start | stop | report`: traffic on the serving data plane, and the reports of
// runs (the last one the data plane keeps, or a benchmark's views rebuilt from its JSON).

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "control/cli/commands/commands.hpp"
#include "control/client/run_client.hpp"
#include "lib/api/traffic.hpp"
#include "control/cli/last_report.hpp"
#include "control/cli/report_views_command.hpp"
#include "lib/views/report_file.hpp"
#include "lib/views/run_views.hpp"

namespace lr::ctl {

using nlohmann::json;

namespace {

struct TrafficOptions {
  std::vector<std::string> only_streams;
  std::vector<std::string> only_ports;
  std::string report_path;  ///< stop / report --last: also write the report here
  bool last = false;
  ReportViewsOptions views;  ///< report REPORT.json
};

TrafficSelection selection(const TrafficOptions& o) { return {o.only_streams, o.only_ports}; }

// A run's report printed and, asked for, written (the path was checked before anything
// stopped, so a report is never lost to it).
int show_report(const GlobalOptions& global, const TrafficOptions& o, const json& report) {
  print_result(report, global.as_json, views::run_table(api::run_report_from_json(report)));
  if (o.report_path.empty()) return 0;
  if (const std::string failed = views::write_report_file(o.report_path, report.dump(2) + "\n"); !failed.empty()) {
    std::fprintf(stderr, "linerate: writing the report file '%s' failed: %s; `linerate report --last` still "
                 "returns it\n", o.report_path.c_str(), failed.c_str());
    return kExitReportFile;
  }
  return 0;
}

std::string report_path_problem(const TrafficOptions& o) {
  std::string problem = views::report_path_problem(o.report_path);
  if (!problem.empty())
    std::fprintf(stderr, "linerate: cannot write the report file '%s': %s\n", o.report_path.c_str(), problem.c_str());
  return problem;
}

// `linerate stop`: the run ended by traffic.stop, kept for `report --last` too.
int stop_run(const GlobalOptions& global, const TrafficOptions& o) {
  if (!report_path_problem(o).empty()) return kExitReportFile;
  return with_dataplane(global, [&](DataplaneClient& client) {
    const json report = RunClient(client).stop_json();
    keep_last_report(report);
    return show_report(global, o, report);
  });
}

// `linerate report --last`: the later of the serving data plane's last report and the one
// the CLI kept (a one-shot run's data plane is gone with its run).
int last_report(const GlobalOptions& global, const TrafficOptions& o) {
  if (!report_path_problem(o).empty()) return kExitReportFile;
  std::optional<json> served;
  try {
    DataplaneClient client(global.dataplane());
    served = RunClient(client).last_report_json();
  } catch (const ConnectionError&) {
    // No data plane serves: the kept report is the last.
  } catch (const RpcCallError&) {
    // It has ended no run yet.
  }
  const std::optional<json> kept = kept_last_report();
  const auto started = [](const std::optional<json>& r) { return r ? r->value("started_at", "") : std::string(); };
  const std::optional<json>& later = started(served) >= started(kept) && served ? served : kept;
  if (!later) {
    std::fprintf(stderr, "linerate: no run has ended yet (no data plane has one, and none is kept in %s)\n",
                 last_report_path().c_str());
    return kExitRefused;
  }
  return show_report(global, o, *later);
}

}  // namespace

void add_traffic_commands(CLI::App& app, Commands& commands) {
  auto options = std::make_shared<TrafficOptions>();
  auto* start = app.add_subcommand("start", "start traffic (a new run with fresh counters)");
  start->add_option("-s,--stream", options->only_streams, "only this stream (repeatable)");
  start->add_option("-p,--port", options->only_ports, "only the streams sent from this port (repeatable)");
  commands.push_back(command_for(start, [options](const GlobalOptions& global) {
    return with_dataplane(global, [&](DataplaneClient& client) {
      print_result(RunClient(client).start_json(selection(*options)), global.as_json, "traffic started\n");
      return 0;
    });
  }));

  auto* stop = app.add_subcommand("stop", "stop traffic, drain, print the run's report");
  stop->add_option("-r,--report", options->report_path, "also write the JSON report to this file");
  stop->add_option("-s,--stream", options->only_streams, "stop only this stream; the run goes on (repeatable)");
  stop->add_option("-p,--port", options->only_ports, "stop only the streams sent from this port (repeatable)");
  commands.push_back(command_for(stop, [options](const GlobalOptions& global) {
    if (options->only_streams.empty() && options->only_ports.empty()) return stop_run(global, *options);
    return with_dataplane(global, [&](DataplaneClient& client) {
      const json result = RunClient(client).stop_json(selection(*options));
      print_result(result, global.as_json,
                   fmt::format("stopped: {}\n", fmt::join(api::streams_named(result), ", ")));
      return 0;
    });
  }));

  auto* report = app.add_subcommand("report", "the last run's report (--last), or a benchmark's views rebuilt from its "
                                              "report.json");
  auto* last = report->add_flag("--last", options->last,
                                "the last run that ended (the serving data plane's, or the one this CLI kept)");
  auto* report_json = report->add_option("report_json", options->views.report_path,
                                         "a benchmark's report.json: rebuild report.html / results.csv from it")
                          ->check(CLI::ExistingFile)->excludes(last);
  report->add_option("--html", options->views.html_path, "with report_json: write the HTML page here")->needs(report_json);
  report->add_option("--csv", options->views.csv_path, "with report_json: write results.csv here (default: stdout)")
      ->needs(report_json);
  report->add_option("-r,--report", options->report_path, "with --last: also write it to this file")->excludes(report_json);
  commands.push_back(command_for(report, [options](const GlobalOptions& global) {
    if (!options->views.report_path.empty()) return rebuild_report_views(options->views);
    return last_report(global, *options);
  }));
}

}  // namespace lr::ctl
