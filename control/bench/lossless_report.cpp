#include "control/bench/lossless_report.hpp"

#include <algorithm>

#include "dataplane/api/json_fields.hpp"

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
  if (const auto cases = report.find("cases"); cases != report.end() && cases->is_array())
    for (const json& c : *cases) {
      LosslessCaseReport& r = out.cases.emplace_back();
      r.outcome = case_outcome_from_json(c);
      api::reader(c)("compare_with_dut", r.compare_with_dut);
    }
  if (const auto trials = report.find("trials"); trials != report.end() && trials->is_array())
    for (const json& t : *trials) {
      LosslessRun& run = out.runs.emplace_back();
      const auto read = api::reader(t);
      read("case", run.case_name);
      read("label", run.label);
      read("invalid_reason", run.invalid_reason);
      if (const auto it = t.find("report"); it != t.end() && it->is_object()) run.report = api::run_report_from_json(*it);
    }
  return out;
}

}  // namespace lr::bench
