#pragma once
// The RFC 2889 suite's views, rebuilt from its report.json alone: the printed tables, results.csv
// (one row per result, and one per load a meshed test ran) and report.html (the results, a
// forwarding-rate chart per meshed pattern drawn by gnuplot, and each test's runs).

#include <nlohmann/json.hpp>
#include <string>

namespace lr::ctl {

/// One line that answers a result: its throughput, capacity, rate or what went wrong.
std::string rfc2889_answer(const nlohmann::json& result);
std::string rfc2889_text(const nlohmann::json& report);
std::string rfc2889_csv(const nlohmann::json& report);
std::string rfc2889_html(const nlohmann::json& report);

}  // namespace lr::ctl
