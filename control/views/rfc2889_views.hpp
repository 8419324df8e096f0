#pragma once
// The RFC 2889 suite's views, rebuilt from its report.json alone: the printed tables, results.csv
// (one row per result, and one per load a meshed test ran) and report.html (the results, a
// forwarding-rate chart per meshed pattern drawn by gnuplot, and each test's runs). They read
// the report's results as typed (reports/rfc2889_report), never its JSON by key.

#include <nlohmann/json.hpp>
#include <string>

#include "control/reports/rfc2889_report.hpp"

namespace lr::ctl {

/// One line that answers a result: its throughput, capacity, rate or what went wrong.
std::string rfc2889_answer(const bench::rfc2889::Result& result);
/// Each reads the report through its codec (reports/rfc2889_report): a value of the wrong
/// type throws nlohmann::json::exception, naming it.
std::string rfc2889_text(const nlohmann::json& report);
std::string rfc2889_csv(const nlohmann::json& report);
std::string rfc2889_html(const nlohmann::json& report);

}  // namespace lr::ctl
