#pragma once
// How a profile's ports and software switches differ from those of the data plane it is
// about to run on: a serving data plane keeps its own (it was started with another
// profile, or none), and a profile run there with other PFC, pause, FEC or buffer
// settings would measure a set-up it did not ask for. One line per difference.

#include <map>
#include <string>
#include <vector>

#include "lib/api/port_spec.hpp"
#include "lib/api/run_report.hpp"
#include "lib/api/switch_spec.hpp"
#include "lib/profile/profile.hpp"

namespace lr::ctl {

/// What the serving data plane says of its set-up: port.list (identity, speed, and each
/// port's spec) and switch.list.
struct ServedSetup {
  std::vector<api::PortReport> ports;
  std::vector<api::PortSpec> port_specs;      ///< empty from a data plane that sends none
  std::vector<api::SwitchSpec> switches;
};

/// Every difference, "port 'p0': pfc_honour is true in the profile, false in the data
/// plane"; empty when the profile's ports and switches are the data plane's. Ports and
/// switches of the data plane that the profile does not name are not differences, but
/// a switch between the profile's ports is.
std::vector<std::string> setup_differences(const profile::Profile& profile, const ServedSetup& served);

/// One data plane of a run over several (ports by location): what it serves.
struct EngineSetup {
  std::string address;                       ///< HOST:PORT
  ServedSetup served;
  std::map<std::string, std::string> ports;  ///< its port names -> the profile's, for the profile's ports it holds
};

/// The differences of a profile whose ports are by location, each line naming its data
/// plane: the keys a located [[port]] sets (those other than a port's defaults; the rest are
/// its data plane's) against its port there; each [[switch]] against the one data plane
/// that runs a switch of that name (none, or more than one, is a difference too); and a
/// switch of these data planes between the run's ports that the profile has no [[switch]] for.
std::vector<std::string> fleet_setup_differences(const profile::Profile& profile,
                                                 const std::vector<EngineSetup>& engines);

}  // namespace lr::ctl
