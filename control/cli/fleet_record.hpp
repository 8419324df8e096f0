#pragma once
// `linerate record FILE --locations MAP`: the counters of every data plane a location map
// names, one JSON line per interval. Each data plane is read on a thread of its own, over
// its own connection: one that answers slowly, or not at all, leaves its entry older (its
// `age_ms` says by how much) and never holds up the others' or the line. One that goes away
// is marked so and tried again with backoff, as `record` does for one.

#include <string>

#include "control/client/dataplane_address.hpp"
#include "control/client/location_map.hpp"

namespace lr::ctl {

/// Records until Ctrl-C; returns the exit code (1: the file cannot be written).
/// Each line: {time, t, engines: [{location, endpoint, age_ms, and record_sample's fields,
/// or dataplane: "away", reason}]}, by location name.
int run_fleet_record(const LocationMap& map, const DataplaneAddress& options, const std::string& path,
                     double interval_s);

}  // namespace lr::ctl
