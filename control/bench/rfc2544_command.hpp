#pragma once
// `linerate bench rfc2544 PROFILE`: the RFC 2544 procedure of the profile's [rfc2544]
// section over its streams, with a progress line per trial, the answers in a table, and
// report.json in the report directory, rewritten after every trial so that Ctrl-C or a
// data plane that disappears never costs what was measured.

#include <string>

namespace lr::bench {

struct BenchOptions {
  std::string profile_path;
  std::string report_dir;  ///< "" : rfc2544-<UTC time>
  std::string socket;
  bool adopt_ports = false;
};

/// Returns the exit code: 0 done (also when interrupted: the report says so), 1 the data
/// plane refused or went away, 2 a bad profile, 4 the report directory.
int run_rfc2544(const BenchOptions& options);

}  // namespace lr::bench
