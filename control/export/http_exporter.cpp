#include "control/export/http_exporter.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <fmt/format.h>

#include <charconv>
#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>

#include "control/client/dataplane_client.hpp"
#include "control/client/dataplane_watch.hpp"
#include "control/client/host_client.hpp"
#include "control/client/port_client.hpp"
#include "control/client/run_client.hpp"
#include "control/http/connection_gate.hpp"
#include "control/http/http_listener.hpp"
#include "control/http/over_cap_refusal.hpp"
#include "control/http/request_reader.hpp"
#include "control/views/prometheus.hpp"

namespace lr::ctl {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

// The exporter's watch of its data plane, shared by the scrapes and the background tries
// (all on the one io thread). One exporter per process, one socket.
DataplaneWatch& watch_of(const DataplaneAddress& dataplane) {
  static DataplaneWatch watch(dataplane.text(), {"linerate exporter", "serving lr_up 0 and retrying with backoff", ""});
  return watch;
}

// A try: the data plane answers a connection (each scrape opens its own).
void probe(const DataplaneAddress& dataplane) { DataplaneClient client(dataplane); }

}  // namespace

std::string scrape(const DataplaneAddress& dataplane) {
  DataplaneWatch& watch = watch_of(dataplane);
  try {
    // A scrape while away is a try too: Prometheus sees it back at the next scrape, read
    // through the try's own connection.
    std::optional<DataplaneClient> connected;
    if (!watch.up()) watch.retry([&] { connected.emplace(dataplane); }, DataplaneWatch::Clock::now());
    DataplaneClient& client = connected ? *connected : connected.emplace(dataplane);
    RunClient run(client);
    Scrape scrape;
    scrape.ports = run.port_stats();
    scrape.streams = run.stream_stats();
    for (const api::PortReport& p : scrape.ports) {
      try {
        scrape.counters[p.name] = PortClient(client).counters(p.name);
      } catch (const RpcCallError&) {
        // A port whose counters cannot be read still has its other metrics.
      }
    }
    try {
      scrape.switches = run.switch_stats();
    } catch (const RpcCallError&) {
      // A data plane without the method has no switch to show.
    }
    try {
      scrape.captures = run.captures();
    } catch (const RpcCallError&) {
      // Nor one without captures a capture.
    }
    try {
      scrape.neighbors = HostClient(client).neighbors();
    } catch (const RpcCallError&) {
      // Nor one without emulated hosts a host.
    }
    return prometheus_text(scrape);
  } catch (const ConnectionError& e) {
    watch.lost(e.what(), DataplaneWatch::Clock::now());
    return prometheus_down_text();
  } catch (const std::exception&) {
    return prometheus_down_text();
  }
}

namespace {

// A request of the exporter: a scrape is a bare GET; Beast's own defaults, named.
constexpr RequestLimits kRequestLimits{1024 * 1024, 8 * 1024};

// One HTTP connection: read a request, answer it, close (scrapers reconnect cheaply).
// Holds its place in the exporter's gate while it lives.
class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket socket, const MetricsPage& page, ConnectionGate::Ticket ticket, std::chrono::seconds idle)
      : stream_(std::move(socket)), page_(page), ticket_(std::move(ticket)), idle_(idle) {}

  // The header within the idle timeout, then the body (if any) within as long again.
  void start() {
    async_read_request(stream_, buffer_, parser_, kRequestLimits, {idle_, idle_},
                       [self = shared_from_this()](beast::error_code ec) { self->answer(ec); });
  }

 private:
  void answer(beast::error_code ec) {
    if (ec) return;
    const http::request<http::string_body>& request = parser_->get();
    response_.version(request.version());
    response_.keep_alive(false);
    if (request.method() != http::verb::get && request.method() != http::verb::head) {
      response_.result(http::status::method_not_allowed);
      response_.set(http::field::content_type, "text/plain");
      response_.body() = "only GET /metrics\n";
    } else if (request.target() == "/metrics") {
      response_.result(http::status::ok);
      response_.set(http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
      response_.body() = page_.text();
    } else {
      response_.result(http::status::not_found);
      response_.set(http::field::content_type, "text/plain");
      response_.body() = page_.who + ": metrics are at /metrics\n";
    }
    response_.prepare_payload();
    stream_.expires_after(idle_);
    http::async_write(stream_, response_, [self = shared_from_this()](beast::error_code, size_t) {
      beast::error_code ignored;
      self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    });
  }

  beast::tcp_stream stream_;
  const MetricsPage& page_;  ///< the server's, which outlives every session
  ConnectionGate::Ticket ticket_;
  std::chrono::seconds idle_;
  beast::flat_buffer buffer_;
  std::optional<RequestParser> parser_;
  http::response<http::string_body> response_;
};

// Served while the gate has room, else 503 with the reason in text, or (past the
// refusals' bound too) closed at once.
void admit(MetricsServer& server, tcp::socket socket) {
  ConnectionGate::Entry entry = server.gate.enter();
  if (entry.verdict == ConnectionGate::Verdict::kServe) {
    std::make_shared<HttpSession>(std::move(socket), server.page, std::move(entry.ticket), server.idle)->start();
  } else if (entry.verdict == ConnectionGate::Verdict::kRefuse) {
    auto response = over_cap_response("text/plain", server.page.who + ": " + server.gate.refusal_text() + "\n");
    refuse_over_cap(beast::tcp_stream(std::move(socket)), std::move(entry), std::move(response));
  }
}

}  // namespace

void serve_metrics(tcp::acceptor& acceptor, MetricsServer& server) {
  acceptor.async_accept([&acceptor, &server](beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted) return;
    if (!ec) admit(server, std::move(socket));
    serve_metrics(acceptor, server);
  });
}

int run_exporter(const ExporterOptions& options) {
  if (const std::string error = reserve_descriptors(options.max_connections); !error.empty()) {
    std::fprintf(stderr, "linerate: %s\n", error.c_str());
    return 2;
  }
  ConnectionGate gate(options.max_connections);  // before the io_context, whose end ends the sessions
  asio::io_context io;
  tcp::acceptor acceptor(io);
  if (const int code = open_listener(acceptor, options.listen, "127.0.0.1:9477"); code != 0) return code;
  const tcp::endpoint bound = acceptor.local_endpoint();
  std::printf("listening on %s:%u (metrics at /metrics), data plane at %s\n", bound.address().to_string().c_str(),
              bound.port(), options.dataplane.text().c_str());
  std::fflush(stdout);
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const beast::error_code&, int) { io.stop(); });
  const MetricsPage page{"linerate exporter", [&] { return scrape(options.dataplane); }};
  MetricsServer server{page, gate, std::chrono::seconds(options.idle_timeout_s)};
  serve_metrics(acceptor, server);
  // Lost and back are said without a scrape to find them.
  const BackgroundRetry retry(
      io, watch_of(options.dataplane),
      {.connect = [&] { probe(options.dataplane); }, .check = [&] { probe(options.dataplane); }});
  io.run();
  return 0;
}

}  // namespace lr::ctl
