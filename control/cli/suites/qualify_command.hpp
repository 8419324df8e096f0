#pragma once
// `linerate optics qualify PROFILE` (or `--port P ...` on a serving data plane): the
// field's four-step diagnosis of a module or cable in loopback as one command. Before
// the traffic, the module decoded, the link and its FEC; during it, every interval, the
// merged counters and the module's monitors; after it, exact frame loss and a verdict
// per criterion and port. The report directory is written from the start and after
// every sample, so Ctrl-C or a data plane that goes away costs no sample.

#include <string>
#include <vector>

#include "control/client/dataplane_address.hpp"

namespace lr::optics {

struct QualifyOptions {
  std::string profile_path;         ///< "" with `ports`: the serving data plane's streams
  std::vector<std::string> ports;   ///< --port: qualify these on the serving data plane
  std::string duration;             ///< --duration: overrides [qualify] duration ("auto", "75s")
  std::string report_dir;           ///< "": qualify-<UTC time>
  ctl::DataplaneAddress dataplane;
  std::string locations_path;       ///< --locations: names of data planes for the profile's locations
  bool adopt_ports = false;
};

/// Returns the exit code: 0 every port passed (WARN included), ctl::kExitFailed (a port
/// failed a criterion), ctl::kExitIncomplete (none failed, but a port is INCOMPLETE),
/// 1 the data plane refused or went away, 2 a bad profile or argument, 4 the report
/// directory, 128 + N stopped by signal N before the end.
int run_optics_qualify(const QualifyOptions& options);

}  // namespace lr::optics
