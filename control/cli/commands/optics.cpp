// `linerate optics qualify`: modules and cables qualified in loopback.

#include <memory>

#include "control/cli/commands/commands.hpp"
#include "control/cli/suites/qualify_command.hpp"

namespace lr::ctl {

void add_optics_commands(CLI::App& app, Commands& commands) {
  auto* optics = app.add_subcommand("optics", "optical modules and cables: qualification in loopback");
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
}

}  // namespace lr::ctl
