#include "control/reports/report_header.hpp"

#include "lib/api/json_fields.hpp"

namespace lr::report {

std::string report_schema(const nlohmann::json& report) {
  if (!report.is_object()) return "";
  const auto it = report.find("schema");
  return it != report.end() && it->is_string() ? it->get<std::string>() : "";
}

ReportHeader read_report_header(const nlohmann::json& report) {
  ReportHeader h;
  if (!report.is_object()) return h;
  const auto read = api::reader(report);
  h.schema = report_schema(report);
  read("profile", h.profile);
  read("started_at", h.started_at);
  read("finished_at", h.finished_at);
  read("interrupted", h.interrupted);
  if (const auto it = report.find("stopped_by"); it != report.end() && !it->is_null())
    h.stopped_by = it->is_string() ? it->get<std::string>() : it->dump();
  if (const auto it = report.find("settings"); it != report.end() && it->is_object()) h.settings = *it;
  return h;
}

}  // namespace lr::report
