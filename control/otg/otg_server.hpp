#pragma once
// `linerate otg serve`: the Open Traffic Generator API (models 1.60.0) over HTTPS (or
// plain HTTP) with JSON bodies (Boost.Beast), so snappi scripts drive the serving data
// plane: POST/GET /config, POST /control/state (traffic, links, captures), POST
// /monitor/metrics (flow and port metrics from linerate's exact counts), GET
// /capabilities/version. Clients are served at once on one thread, each request in turn
// through one control session; keep-alive. At most `max_connections` clients at once
// (503 beyond), each cut after `idle_timeout` without a request (docs/reference/limits.md).

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "control/client/dataplane_address.hpp"
#include "control/http/request_reader.hpp"
#include "control/otg/otg_limits.hpp"

namespace lr::otg {

/// What a request may hold: the server's parser and the fuzz target's (http_request_fuzz.cpp).
inline constexpr ctl::RequestLimits kRequestLimits{kMaxBodyBytes, kMaxHeaderBytes};
/// A body's deadline once its header has arrived: 64 MiB in 5 minutes is 1.8 Mbit/s.
inline constexpr std::chrono::seconds kBodyDeadline{300};

struct ServeOptions {
  std::string listen = "127.0.0.1:8443";  ///< ixia-c's port
  ctl::DataplaneAddress dataplane;        ///< the data plane it drives
  std::string locations_path;             ///< --locations: data planes by name, for ports by location
  bool plain_http = false;                ///< HTTP without TLS
  std::string tls_cert, tls_key;          ///< PEM files; none: a self-signed certificate made at start
  std::vector<std::string> tls_files;     ///< --tls CERT KEY as given
  std::string client_ca;                  ///< PEM CA file: clients must show a certificate it signed (mTLS)
  size_t max_connections = 256;           ///< served at once; one more is answered 503
  unsigned idle_timeout_s = 60;  ///< a connection without a request (or its whole header) this long is closed
};

/// Serves until SIGINT / SIGTERM; prints "listening on SCHEME://ADDRESS:PORT" once bound,
/// and to stderr a warning when other hosts can reach it without --client-ca.
/// Returns the exit code (2: bad --listen, --tls or --client-ca files, or a
/// --max-connections the process's file limit cannot hold; 1: cannot bind or reach the data plane).
int serve(const ServeOptions& options);

}  // namespace lr::otg
