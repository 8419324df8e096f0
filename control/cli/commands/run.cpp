// `linerate run PROFILE`.

#include <memory>

#include "control/cli/commands/commands.hpp"
#include "control/cli/run_command.hpp"

namespace lr::ctl {

void add_run_command(CLI::App& app, Commands& commands) {
  auto* run = app.add_subcommand("run", "run a profile: uses the serving data plane, or starts one for the run");
  auto options = std::make_shared<RunOptions>();
  run->add_option("profile", options->profile_path, "profile (TOML); see config/README.md")->required();
  run->add_option("-r,--report", options->report_path, "write the JSON report to this file");
  run->add_flag("-q,--quiet", [options](int64_t) { options->live = false; }, "no live lines");
  run->add_flag("--adopt-ports", options->adopt_ports,
                "with a serving data plane whose ports differ from the profile's: run on its ports, saying how they differ");
  run->add_flag("--plan-only", options->plan_only, "print the plan (ports, queues, lcores, rates) and run nothing");
  run->add_option("--locations", options->locations_path,
                  "JSON list of {\"location\": NAME, \"endpoint\": \"HOST:PORT\"}: names for the data planes a "
                  "profile's locations (NAME;PORT) name (default: $LINERATE_LOCATIONS)")
      ->envname("LINERATE_LOCATIONS");
  commands.push_back(command_for(run, [options](const GlobalOptions& global) {
    options->dataplane = global.dataplane();
    options->as_json = global.as_json;
    return run_profile(*options);
  }));
}

}  // namespace lr::ctl
