#pragma once
// Service mode (`linerate-dataplane --serve`): the ports are up, the profile's streams
// installed, and the control socket answers until SIGINT / SIGTERM / SIGHUP. Traffic
// starts and stops on request; a run still going at shutdown is finished and its
// report printed (and written to `report_path` when given). Thread: mgmt.

#include <optional>
#include <string>

#include "lib/common/result.hpp"
#include "dataplane/engine/engine.hpp"

namespace lr::dp {

/// Returns the report of a run that was still going at shutdown, if any.
/// `announce`: print where it serves. `remove_socket_dir`: the socket's folder is this data
/// plane's alone; it goes (once empty) with the socket.
Result<std::optional<RunReport>> serve(Engine& engine, const std::string& socket_path, const std::string& group,
                                       bool announce = true, bool remove_socket_dir = false);

}  // namespace lr::dp
