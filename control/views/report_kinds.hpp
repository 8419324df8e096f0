#pragma once
// The report kinds whose views `linerate report` rebuilds from report.json alone, by
// the report's schema: each kind's page (report.html) and table (results.csv /
// summary.csv). Each view throws nlohmann::json::exception on a value of the wrong
// type (a report edited by hand), and nothing else.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace lr::ctl {

struct ReportKind {
  const char* schema_prefix;  ///< "linerate.rfc2544/"
  std::string (*html)(const nlohmann::json& report);
  std::string (*csv)(const nlohmann::json& report);
};

/// The kind of a report with `schema`, or null when it is none of them.
const ReportKind* report_kind(std::string_view schema);

/// The schemas known, for a message: "linerate.rfc2544/1, linerate.ndr/1, ...".
std::string report_kind_schemas();

}  // namespace lr::ctl
