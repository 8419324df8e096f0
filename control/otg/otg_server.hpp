#pragma once
// `linerate otg serve`: the Open Traffic Generator API (models 1.60.0) over HTTPS (or
// plain HTTP) with JSON bodies (Boost.Beast), so snappi scripts drive the serving data
// plane: POST/GET /config, POST /control/state (traffic, links, captures), POST
// /monitor/metrics (flow and port metrics from linerate's exact counts), GET
// /capabilities/version. Clients are served at once on one thread, each request in turn
// through one control session; keep-alive.

#include <string>
#include <vector>

namespace lr::otg {

struct ServeOptions {
  std::string listen = "127.0.0.1:8443";  ///< ixia-c's port
  std::string socket;                     ///< the data plane's control socket
  bool plain_http = false;                ///< HTTP without TLS
  std::string tls_cert, tls_key;          ///< PEM files; none: a self-signed certificate made at start
  std::vector<std::string> tls_files;     ///< --tls CERT KEY as given
};

/// Serves until SIGINT / SIGTERM; prints "listening on SCHEME://ADDRESS:PORT" once bound.
/// Returns the exit code (2: bad --listen or --tls files, 1: cannot bind or reach the data plane).
int serve(const ServeOptions& options);

}  // namespace lr::otg
