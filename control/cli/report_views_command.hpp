#pragma once
// `linerate report REPORT.json [--html FILE] [--csv FILE]`: a benchmark's views rebuilt
// from its report.json alone, so a lab can restyle, re-plot or merge runs later.
// Without --html or --csv, results.csv goes to stdout.

#include <string>

namespace lr::ctl {

struct ReportViewsOptions {
  std::string report_path;
  std::string html_path;
  std::string csv_path;
};

/// Exit code: 0, 2 not a benchmark report (with where and why), 4 an output not writable.
int rebuild_report_views(const ReportViewsOptions& options);

}  // namespace lr::ctl
