#pragma once
// `linerate otg serve`: the Open Traffic Generator API (models 1.60.0) over HTTP/1.1 with
// JSON bodies (Boost.Beast), so snappi scripts drive the serving data plane: POST/GET
// /config, POST /control/state (traffic start / stop), POST /monitor/metrics (flow and
// port metrics from linerate's exact counts), GET /capabilities/version. One control
// session serves every HTTP client in turn; keep-alive.

#include <string>

namespace lr::otg {

struct ServeOptions {
  std::string listen = "127.0.0.1:8443";  ///< ixia-c's port; plain HTTP
  std::string socket;                     ///< the data plane's control socket
};

/// Serves until SIGINT / SIGTERM; prints "listening on ADDRESS:PORT" once bound. Returns
/// the exit code (2: bad --listen, 1: cannot bind or reach the data plane).
int serve(const ServeOptions& options);

}  // namespace lr::otg
