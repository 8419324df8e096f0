#pragma once
// The lossless test plan's views, rebuilt from its report.json alone: results.csv (one
// row per check: the case, its verdict, the number and its bound) and report.html (the
// verdict table, each case's checks, and a rate timeline per case drawn by gnuplot).

#include <nlohmann/json.hpp>
#include <string>

namespace lr::ctl {

std::string lossless_csv(const nlohmann::json& report);
std::string lossless_html(const nlohmann::json& report);

}  // namespace lr::ctl
