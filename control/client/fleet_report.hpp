#pragma once
// One report of a run over several data planes: each stream's TX counts from its sender's
// report, what arrived (received, lost, duplicate, order, latency) from its receiver's, the
// loss computed only from both after every one stopped and drained; every data plane's
// ports under the profile's names, its lcores and warnings, and a section per data plane
// (address, node, version, round trip, clock, start). A stream whose receiver went away
// says so (rx_unknown) instead of counting its frames lost.

#include <map>
#include <string>
#include <vector>

#include "control/client/engine_fleet.hpp"

namespace lr::ctl {

/// A data plane as the report describes it: address, node, version, round trip, clock
/// offset from ours and its clock's state (hello).
nlohmann::json engine_section(const FleetEngine& engine);

/// `across`: each stream's latency between data planes where it crosses (EngineFleet::load's).
EndedRun fleet_report(const std::vector<api::StreamSpec>& streams, const std::vector<FleetEngine>& engines,
                      const std::map<std::string, FleetPlacement>& placed,
                      const std::vector<std::optional<LatencyAcross>>& across, int64_t at_utc_ns);

/// While the run goes on: each stream's counts so far, joined as in the report from `live`
/// (each data plane's stats.streams, in the run's order). Latency between two data planes
/// is withheld until the run ends, when its bound is known.
std::vector<api::StreamReport> fleet_stream_stats(const std::vector<api::StreamSpec>& streams,
                                                  const std::vector<FleetEngine>& engines,
                                                  const std::map<std::string, FleetPlacement>& placed,
                                                  const std::vector<std::optional<LatencyAcross>>& across,
                                                  const std::vector<std::vector<api::StreamReport>>& live);

}  // namespace lr::ctl
