#include "lib/views/report_file.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace lr::views {

namespace fs = std::filesystem;

std::string report_path_problem(const std::string& path) {
  if (path.empty()) return "";
  std::error_code ec;
  if (fs::is_directory(path, ec)) return fmt::format("'{}' is a directory", path);
  const fs::path parent = fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
  if (!fs::exists(parent, ec)) return fmt::format("no such directory '{}'", parent.string());
  if (!fs::is_directory(parent, ec)) return fmt::format("'{}' is not a directory", parent.string());
  if (fs::exists(path, ec) ? ::access(path.c_str(), W_OK) != 0 : ::access(parent.c_str(), W_OK | X_OK) != 0)
    return fmt::format("{} ('{}')", std::strerror(errno), fs::exists(path, ec) ? path : parent.string());
  return "";
}

std::string write_report_file(const std::string& path, const std::string& text) {
  if (std::string problem = report_path_problem(path); !problem.empty()) return problem;
  std::ofstream out(path, std::ios::trunc);
  out << text;
  out.flush();
  if (!out) return std::strerror(errno != 0 ? errno : EIO);
  return "";
}

}  // namespace lr::views
