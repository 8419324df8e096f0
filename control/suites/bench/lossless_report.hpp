#pragma once
// The lossless plan's report as types: each case's outcome with what the device's own
// counters should show, and every run a case took (the data plane's report of it, or why
// the host spoiled it). Read back from report.json by the plan's views and its printed
// tables; the plan writes the same keys (lossless_cases.cpp, lossless/plan.cpp).

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "control/suites/bench/lossless_verdicts.hpp"
#include "lib/api/run_report.hpp"

namespace lr::bench {

struct LosslessCaseReport {
  CaseOutcome outcome;
  std::vector<std::string> compare_with_dut;  ///< per valid run, what the device's counters should show
};

struct LosslessRun {
  std::string case_name;
  std::string label;           ///< which run of the case ("4096 quanta"), or ""
  std::string invalid_reason;  ///< "": valid
  api::RunReport report;       ///< the data plane's report of the run (timelines coarsened)
  bool valid() const noexcept { return invalid_reason.empty(); }
};

struct LosslessReport {
  std::vector<LosslessCaseReport> cases;
  std::vector<LosslessRun> runs;

  /// The first valid run of `case_name`, or none.
  const LosslessRun* first_valid_run(const std::string& case_name) const;
  /// Whether the device was linerate's own switch (its counters are in every run).
  bool own_switch() const;
};

/// Throws nlohmann::json::exception on a field of the wrong type.
LosslessReport lossless_report_from_json(const nlohmann::json& report);

}  // namespace lr::bench
