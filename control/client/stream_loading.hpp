#pragma once
// Streams to the data plane as the contract's StreamSpec: stream.load with their JSON
// form, the one way the CLI and the suites give the data plane streams. A suite changes a
// stream's size, rate or timing on the spec, never on profile text.

#include <string>
#include <vector>

#include "control/client/dataplane_client.hpp"
#include "dataplane/api/stream_spec.hpp"

namespace lr::ctl {

/// Replaces the data plane's streams with `streams`. `path` names them in the data
/// plane's errors where a stream does not name its own source (a trial, learning frames).
/// Throws RpcCallError or ConnectionError.
void load_streams(DataplaneClient& client, const std::vector<api::StreamSpec>& streams, const std::string& path);

/// The profile's streams at `percent` of line rate each, running until stopped (their
/// count, duration and burst dropped).
std::vector<api::StreamSpec> streams_at_percent(std::vector<api::StreamSpec> streams, double percent);

}  // namespace lr::ctl
