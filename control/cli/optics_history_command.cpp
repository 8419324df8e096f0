#include "control/cli/optics_history_command.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "control/suites/optics/optics_history.hpp"
#include "control/views/gnuplot_svg.hpp"
#include "control/views/optics_history_views.hpp"

namespace lr::ctl {

namespace {

int write_chart(const std::vector<nlohmann::json>& lines, const OpticsHistoryOptions& options) {
  const std::string script = history_chart_script(lines, options.port);
  if (script.empty()) {
    std::fprintf(stderr, "linerate: %s: no module monitors or FEC counts in its history to chart\n",
                 options.port.c_str());
    return 1;
  }
  const Svg svg = gnuplot_svg(script, 900, 900);
  if (svg.svg.empty()) {
    std::fprintf(stderr, "linerate: the chart was not drawn: %s\n", svg.error.c_str());
    return 1;
  }
  std::ofstream out(options.svg_path, std::ios::trunc);
  out << svg.svg;
  if (!out.flush()) {
    std::fprintf(stderr, "linerate: --svg %s: cannot write it\n", options.svg_path.c_str());
    return 1;
  }
  std::printf("chart: %s\n", options.svg_path.c_str());
  return 0;
}

int print_drift(const std::vector<nlohmann::json>& lines, const std::string& report_path) {
  std::ifstream in(report_path);
  const nlohmann::json report = nlohmann::json::parse(in, nullptr, false);
  if (!in.is_open() || !report.is_object()) {
    std::fprintf(stderr, "linerate: --since-qualified %s: %s\n", report_path.c_str(),
                 in.is_open() ? "not a report.json (not a JSON object)" : "cannot open it");
    return 1;
  }
  std::string error, text;
  try {
    text = drift_since_qualified(lines, report, error);
  } catch (const nlohmann::json::exception& e) {
    error = fmt::format("not a qualification report: {}", e.what());
  }
  if (!error.empty()) {
    std::fprintf(stderr, "linerate: --since-qualified %s: %s\n", report_path.c_str(), error.c_str());
    return 1;
  }
  std::fputs(text.c_str(), stdout);
  return 0;
}

}  // namespace

int run_optics_history(const OpticsHistoryOptions& options) {
  const optics::HistoryRead read =
      optics::read_history(std::filesystem::path(options.dir) / optics::kHistoryFolder, options.port);
  if (!read.error.empty()) {
    std::fprintf(stderr, "linerate: %s\n", read.error.c_str());
    return 1;
  }
  if (read.unreadable > 0)
    std::fprintf(stderr, "linerate: %zu line(s) of %s's history are not JSON (a write cut short): skipped\n",
                 read.unreadable, options.port.c_str());
  if (!options.qualified_report.empty()) return print_drift(read.lines, options.qualified_report);
  if (options.as_json) {
    const size_t first = options.rows == 0 || read.lines.size() <= options.rows ? 0 : read.lines.size() - options.rows;
    std::printf("%s\n", nlohmann::json(std::vector<nlohmann::json>(read.lines.begin() + static_cast<long>(first),
                                                                   read.lines.end()))
                            .dump(1)
                            .c_str());
  } else {
    std::fputs(history_table(read.lines, options.rows).c_str(), stdout);
  }
  return options.svg_path.empty() ? 0 : write_chart(read.lines, options);
}

}  // namespace lr::ctl
