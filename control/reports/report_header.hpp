#pragma once
// What every suite's report.json says of the run itself (rfc2544, ndr, lossless, optics
// qualification): its schema, the profile, when it started and finished, how it ended,
// and the settings as used. Read by the pages' summaries and the report command.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace lr::report {

struct ReportHeader {
  std::string schema;       ///< "linerate.rfc2544/1"; "": none, or not a string (not a suite's report)
  std::string profile;
  std::string started_at;   ///< UTC, ISO 8601
  std::string finished_at;  ///< "": not finished (still running, or killed)
  bool interrupted = false; ///< Ctrl-C or a signal ended it: the results are those that finished
  std::optional<std::string> stopped_by;  ///< the error that ended it early
  nlohmann::json settings = nlohmann::json::object();  ///< the suite's keys as used (units in their names)
};

/// Throws nlohmann::json::exception on a field of the wrong type (but `schema`).
ReportHeader read_report_header(const nlohmann::json& report);

/// The report's schema; "" when it has none or it is not a string (it names no kind of
/// report). Never throws: the report command names the kind before reading the rest.
std::string report_schema(const nlohmann::json& report);

}  // namespace lr::report
