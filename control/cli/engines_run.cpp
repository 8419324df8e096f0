#include "control/cli/engines_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "control/cli/setup_differences.hpp"
#include "control/client/capture_files.hpp"
#include "control/client/engine_fleet.hpp"
#include "control/client/location_map.hpp"
#include "control/client/run_client.hpp"
#include "control/client/stop_signal.hpp"
#include "control/command/exit_codes.hpp"
#include "lib/api/json_fields.hpp"
#include "lib/api/run_report.hpp"
#include "lib/views/run_views.hpp"

namespace lr::ctl {

using nlohmann::json;

bool has_locations(const profile::Profile& profile) {
  return std::any_of(profile.ports.begin(), profile.ports.end(),
                     [](const api::PortSpec& p) { return !p.location.empty(); });
}

std::unique_ptr<EngineFleet> open_fleet(const profile::Profile& profile, const DataplaneAddress& options,
                                        const std::string& locations_path, const std::string& client_name) {
  for (const api::PortSpec& port : profile.ports)
    if (port.location.empty()) {
      std::fprintf(stderr,
                   "linerate: port '%s' is a device of this host, beside ports of other data planes "
                   "(location): give it a location too (this host's data plane serving --listen)\n",
                   port.name.c_str());
      return nullptr;
    }
  LocationMap names_map;
  if (!locations_path.empty()) {
    auto read = read_location_map(locations_path);
    if (!read) {
      std::fprintf(stderr, "linerate: %s\n", read.error().context.c_str());
      return nullptr;
    }
    names_map = std::move(*read);
  }
  std::string problem;
  std::unique_ptr<EngineFleet> fleet = EngineFleet::open(profile.ports, options, names_map, client_name, problem);
  if (!fleet) {
    std::fprintf(stderr, "linerate: %s\n", problem.c_str());
    return nullptr;
  }
  // A run measures the set-up its profile asks for: the keys its ports set and its
  // switches, each as the data plane that has it serves it.
  std::vector<EngineSetup> setups;
  for (const FleetEngine& engine : fleet->engines()) {
    RunClient run(*engine.client);
    setups.push_back({engine.address, {run.ports(), run.port_specs(), run.switch_specs()}, engine.profile_names});
  }
  if (const auto differences = fleet_setup_differences(profile, setups); !differences.empty()) {
    std::string lines;
    for (const std::string& d : differences) lines += "  " + d + "\n";
    std::fprintf(stderr,
                 "linerate: the profile's ports and switches are not set as its data planes' are:\n%s"
                 "Set them alike: in the profile, or in each data plane's own profile.\n",
                 lines.c_str());
    return nullptr;
  }
  fleet->use_run_settings(profile.run);
  return fleet;
}

namespace {

// A [[capture]] on a port of another data plane: written in that data plane's capture
// directory, read back into the profile's file here when the run ends.
struct FleetCapture {
  PortPlace place;
  uint32_t id = 0;
  api::CaptureSpec spec;  ///< the profile's: its port's name here, its file here
  std::string file_there;  ///< its file's name in the data plane's capture directory
};

std::vector<FleetCapture> start_captures(EngineFleet& fleet, const profile::Profile& profile) {
  std::vector<FleetCapture> started;
  for (const api::CaptureSpec& spec : profile.captures) check_capture_destination(spec.port, spec.file);
  for (const api::CaptureSpec& spec : profile.captures) {
    FleetCapture capture{fleet.place_of(spec.port), 0, spec, remote_capture_name("run", spec.port)};
    api::CaptureSpec there = spec;
    there.port = capture.place.name;
    there.file = capture.file_there;
    capture.id = RunClient(*capture.place.dataplane).start_capture(there).id;
    started.push_back(std::move(capture));
  }
  return started;
}

// Each capture ended, its file brought here, its report in the run's (by the profile's
// names). A data plane gone away keeps its capture's file: said in that capture's error.
void end_captures(std::vector<FleetCapture>& captures, EndedRun& ended) {
  for (FleetCapture& c : captures) {
    api::CaptureReport report;
    report.id = c.id;
    try {
      RunClient run(*c.place.dataplane);
      report = end_capture(run, c.id, c.spec.file, true);
    } catch (const std::exception& e) {  // its data plane went away
      report.error = fmt::format("its file stays in the capture directory of its data plane's host ({}): {}",
                                 c.file_there, e.what());
    }
    report.spec.port = c.spec.port;
    ended.report.captures.push_back(std::move(report));
  }
  if (!captures.empty()) ended.json["captures"] = api::json_array(ended.report.captures);
}

}  // namespace

int run_over_engines(const profile::Profile& profile, const RunOptions& options) {
  const std::unique_ptr<EngineFleet> fleet =
      open_fleet(profile, options.dataplane, options.locations_path, "linerate-run");
  if (!fleet) return 2;
  if (!profile.devices.empty()) fleet->load_devices(profile.devices, options.profile_path);
  fleet->load(profile.streams, options.profile_path, profile.run);
  if (!options.as_json)
    for (size_t e = 0; e < fleet->engines().size(); ++e) {
      const FleetEngine& engine = fleet->engines()[e];
      std::printf("data plane %s (%s, linerate-dataplane %s):\n%s", engine.address.c_str(),
                  engine.hello.value("node", "").c_str(), engine.hello.value("version", "").c_str(),
                  views::plan_text(api::run_plan_from_json(fleet->plan_json(e))).c_str());
    }
  if (options.plan_only) return 0;
  std::fflush(stdout);
  catch_stop_signals();
  EndedRun ended;
  // Before the traffic: a filter a data plane refuses stops here (a capture started ends
  // with this process's session).
  std::vector<FleetCapture> captures = start_captures(*fleet, profile);
  try {
    fleet->start();
    fleet->wait_until_sent(std::chrono::milliseconds(50));
    ended = fleet->stop();
  } catch (const ConnectionError&) {
    ended = fleet->report();  // the others stopped: what they measured, the lost one named
  }
  end_captures(captures, ended);
  const int code = show_report(options, ended);
  // A report file not written first, then a data plane lost (whose captures' errors say so),
  // then a capture whose file is not here.
  return code == kExitReportFile || fleet->lost().empty() ? code : kExitDataplaneLost;
}

}  // namespace lr::ctl
