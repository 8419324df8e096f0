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

namespace lr::ctl {

std::string remote_capture_name(const std::string& what, const std::string& port) {
  std::string name = fmt::format("linerate-{}-{}-{}", what, ::getpid(), port);
  std::replace_if(
      name.begin(), name.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '-'; },
      '_');
  return name + ".pcapng";
}

void fetch_capture(RunClient& run, uint32_t id, const std::string& path) {
  const std::string bytes = run.capture_file(id);
  // Beside it first: a file of that name is replaced only by a whole capture.
  const std::string part = path + ".part";
  std::ofstream out(part, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out || std::rename(part.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(part.c_str());
    throw std::runtime_error(fmt::format("{} cannot be written: {}", path, why));
  }
  run.remove_capture_file(id);
}

}  // namespace lr::ctl
