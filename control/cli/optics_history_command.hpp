#pragma once
// `linerate optics history PORT`: a watched port's stored series as a table, an SVG chart
// (gnuplot) with the module's thresholds drawn, or JSON; with --since-qualified, what
// drifted since the module passed qualification.

#include <cstddef>
#include <string>

#include "control/suites/optics/optics_watch_files.hpp"

namespace lr::ctl {

struct OpticsHistoryOptions {
  std::string port;
  std::string dir = optics::kOpticsWatchDir;  ///< the watch's --dir
  size_t rows = 20;                              ///< last readings shown; 0: all
  std::string svg_path;                          ///< write the chart here
  std::string qualified_report;                  ///< a qualification's report.json
  bool as_json = false;
};

/// 0, 1 (no history, unreadable report, gnuplot failed), 2 (bad arguments).
int run_optics_history(const OpticsHistoryOptions& options);

}  // namespace lr::ctl
