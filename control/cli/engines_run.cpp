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

#include "control/client/engine_fleet.hpp"
#include "control/client/location_map.hpp"
#include "control/client/run_client.hpp"
#include "control/client/stop_signal.hpp"
#include "control/command/exit_codes.hpp"
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
  if (!profile.switches.empty() || !profile.captures.empty()) {
    std::fprintf(stderr,
                 "linerate: switches and captures are not run over several data planes yet: run them on each "
                 "data plane's own profile\n");
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
  if (!fleet) std::fprintf(stderr, "linerate: %s\n", problem.c_str());
  return fleet;
}

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
  try {
    fleet->start();
    fleet->wait_until_sent(std::chrono::milliseconds(50));
    ended = fleet->stop();
  } catch (const ConnectionError&) {
    ended = fleet->report();  // the others stopped: what they measured, the lost one named
  }
  const int code = show_report(options, ended);
  return code != 0 ? code : !fleet->lost().empty() ? kExitDataplaneLost : 0;
}

}  // namespace lr::ctl
