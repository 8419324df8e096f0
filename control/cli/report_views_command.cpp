#include "control/cli/report_views_command.hpp"

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "control/reports/report_header.hpp"
#include "control/views/report_kinds.hpp"
#include "lib/api/json_fields.hpp"
#include "lib/views/report_file.hpp"

namespace lr::ctl {

using nlohmann::json;

int rebuild_report_views(const ReportViewsOptions& options) {
  std::ifstream in(options.report_path);
  if (!in) {
    std::fprintf(stderr, "linerate: cannot read '%s'\n", options.report_path.c_str());
    return 2;
  }
  json report;
  try {
    report = json::parse(in);
  } catch (const json::parse_error& error) {
    std::fprintf(stderr, "linerate: %s is not JSON: %s\n", options.report_path.c_str(), error.what());
    return 2;
  }
  const std::string schema = report::report_schema(report);
  const ReportKind* views = report_kind(schema);
  if (views == nullptr) {
    std::fprintf(stderr,
                 "linerate: %s is not a benchmark or qualification report: its schema is '%s', not %s (a run's report "
                 "is shown by `linerate report --last`)\n",
                 options.report_path.c_str(), schema.c_str(), report_kind_schemas().c_str());
    return 2;
  }
  try {
    const auto html = views->html;
    const auto csv = views->csv;
    for (const auto& [path, view] : {std::pair{&options.html_path, html}, std::pair{&options.csv_path, csv}}) {
      if (path->empty()) continue;
      if (const std::string problem = views::write_report_file(*path, view(report)); !problem.empty()) {
        std::fprintf(stderr, "linerate: cannot write '%s': %s\n", path->c_str(), problem.c_str());
        return 4;
      }
      std::printf("wrote %s\n", path->c_str());
    }
    if (options.html_path.empty() && options.csv_path.empty()) std::printf("%s", csv(report).c_str());
  } catch (const json::exception& error) {
    // A report edited by hand or cut short can lack a value or hold one of the wrong type:
    // say so, not crash.
    std::fprintf(stderr, "linerate: %s has a value missing or of the wrong type: %s\n", options.report_path.c_str(),
                 api::json_error_text(error).c_str());
    return 2;
  }
  return 0;
}

}  // namespace lr::ctl
