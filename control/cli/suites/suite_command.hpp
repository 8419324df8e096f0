#pragma once
// What `linerate bench <suite> PROFILE` does around its procedures, for every suite: the
// profile read and its section checked before any traffic, the report directory
// checked, the data plane (serving, checked against the profile, or started), learning
// frames, Ctrl-C caught, and the report finished — written in full whatever ends it.

#include <nlohmann/json.hpp>

#include <functional>
#include <string>

#include "control/client/dataplane_address.hpp"
#include "control/suites/bench/bench_sections.hpp"
#include "control/suites/bench/bench_session.hpp"
#include "control/suites/bench/trial_runner.hpp"
#include "lib/profile/profile.hpp"

namespace lr::bench {

struct BenchOptions {
  std::string profile_path;
  std::string report_dir;  ///< "" : <suite>-<UTC time>
  ctl::DataplaneAddress dataplane;
  std::string locations_path;  ///< --locations: names of data planes for the profile's locations
  bool adopt_ports = false;
  std::string method;      ///< ndr: "bisection" or "mlrsearch" over the profile's; "": the profile's
};

/// A suite's `section`: the profile's `Member` section (&BenchProfile::rfc2544), when it has one.
template <auto Member>
const BenchCfg* section_of(const BenchProfile& profile) {
  const auto& section = profile.*Member;
  return section ? &*section : nullptr;
}

struct Suite {
  std::string name;    ///< "rfc2544": the section and the command
  std::string schema;  ///< "linerate.rfc2544/1"
  /// The profile's section for this suite, or null when it has none.
  std::function<const BenchCfg*(const BenchProfile&)> section;
  /// The section's settings as the report names them.
  std::function<nlohmann::json(const BenchProfile&)> settings;
  /// Expected trials over the whole suite, for the ETA.
  std::function<unsigned(const BenchProfile&)> expected_trials;
  /// Runs the procedures; returns on a stop request.
  std::function<void(const BenchProfile&, TrialRunner&, BenchSession&)> run;
  /// The answers, printed at the end.
  std::function<void(const nlohmann::json& report)> print;
  /// results.csv and report.html, rebuilt from report.json.
  BenchSession::Views views;
  /// A suite with verdicts: the exit code of a finished report (0: all passed), or none.
  std::function<int(const nlohmann::json& report)> verdict_code = nullptr;
};

/// Returns the exit code: 0 done (also when interrupted: the report says so), 1 the data
/// plane refused or went away, 2 a bad profile, 3 a verdict failed (suites with
/// verdicts), 4 the report directory.
int run_suite(const Suite& suite, const BenchOptions& options);

}  // namespace lr::bench
