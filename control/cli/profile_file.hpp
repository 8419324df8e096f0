#pragma once
// A profile as the CLI reads it: checked as the data plane would check it, so that a bad
// profile is exit 2 with the same message from either program.

#include <cstdio>
#include <optional>
#include <string>
#include <type_traits>

#include "lib/profile/load_toml.hpp"
#include "lib/profile/profile.hpp"

namespace lr::ctl {

/// The profile at `path`, or nullopt after printing why not ("linerate: FILE:LINE:COL: ...").
std::optional<profile::Profile> read_profile(const std::string& path);

/// What `read(profile, text)` takes from the sections of the profile at `path` that only a
/// front end reads (a suite's, [report]); nullopt after printing why not, as read_profile.
template <class Read>
auto read_profile_sections(const profile::Profile& profile, const std::string& path, Read&& read)
    -> std::optional<std::invoke_result_t<Read&, const profile::Profile&, const std::string&>> {
  try {
    return read(profile, profile::profile_file_text(path));
  } catch (const profile::ConfigError& error) {
    std::fprintf(stderr, "linerate: %s\n", error.what());
    return std::nullopt;
  }
}

}  // namespace lr::ctl
