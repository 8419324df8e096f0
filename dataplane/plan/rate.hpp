#pragma once
// Converts a stream's rate (% of line, L1 bit/s, L2 bit/s, pps) into frames per second
// on a link of known speed, and refuses rates the link cannot carry.

#include <cstdint>
#include <string>

#include "dataplane/common/result.hpp"
#include "dataplane/profile/profile.hpp"

namespace lr::plan {

/// Frames per second for `stream` on a link of `link_bps` (0: unknown). kMax gives 0
/// (unpaced). Errors: kInvalid (% rate on a link of unknown speed; above line rate).
Result<double> stream_pps(const profile::StreamCfg& stream, uint64_t link_bps, const std::string& port_name);

}  // namespace lr::plan
