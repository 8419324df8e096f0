#include "control/client/capture_files.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
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
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw std::runtime_error(fmt::format("{} cannot be written", path));
  run.remove_capture_file(id);
}

}  // namespace lr::ctl
