#pragma once
// What the device's own counters should show, from the tester's counts in a case's valid
// runs: where the device is not linerate's switch, the numbers to set the user's beside.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lr::bench::lossless {

/// One line per valid run of `case_name` in `trials` (the report's trials[]).
std::vector<std::string> dut_comparison(const nlohmann::json& trials, const std::string& case_name);

}  // namespace lr::bench::lossless
