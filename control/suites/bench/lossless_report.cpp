#include "control/suites/bench/lossless_report.hpp"

#include <algorithm>

#include "lib/api/json_fields.hpp"

namespace lr::bench {

using nlohmann::json;

const LosslessRun* LosslessReport::first_valid_run(const std::string& case_name) const {
  const auto it = std::find_if(runs.begin(), runs.end(),
                               [&](const LosslessRun& r) { return r.case_name == case_name && r.valid(); });
  return it == runs.end() ? nullptr : &*it;
}

bool LosslessReport::own_switch() const {
  return std::any_of(runs.begin(), runs.end(), [](const LosslessRun& r) { return !r.report.switches.empty(); });
}

LosslessReport lossless_report_from_json(const json& report) {
  LosslessReport out;
  api::read_items(report, "cases", out.cases, [](const json& c) {
    LosslessCaseReport r{case_outcome_from_json(c), {}};
    api::reader(c)("compare_with_dut", r.compare_with_dut);
    return r;
  });
  api::read_items(report, "trials", out.runs, [](const json& t) {
    LosslessRun run;
    const auto read = api::reader(t);
    read("case", run.case_name);
    read("label", run.label);
    read("invalid_reason", run.invalid_reason);
    if (const auto it = t.find("report"); it != t.end() && it->is_object()) {
      try {
        run.report = api::run_report_from_json(*it);
      } catch (const json::exception& e) {
        api::throw_at("report", e);
      }
    }
    return run;
  });
  return out;
}

}  // namespace lr::bench
