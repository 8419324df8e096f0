#pragma once
// A capture on a data plane of another host: written there under a file name, in that data
// plane's capture directory (a controller over the network names no path of its host), then
// read back over the connection into a file here and removed there.

#include <cstdint>
#include <string>

#include "control/client/run_client.hpp"
#include "lib/api/capture_spec.hpp"

namespace lr::ctl {

/// "linerate-WHAT-PID-PORT.pcapng", every character but letters, digits and '-' made '_':
/// a file name the data plane takes, unique to this process, `what` and the port.
std::string remote_capture_name(const std::string& what, const std::string& port);

/// Throws std::runtime_error where a capture on `port` could not be brought into `here`
/// (its folder missing, not writable): checked before the capture starts, not after a run.
void check_capture_destination(const std::string& port, const std::string& here);

/// Ends capture `id` (capture.stop: it answers when the file is complete) and, where its
/// data plane is on another host (`remote`), brings the file into `here` and removes it
/// there. The capture's final report: its file where it now is, or, where it could not be
/// brought (`here` not writable, capture.read refused, the data plane gone away meanwhile),
/// an error that says where it stayed and why. A copy there that cannot be removed is said
/// on stderr. capture.stop's ConnectionError is thrown, as any call's.
api::CaptureReport end_capture(RunClient& run, uint32_t id, const std::string& here, bool remote);

}  // namespace lr::ctl
