#include "dataplane/eal/hugepage_files.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace lr::dp {

namespace fs = std::filesystem;

namespace {

// DPDK's file name: <prefix>map_<n> (or <list>_<segment> with single-file segments).
bool is_file_of(const std::string& name, const std::string& prefix) {
  const std::string head = prefix + "map_";
  if (name.size() <= head.size() || name.compare(0, head.size(), head) != 0) return false;
  return std::all_of(name.begin() + static_cast<long>(head.size()), name.end(),
                     [](char c) { return (c >= '0' && c <= '9') || c == '_'; });
}

// Nobody maps it: DPDK holds a shared flock on every file it maps.
bool unheld(const fs::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool free = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
  ::close(fd);
  return free;
}

// A primary process holds a write lock on its runtime directory's config file.
bool runtime_in_use(const fs::path& dir) {
  const int fd = ::open((dir / "config").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct flock probe{};
  probe.l_type = F_WRLCK;
  probe.l_whence = SEEK_SET;
  const bool held = ::fcntl(fd, F_GETLK, &probe) == 0 && probe.l_type != F_UNLCK;
  ::close(fd);
  return held;
}

// `own`: this process's files at its exit (its own locks would read as held).
void remove_files(const HugepagePaths& paths, const std::string& prefix, bool own, RemovedHugepages& out) {
  for (const std::string& mount : paths.mounts) {
    std::error_code ec;
    for (const fs::directory_entry& entry : fs::directory_iterator(mount, ec)) {
      const std::string name = entry.path().filename().string();
      if (!is_file_of(name, prefix) || (!own && !unheld(entry.path()))) continue;
      const uint64_t size = entry.file_size(ec);
      if (fs::remove(entry.path(), ec)) {
        ++out.files;
        out.bytes += ec ? 0 : size;
      } else {
        out.errors.push_back(fmt::format("{}: {}", entry.path().string(), ec.message()));
      }
    }
  }
  std::error_code ec;
  const fs::path runtime = fs::path(paths.runtime) / prefix;
  if (!paths.runtime.empty() && !prefix.empty() && (own || !runtime_in_use(runtime))) fs::remove_all(runtime, ec);
}

}  // namespace

HugepagePaths system_hugepage_paths() {
  HugepagePaths paths{{}, "/run/linerate/hugepage-prefixes", "/var/run/dpdk"};
  std::ifstream mounts("/proc/mounts");
  std::string device, point, type;
  for (std::string line; std::getline(mounts, line);) {
    std::istringstream fields(line);
    if (fields >> device >> point >> type && type == "hugetlbfs") paths.mounts.push_back(point);
  }
  return paths;
}

std::string register_hugepage_prefix(const HugepagePaths& paths, const std::string& prefix, pid_t pid) {
  std::error_code ec;
  fs::create_directories(paths.registry, ec);
  std::ofstream out(fs::path(paths.registry) / prefix, std::ios::trunc);
  out << pid << "\n";
  if (!out) return fmt::format("cannot record the hugepage prefix '{}' in {}: {}", prefix, paths.registry, std::strerror(errno));
  return "";
}

std::vector<RemovedHugepages> remove_stale_hugepages(const HugepagePaths& paths, bool (*is_running)(pid_t)) {
  std::vector<RemovedHugepages> removed;
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(paths.registry, ec)) {
    RemovedHugepages r;
    r.prefix = entry.path().filename().string();
    std::ifstream in(entry.path());
    if (!(in >> r.pid) || r.pid <= 0 || is_running(r.pid)) continue;
    remove_files(paths, r.prefix, false, r);
    if (r.errors.empty()) fs::remove(entry.path(), ec);
    if (r.files != 0 || !r.errors.empty()) removed.push_back(std::move(r));
  }
  return removed;
}

RemovedHugepages remove_own_hugepages(const HugepagePaths& paths, const std::string& prefix) {
  RemovedHugepages r;
  r.prefix = prefix;
  r.pid = ::getpid();
  remove_files(paths, prefix, true, r);
  std::error_code ec;
  if (r.errors.empty()) fs::remove(fs::path(paths.registry) / prefix, ec);
  return r;
}

bool is_running_dataplane(pid_t pid) {
  // /proc/<pid>/stat: "pid (comm) state ...". comm is cut at 15 characters
  // ("linerate-datapl"); a zombie (Z) has already let go of its memory and locks.
  std::ifstream stat(fmt::format("/proc/{}/stat", pid));
  std::string line;
  if (!std::getline(stat, line)) return false;
  const size_t open = line.find('('), close = line.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close + 2 >= line.size()) return false;
  const std::string name = line.substr(open + 1, close - open - 1);
  const char state = line[close + 2];
  return !name.empty() && std::string_view("linerate-dataplane").starts_with(name) && state != 'Z' && state != 'X';
}

std::string describe(const RemovedHugepages& r) {
  std::string text = fmt::format("removed {} stale hugepage file{} ({} MiB) of prefix '{}' (pid {}, no longer running)",
                                 r.files, r.files == 1 ? "" : "s", r.bytes >> 20, r.prefix, r.pid);
  for (const std::string& e : r.errors) text += "; could not remove " + e;
  return text;
}

}  // namespace lr::dp
