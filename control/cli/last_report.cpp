#include "control/cli/last_report.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "lib/views/report_file.hpp"

namespace lr::ctl {

std::string last_report_path() {
  if (const char* state = std::getenv("XDG_STATE_HOME"); state != nullptr && state[0] == '/')
    return std::string(state) + "/linerate/last-report.json";
  if (const char* home = std::getenv("HOME"); home != nullptr && home[0] == '/')
    return std::string(home) + "/.local/state/linerate/last-report.json";
  return "";
}

namespace {

// Writes `report` to the state file: "" when written, else why not.
std::string write_last_report(const nlohmann::json& report) {
  const std::string path = last_report_path();
  if (path.empty()) return "neither XDG_STATE_HOME nor HOME is set";
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), error);
  if (error) return "cannot make " + std::filesystem::path(path).parent_path().string() + ": " + error.message();
  return views::write_report_file(path, report.dump(2) + "\n");
}

}  // namespace

bool keep_last_report(const nlohmann::json& report) {
  const std::string failed = write_last_report(report);
  if (!failed.empty())
    std::fprintf(stderr, "linerate: warning: the report is not kept for `linerate report --last`: %s\n",
                 failed.c_str());
  return failed.empty();
}

std::optional<nlohmann::json> kept_last_report() {
  const std::string path = last_report_path();
  if (path.empty()) return std::nullopt;
  std::ifstream in(path);
  if (!in) return std::nullopt;
  nlohmann::json report = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (report.is_discarded() || !report.is_object()) return std::nullopt;
  return report;
}

}  // namespace lr::ctl
