#pragma once
// What the device's own counters should show, from the tester's counts in a case's valid
// runs: where the device is not linerate's switch, the numbers to set the user's beside.

#include <string>
#include <vector>

#include "lib/api/run_report.hpp"

namespace lr::bench::lossless {

/// A run of a case step that was judged (valid), as its report says.
struct JudgedRun {
  std::string case_name;
  std::string label;
  api::RunReport report;
};

/// One line per judged run of `case_name`.
std::vector<std::string> dut_comparison(const std::vector<JudgedRun>& runs, const std::string& case_name);

}  // namespace lr::bench::lossless
