// `linerate optics qualify`: modules and cables qualified in loopback; `linerate optics
// history`: a watched port's stored series (`optics watch` is export/'s, added by main.cpp).

#include <memory>

#include "control/cli/commands/commands.hpp"
#include "control/cli/commands/optics_zabbix.hpp"
#include "control/cli/optics_history_command.hpp"
#include "control/cli/suites/qualify_command.hpp"

namespace lr::ctl {

namespace {

void add_optics_history_command(CLI::App& optics, Commands& commands) {
  auto* history = optics.add_subcommand("history",
                                        "a port's series kept by `optics watch`: a table, an SVG chart with "
                                        "the module's thresholds, or what drifted since it was qualified");
  auto options = std::make_shared<OpticsHistoryOptions>();
  history->add_option("port", options->port, "the port (netdev or data plane port) as the watch named it")->required();
  history->add_option("--dir", options->dir, "the watch's --dir")->capture_default_str();
  history->add_option("--rows", options->rows, "the last readings shown (0: all)")->capture_default_str();
  history->add_option("--svg", options->svg_path, "also draw the series as an SVG chart (gnuplot) into this file");
  history
      ->add_option("--since-qualified", options->qualified_report,
                   "a qualification's report.json: each monitor then and now, for the module of the same serial")
      ->check(CLI::ExistingFile);
  commands.push_back(command_for(history, [options](const GlobalOptions& global) {
    options->as_json = global.as_json;
    return run_optics_history(*options);
  }));
}

}  // namespace

void add_optics_commands(CLI::App& app, Commands& commands) {
  auto* optics = app.add_subcommand("optics",
                                    "optical modules and cables: qualification in loopback, watched in "
                                    "service, their history");
  optics->require_subcommand(1);
  auto* qualify = optics->add_subcommand("qualify", "module, link and FEC, then traffic with every counter and monitor "
                                                    "sampled: a verdict per criterion and port (the profile's [qualify])");
  auto options = std::make_shared<optics::QualifyOptions>();
  qualify->add_option("profile", options->profile_path, "profile (TOML) with a [qualify] section")
      ->check(CLI::ExistingFile);
  qualify->add_option("-p,--port", options->ports,
                      "qualify this port (repeatable); without a profile: on the serving data plane, with its streams");
  qualify->add_option("--duration", options->duration, "how long the traffic runs: 'auto' or e.g. '75s' "
                                                       "(overrides [qualify] duration)");
  qualify->add_option("--report-dir", options->report_dir,
                      "where report.json, summary.csv and report.html go (default: qualify-<UTC time>)");
  qualify
      ->add_option("--locations", options->locations_path,
                   "as for run: names for the data planes the profile's locations (NAME;PORT) name (default: "
                   "$LINERATE_LOCATIONS)")
      ->envname("LINERATE_LOCATIONS");
  qualify->add_flag("--adopt-ports", options->adopt_ports, "as for run: use a serving data plane's ports as they are");
  commands.push_back(command_for(qualify, [options](const GlobalOptions& global) {
    options->dataplane = global.dataplane();
    return optics::run_optics_qualify(*options);
  }));
  add_optics_history_command(*optics, commands);
  add_optics_zabbix_command(*optics, commands);
}

}  // namespace lr::ctl
