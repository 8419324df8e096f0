#include "control/cli/profile_file.hpp"

#include <fstream>
#include <sstream>

namespace lr::ctl {

std::optional<profile::Profile> read_profile(const std::string& path) {
  try {
    return profile::load_profile_file(path);
  } catch (const profile::ConfigError& error) {
    std::fprintf(stderr, "linerate: %s\n", error.what());
    return std::nullopt;
  }
}

std::string file_text(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace lr::ctl
