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

#include "control/client/dataplane_client.hpp"
#include "control/client/dataplane_watch.hpp"
#include "control/client/port_client.hpp"
#include "control/client/run_client.hpp"
#include "control/http/http_listener.hpp"
#include "control/views/prometheus.hpp"

namespace lr::ctl {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

// The exporter's watch of its data plane, shared by the scrapes and the background tries
// (all on the one io thread). One exporter per process, one socket.
DataplaneWatch& watch_of(const std::string& socket) {
  static DataplaneWatch watch(socket, {"linerate exporter", "serving lr_up 0 and retrying with backoff", ""});
  return watch;
}

// A try: the data plane answers a connection (each scrape opens its own).
void probe(const std::string& socket) { DataplaneClient client(socket); }

}  // namespace

std::string scrape(const std::string& socket) {
  DataplaneWatch& watch = watch_of(socket);
  try {
    // A scrape while away is a try too: Prometheus sees it back at the next scrape.
    if (!watch.up()) watch.retry([&] { probe(socket); }, DataplaneWatch::Clock::now());
    DataplaneClient client(socket);
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
    return prometheus_text(scrape);
  } catch (const ConnectionError& e) {
    watch.lost(e.what(), DataplaneWatch::Clock::now());
    return prometheus_down_text();
  } catch (const std::exception&) {
    return prometheus_down_text();
  }
}

namespace {

// One HTTP connection: read a request, answer it, close (scrapers reconnect cheaply).
class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket socket, std::string dataplane_socket)
      : stream_(std::move(socket)), dataplane_socket_(std::move(dataplane_socket)) {}

  void start() {
    stream_.expires_after(std::chrono::seconds(10));
    http::async_read(stream_, buffer_, request_,
                     [self = shared_from_this()](beast::error_code ec, size_t) { self->answer(ec); });
  }

 private:
  void answer(beast::error_code ec) {
    if (ec) return;
    response_.version(request_.version());
    response_.keep_alive(false);
    if (request_.method() != http::verb::get && request_.method() != http::verb::head) {
      response_.result(http::status::method_not_allowed);
      response_.set(http::field::content_type, "text/plain");
      response_.body() = "only GET /metrics\n";
    } else if (request_.target() == "/metrics") {
      response_.result(http::status::ok);
      response_.set(http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
      response_.body() = scrape(dataplane_socket_);
    } else {
      response_.result(http::status::not_found);
      response_.set(http::field::content_type, "text/plain");
      response_.body() = "linerate exporter: metrics are at /metrics\n";
    }
    response_.prepare_payload();
    http::async_write(stream_, response_, [self = shared_from_this()](beast::error_code, size_t) {
      beast::error_code ignored;
      self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    });
  }

  beast::tcp_stream stream_;
  std::string dataplane_socket_;
  beast::flat_buffer buffer_;
  http::request<http::string_body> request_;
  http::response<http::string_body> response_;
};

void accept_loop(tcp::acceptor& acceptor, const std::string& dataplane_socket) {
  acceptor.async_accept([&acceptor, &dataplane_socket](beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted) return;
    if (!ec) std::make_shared<HttpSession>(std::move(socket), dataplane_socket)->start();
    accept_loop(acceptor, dataplane_socket);
  });
}

}  // namespace

int run_exporter(const ExporterOptions& options) {
  asio::io_context io;
  tcp::acceptor acceptor(io);
  if (const int code = open_listener(acceptor, options.listen, "127.0.0.1:9477"); code != 0) return code;
  const tcp::endpoint bound = acceptor.local_endpoint();
  std::printf("listening on %s:%u (metrics at /metrics), data plane at %s\n", bound.address().to_string().c_str(),
              bound.port(), options.socket.c_str());
  std::fflush(stdout);
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const beast::error_code&, int) { io.stop(); });
  accept_loop(acceptor, options.socket);
  // Lost and back are said without a scrape to find them.
  const BackgroundRetry retry(io, watch_of(options.socket),
                              {.connect = [&] { probe(options.socket); }, .check = [&] { probe(options.socket); }});
  io.run();
  return 0;
}

}  // namespace lr::ctl
