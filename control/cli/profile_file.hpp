#pragma once
// A profile as the CLI reads it: checked as the data plane would check it, so that a bad
// profile is exit 2 with the same message from either program.

#include <optional>
#include <string>

#include "dataplane/profile/profile.hpp"

namespace lr::ctl {

/// The profile at `path`, or nullopt after printing why not ("linerate: FILE:LINE:COL: ...").
std::optional<profile::Profile> read_profile(const std::string& path);

}  // namespace lr::ctl
