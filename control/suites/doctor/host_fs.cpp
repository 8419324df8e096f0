#include "control/suites/doctor/host_fs.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace lr::doctor {

namespace fs = std::filesystem;

std::optional<std::string> kmsg_text(const std::string& record) {
  const size_t semi = record.find(';');
  if (record.empty() || record[0] == ' ' || semi == std::string::npos) return std::nullopt;
  return record.substr(semi + 1);
}

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

std::optional<std::vector<uint8_t>> HostFs::bytes(const std::string& path) const {
  std::ifstream in(at(path), std::ios::binary);
  if (!in) return std::nullopt;
  std::vector<uint8_t> out((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return std::nullopt;
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

std::optional<std::string> HostFs::resolved(const std::string& path) const {
  std::error_code ec;
  const std::string real = fs::canonical(at(path), ec).string();
  if (ec) return std::nullopt;
  if (root_ == "/") return real;
  const std::string root = fs::canonical(root_, ec).string();
  if (ec || !real.starts_with(root + "/")) return std::nullopt;
  return real.substr(root.size());
}

bool HostFs::exists(const std::string& path) const {
  std::error_code ec;
  return fs::exists(at(path), ec);
}

std::optional<std::vector<std::string>> HostFs::lines_now(const std::string& path) const {
  const int fd = ::open(at(path).c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  const bool records = ::fstat(fd, &st) == 0 && S_ISCHR(st.st_mode);  // /dev/kmsg: a record a read
  std::string text;
  char buffer[8192];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      text.append(buffer, static_cast<size_t>(n));
      if (records && text.back() != '\n') text += '\n';
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EPIPE) continue;  // kmsg: records overwritten meanwhile; read on
    break;                                   // 0: end of a file; EAGAIN: no record yet
  }
  ::close(fd);
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace lr::doctor
