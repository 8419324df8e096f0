#pragma once
// A profile's [[capture]] table: a capture of what a port receives during the run, into a
// pcapng file (the same keys as `linerate capture`), checked against the profile's ports
// and streams.

#include "lib/api/capture_spec.hpp"
#include "lib/profile/profile.hpp"
#include "lib/profile/table_reader.hpp"

namespace lr::profile {

/// The capture the table describes; its file made absolute against the working directory.
/// Throws ConfigError naming the key and why.
api::CaptureSpec read_capture(TableReader& in, const Profile& profile);

}  // namespace lr::profile
