#pragma once
// A qualified port as report.json holds it: the module, what was read before the
// traffic, every sample (counters since the first sample, monitors), the traffic's
// frame counts and each criterion with its verdict. The CSV and HTML views are rebuilt
// from this alone.

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "control/suites/optics/qualify_verdicts.hpp"

namespace lr::optics {

nlohmann::json criterion_json(const Criterion& criterion);

nlohmann::json port_result_json(const PortEvidence& evidence, const PortVerdict& verdict);

/// What the views read back of a qualified port (report.json `ports[]`).
struct QualifiedPort {
  struct Module {
    std::string identifier, vendor, part, revision, serial, date_code;
  };
  struct Monitor {
    std::string name, unit;
    double value = 0;
  };
  struct Sample {
    double t_s = 0;
    bool link_up = false;
    std::map<std::string, double> counters;  ///< canonical name: change since the first sample
    std::vector<Monitor> monitors;
  };
  std::string port;
  Verdict verdict = Verdict::kIncomplete;
  std::vector<std::string> unmeasured;
  std::optional<Module> module;
  std::string module_error;  ///< why there is no module
  std::vector<Criterion> criteria;
  std::vector<Sample> samples;

  /// The criterion `name`, or none.
  const Criterion* criterion(const std::string& name) const;
};

/// "PASS" -> kPass ...; a name it does not know is INCOMPLETE (no pass).
Verdict verdict_from_name(const std::string& name);
Criterion criterion_from_json(const nlohmann::json& j);
/// The report's `ports[]`. Throws nlohmann::json::exception on a field of the wrong type.
std::vector<QualifiedPort> qualified_ports_from_json(const nlohmann::json& report);

}  // namespace lr::optics
