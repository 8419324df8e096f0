#pragma once
// A capture on a data plane of another host: written there under a file name, in that data
// plane's capture directory (a controller over the network names no path of its host), then
// read back over the connection into a file here and removed there.

#include <cstdint>
#include <string>

#include "control/client/run_client.hpp"

namespace lr::ctl {

/// "linerate-WHAT-PID-PORT.pcapng", every character but letters, digits and '-' made '_':
/// a file name the data plane takes, unique to this process, `what` and the port.
std::string remote_capture_name(const std::string& what, const std::string& port);

/// The ended capture `id`'s file from its data plane into `path` here, then removed there.
/// Throws std::runtime_error when `path` cannot be written (the file stays there then).
void fetch_capture(RunClient& run, uint32_t id, const std::string& path);

}  // namespace lr::ctl
