#include "control/doctor/host_fs.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace lr::doctor {

namespace fs = std::filesystem;


HostFs::HostFs(std::string root) : root_(std::move(root)) {
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
}

std::string HostFs::at(const std::string& path) const { return root_ == "/" ? path : root_ + path; }

std::optional<std::string> HostFs::read(const std::string& path) const {
  std::ifstream in(at(path));
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  std::string out = text.str();
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

std::vector<std::string> HostFs::list(const std::string& path) const {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(at(path), ec)) out.push_back(entry.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<std::string> HostFs::link_name(const std::string& path) const {
  std::error_code ec;
  const fs::path target = fs::read_symlink(at(path), ec);
  if (ec) return std::nullopt;
  return target.filename().string();
}

bool HostFs::exists(const std::string& path) const {
  std::error_code ec;
  return fs::exists(at(path), ec);
}

}  // namespace lr::doctor
