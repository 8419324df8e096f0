#pragma once
// A profile's [[stream]] table, read into the contract's StreamSpec: every key with its
// range and the error that names it. Used by the profile loader and the streams' JSON form.

#include "lib/api/stream_spec.hpp"
#include "lib/profile/table_reader.hpp"

namespace lr::profile {

/// Reads one [[stream]] table (checks that need the ports come later, in validate_profile).
/// Throws ConfigError.
api::StreamSpec read_stream(TableReader& in);

}  // namespace lr::profile
