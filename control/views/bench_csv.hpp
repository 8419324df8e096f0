#pragma once
// results.csv of a benchmark report: a view rebuilt from report.json alone. One row per
// trial (`row` = trial) and one per result (`row` = result: a throughput, NDR, PDR,
// latency, frame-loss point or back-to-back answer), with one header for both.

#include <nlohmann/json.hpp>
#include <string>

namespace lr::ctl {

std::string bench_csv(const nlohmann::json& report);

/// A JSON value as a CSV field (RFC 4180): integers as written, other numbers to nine
/// significant digits, strings quoted when they must be, null empty.
std::string csv_field(const nlohmann::json& value);

}  // namespace lr::ctl
