#include "control/cli/profile_file.hpp"

namespace lr::ctl {

std::optional<profile::Profile> read_profile(const std::string& path) {
  try {
    return profile::load_profile_file(path);
  } catch (const profile::ConfigError& error) {
    std::fprintf(stderr, "linerate: %s\n", error.what());
    return std::nullopt;
  }
}

}  // namespace lr::ctl
