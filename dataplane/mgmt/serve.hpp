#pragma once
// Service mode (`linerate-dataplane --serve`): the ports are up, the profile's streams
// installed, and the control socket answers until SIGINT / SIGTERM / SIGHUP. Traffic
// starts and stops on request; a run still going at shutdown is finished and its
// report printed (and written to `report_path` when given). Thread: mgmt.

#include <optional>
#include <string>

#include "dataplane/engine/engine.hpp"
#include "dataplane/mgmt/capture_methods.hpp"
#include "dataplane/mgmt/tcp_rpc_server.hpp"
#include "lib/common/result.hpp"

namespace lr::dp {

struct ServeOptions {
  std::string socket_path;
  std::string group;               ///< [control] group: who else may use the Unix socket
  bool announce = true;            ///< print where it serves
  bool remove_socket_dir = false;  ///< the socket's folder is this data plane's alone: it goes (once empty) with it
  std::optional<TcpServerOptions> tcp;  ///< --listen: the same methods over the network
  std::string ptp_uds;                  ///< ptp4l's management socket to read the clock's state from; "": none
  /// Where a capture named by a file name (not a path) is written: the only place a
  /// controller over TCP may write (capture_methods.hpp).
  std::string capture_dir = std::string(kDefaultCaptureDir);
};

/// Serves until SIGINT, SIGTERM or SIGHUP. Returns the report of a run that was still
/// going at shutdown, if any.
Result<std::optional<RunReport>> serve(Engine& engine, const ServeOptions& options);

}  // namespace lr::dp
