#pragma once
// The report file, as both programs write it: checked before any traffic (a run of an
// hour must not end in "cannot write"), written after, and when writing fails anyway the
// reason is said and the report is still shown (and kept by the data plane, report.last).

#include <string>

namespace lr::views {

/// "" when `path` can be written, else why not: "no such directory 'out'", "'out' is a
/// directory", "permission denied in '/root'". Creates nothing.
std::string report_path_problem(const std::string& path);

/// Writes `text` to `path`; "" or the reason it failed.
std::string write_report_file(const std::string& path, const std::string& text);

}  // namespace lr::views
