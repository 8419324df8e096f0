#pragma once
// `linerate run PROFILE`: the one-command run. Uses the data plane serving the socket,
// or starts one for this run (in its own process group, so Ctrl-C reaches only us) and
// stops it after. Installs the profile's streams, starts traffic, prints a live line a
// second, stops when every stream is done or on Ctrl-C, and prints / writes the report;
// a data plane that goes away mid-run still gives one, of the counts last seen.

#include <string>

#include "control/client/dataplane_address.hpp"
#include "control/client/run_client.hpp"

namespace lr::ctl {

struct RunOptions {
  std::string profile_path;
  DataplaneAddress dataplane;  ///< where the data plane serves, else one is started for the profile
  std::string locations_path;  ///< --locations: names of data planes for the profile's locations
  std::string report_path;  ///< "" : no file
  bool as_json = false;
  bool live = true;
  bool adopt_ports = false;  ///< a serving data plane's ports differ from the profile's: use them
  bool plan_only = false;    ///< print the plan, run nothing
};

/// The run's report printed (or its JSON with --json), kept for `linerate report --last`
/// and written to options.report_path; the exit code (4: the file could not be written).
int show_report(const RunOptions& options, EndedRun& ended);

/// Returns the process exit code (0 done, 1 refused, 3 no data plane, 4 report file, 7 the
/// data plane went away mid-run: the report holds the counts last seen).
int run_profile(const RunOptions& options);

}  // namespace lr::ctl
