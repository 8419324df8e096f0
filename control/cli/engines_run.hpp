#pragma once
// `linerate run PROFILE` whose ports are on several data planes (`[[port]] location =
// "ENGINE;PORT"`): one run over all of them, with one report. Every data plane loads every
// stream in the profile's order (the signature's stream id is the place in that order):
// the sender's as it is, the receiver's as receive_only, any other's as a placeholder it
// receives on its first port. All are started at one UTC instant; the report takes each
// stream's TX counts from its sender and what arrived from its receiver, and computes the
// loss only once every data plane has stopped and drained.

#include <memory>
#include <string>

#include "control/cli/run_command.hpp"
#include "control/client/engine_fleet.hpp"
#include "lib/profile/profile.hpp"

namespace lr::ctl {

/// Whether the profile's ports are named by location (then run_over_engines runs it).
bool has_locations(const profile::Profile& profile);

/// The data planes of the profile's locations (names from `locations_path`, when given),
/// connected, each port found; null after saying why (a port without a location, a bad
/// --locations file, a port a data plane lacks, ports or switches not set as the data planes'
/// are: fleet_setup_differences). Throws ConnectionError
/// where a data plane cannot be reached.
std::unique_ptr<EngineFleet> open_fleet(const profile::Profile& profile, const DataplaneAddress& options,
                                        const std::string& locations_path, const std::string& client_name);

/// The run over the data planes the profile's locations name; the exit code (as
/// run_profile's; 2: a port the data plane named does not have, or ports of this host mixed
/// in).
int run_over_engines(const profile::Profile& profile, const RunOptions& options);

}  // namespace lr::ctl
