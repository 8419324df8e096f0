#pragma once
// A qualified port as report.json holds it: the module, what was read before the
// traffic, every sample (counters since the first sample, monitors), the traffic's
// frame counts and each criterion with its verdict. The CSV and HTML views are rebuilt
// from this alone.

#include <nlohmann/json.hpp>

#include "control/optics/qualify_verdicts.hpp"

namespace lr::optics {

nlohmann::json criterion_json(const Criterion& criterion);

nlohmann::json port_result_json(const PortEvidence& evidence, const PortVerdict& verdict);

}  // namespace lr::optics
