#include "control/client/capture_files.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string_view>

namespace lr::ctl {

std::string remote_capture_name(const std::string& what, const std::string& port) {
  std::string name = fmt::format("linerate-{}-{}-{}", what, ::getpid(), port);
  std::replace_if(
      name.begin(), name.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '-'; },
      '_');
  return name + ".pcapng";
}

namespace {

// The ended capture `id`'s file from its data plane into `path`, piece by piece. Written
// beside `path` first: a file of that name is replaced only by a whole capture. Throws
// std::runtime_error (ConnectionError among them; the file stays there then).
void fetch_capture(RunClient& run, uint32_t id, const std::string& path) {
  const std::string part = path + ".part";
  const auto unwritable = [](const std::string& file) {
    return std::runtime_error(fmt::format("{} cannot be written: {}", file, std::strerror(errno)));
  };
  std::ofstream out(part, std::ios::binary | std::ios::trunc);
  if (!out) throw unwritable(part);
  try {
    run.read_capture_file(id, [&](std::string_view piece) {
      if (!out.write(piece.data(), static_cast<std::streamsize>(piece.size()))) throw unwritable(part);
    });
    out.close();
    if (!out) throw unwritable(part);
    if (std::rename(part.c_str(), path.c_str()) != 0) throw unwritable(path);
  } catch (...) {
    std::remove(part.c_str());
    throw;
  }
}

}  // namespace

void check_capture_destination(const std::string& port, const std::string& here) {
  const std::string part = here + ".part";  // what fetch_capture writes first
  std::FILE* file = std::fopen(part.c_str(), "wb");
  if (file == nullptr)
    throw std::runtime_error(
        fmt::format("the capture on {} could not be brought back into {}: {}", port, here, std::strerror(errno)));
  std::fclose(file);
  std::remove(part.c_str());
}

api::CaptureReport end_capture(RunClient& run, uint32_t id, const std::string& here, bool remote) {
  api::CaptureReport report = run.stop_capture(id);
  if (!remote || !report.error.empty()) return report;
  const std::string there = report.spec.file;
  try {
    fetch_capture(run, id, here);
  } catch (const std::runtime_error& e) {  // the data plane gone away included: the run's report stands
    report.error =
        fmt::format("its file stays in the capture directory of the data plane's host ({}): {}", there, e.what());
    return report;
  }
  report.spec.file = here;  // where it is now, whole
  try {
    run.remove_capture_file(id);
  } catch (const std::runtime_error& e) {  // the file is here: only the copy there stays
    std::fprintf(stderr, "linerate: capture %u's file is in %s, and its copy on the data plane's host (%s) stays: %s\n",
                 id, here.c_str(), there.c_str(), e.what());
  }
  return report;
}

}  // namespace lr::ctl
