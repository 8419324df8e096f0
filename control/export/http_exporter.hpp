#pragma once
// `linerate exporter`: an HTTP endpoint (Boost.Beast) serving /metrics for Prometheus.
// Each scrape asks the data plane over its control socket, so the page is as fresh as
// the scrape; a data plane that cannot be reached gives lr_up 0, not an HTTP error. Its
// loss and return are said once each on stderr (control/client/dataplane_watch.hpp).
// At most `max_connections` at once (503 beyond), each cut after `idle_timeout_s`
// without a whole request (docs/reference/limits.md).

#include <boost/asio/ip/tcp.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

#include "control/client/dataplane_address.hpp"
#include "control/http/connection_gate.hpp"

namespace lr::ctl {

struct ExporterOptions {
  std::string listen = "127.0.0.1:9477";  ///< address:port; port 0 picks a free one
  DataplaneAddress dataplane;             ///< the data plane it asks
  size_t max_connections = 64;            ///< served at once; one more is answered 503
  unsigned idle_timeout_s = 60;           ///< a request's header (and then its body) must arrive within this
};

/// Serves until SIGINT / SIGTERM. Prints "listening on ADDRESS:PORT" once bound.
/// Returns the exit code (2: bad --listen, or a --max-connections the process's file
/// limit cannot hold; 1: cannot bind).
int run_exporter(const ExporterOptions& options);

/// The /metrics page for the data plane at `dataplane`.
std::string scrape(const DataplaneAddress& dataplane);

/// What a metrics server answers GET /metrics with, and its name in other answers.
struct MetricsPage {
  std::string who;  ///< "linerate exporter"
  std::function<std::string()> text;  ///< called on the io thread, per scrape
};

struct MetricsServer {
  const MetricsPage& page;
  ConnectionGate& gate;
  std::chrono::seconds idle;  ///< a request must arrive within this
};

/// Accepts on `acceptor` (open, listening) until its io_context stops: GET /metrics answered
/// with the page, anything else 404 / 405, connections past the gate 503. `server` and its
/// page outlive the io_context's run.
void serve_metrics(boost::asio::ip::tcp::acceptor& acceptor, MetricsServer& server);

}  // namespace lr::ctl
