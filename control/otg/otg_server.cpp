#include "control/otg/otg_server.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <type_traits>

#include "control/client/location_map.hpp"
#include "control/http/connection_gate.hpp"
#include "control/http/http_listener.hpp"
#include "control/http/over_cap_refusal.hpp"
#include "control/http/request_reader.hpp"
#include "control/http/tls_context.hpp"
#include "control/otg/otg_api.hpp"
#include "control/otg/otg_limits.hpp"
#include "control/otg/otg_listening.hpp"

namespace lr::otg {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using nlohmann::json;

namespace {

// What every connection shares; it outlives them all (serve()'s io_context runs inside its life).
struct Server {
  Api& api;
  ctl::ConnectionGate& gate;
  ctl::RequestDeadlines deadlines;
  asio::ssl::context* tls;  ///< none: plain HTTP
};

// One HTTP connection, kept alive: requests answered in turn. Over TLS the handshake
// comes first (within the idle timeout) and a close notify last. Holds its place in the
// server's gate while it lives.
template <class Stream>
class Connection : public std::enable_shared_from_this<Connection<Stream>> {
 public:
  template <class... Args>
  Connection(Server& server, ctl::ConnectionGate::Ticket ticket, Args&&... args)
      : stream_(std::forward<Args>(args)...), server_(server), ticket_(std::move(ticket)) {}

  void start() {
    if constexpr (kTls) {
      beast::get_lowest_layer(stream_).expires_after(server_.deadlines.idle);
      stream_.async_handshake(asio::ssl::stream_base::server, [self = this->shared_from_this()](beast::error_code ec) {
        if (!ec) self->read();
      });
    } else {
      read();
    }
  }

 private:
  static constexpr bool kTls = !std::is_same_v<Stream, beast::tcp_stream>;

  void read() {
    ctl::async_read_request(stream_, buffer_, parser_, kRequestLimits, server_.deadlines,
                            [self = this->shared_from_this()](beast::error_code ec) { self->on_request(ec); });
  }

  // A timeout (no request, or its header not all there, within the idle timeout; its body
  // not within kBodyDeadline) leaves nothing to answer: Beast closed the socket.
  void on_request(beast::error_code ec) {
    if (!ec) answer();
    else if (ec == http::error::body_limit) refuse_body();
    else if (ec == http::error::header_limit)
      send(refused({fmt::format("the request's header exceeds linerate's limit of {} bytes", kMaxHeaderBytes)},
                   http::status::request_header_fields_too_large),
           11, false);
    else if (ec == http::error::end_of_stream) close();
  }

  void answer() {
    const http::request<http::string_body>& request = parser_->get();
    send(server_.api.handle(request.method(), std::string(request.target()), request.body()), request.version(),
         request.keep_alive());
  }

  // A body over the limit: answered 413 from its header (or once the chunks pass the
  // limit), unread, and the connection closed (the rest of the body is not read).
  void refuse_body() {
    const auto length = parser_->content_length();
    send(refused({fmt::format("the body{} exceeds linerate's limit of {} bytes",
                              length ? fmt::format(" of {} bytes", *length) : std::string(), kMaxBodyBytes)},
                 http::status::payload_too_large),
         parser_->get().version(), false);
  }

  void send(const Answer& a, unsigned version, bool keep_alive) {
    response_ = {};
    response_.version(version);
    response_.keep_alive(keep_alive);
    response_.result(a.status);
    response_.set(http::field::content_type, a.bytes ? "application/octet-stream" : "application/json");
    response_.body() = a.bytes ? *a.bytes : a.body.dump();
    response_.prepare_payload();
    beast::get_lowest_layer(stream_).expires_after(kBodyDeadline);  // a capture file to a slow client
    http::async_write(stream_, response_, [self = this->shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return;
      if (self->response_.keep_alive()) self->read();
      else self->close();
    });
  }

  void close() {
    if constexpr (kTls) {
      beast::get_lowest_layer(stream_).expires_after(server_.deadlines.idle);  // the peer's close notify
      stream_.async_shutdown([self = this->shared_from_this()](beast::error_code) {});
    } else {
      beast::error_code ignored;
      stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    }
  }

  Stream stream_;
  Server& server_;
  ctl::ConnectionGate::Ticket ticket_;
  beast::flat_buffer buffer_;
  std::optional<ctl::RequestParser> parser_;  ///< a new one for each request
  http::response<http::string_body> response_;
};

using TlsStream = asio::ssl::stream<beast::tcp_stream>;

// A connection just accepted: served while the gate has room, else answered 503 in
// OTG's error body ("linerate holds at most N connections at once; M are open"), or,
// past the refusals' bound too, closed at once.
void admit(Server& server, tcp::socket socket) {
  ctl::ConnectionGate::Entry entry = server.gate.enter();
  switch (entry.verdict) {
    case ctl::ConnectionGate::Verdict::kServe:
      if (server.tls != nullptr) {
        std::make_shared<Connection<TlsStream>>(server, std::move(entry.ticket), std::move(socket), *server.tls)
            ->start();
      } else {
        std::make_shared<Connection<beast::tcp_stream>>(server, std::move(entry.ticket), std::move(socket))->start();
      }
      return;
    case ctl::ConnectionGate::Verdict::kRefuse: {
      auto response = ctl::over_cap_response(
          "application/json", refused({server.gate.refusal_text()}, http::status::service_unavailable).body.dump());
      if (server.tls != nullptr) {
        ctl::refuse_over_cap(TlsStream(std::move(socket), *server.tls), std::move(entry), std::move(response));
      } else {
        ctl::refuse_over_cap(beast::tcp_stream(std::move(socket)), std::move(entry), std::move(response));
      }
      return;
    }
    case ctl::ConnectionGate::Verdict::kDrop: return;  // `socket` closes as it goes
  }
}

// Accepts connections for ever.
void accept_loop(tcp::acceptor& acceptor, Server& server) {
  acceptor.async_accept([&acceptor, &server](beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted) return;
    if (!ec) admit(server, std::move(socket));
    accept_loop(acceptor, server);
  });
}

// The data planes the API drives; none (said) where --locations is not a location map.
std::optional<Dataplanes> dataplanes_of(const ServeOptions& options) {
  Dataplanes dataplanes;
  dataplanes.served = options.dataplane;
  if (options.locations_path.empty()) return dataplanes;
  auto names = ctl::read_location_map(options.locations_path);
  if (!names) {
    std::fprintf(stderr, "linerate: %s\n", names.error().context.c_str());
    return std::nullopt;
  }
  dataplanes.names = std::move(*names);
  dataplanes.served_optional = true;  // its ports are named by location: none need be served here
  return dataplanes;
}

}  // namespace

int serve(const ServeOptions& options) {
  const std::optional<Dataplanes> dataplanes = dataplanes_of(options);
  if (!dataplanes) return 2;
  if (const std::string error = ctl::reserve_descriptors(options.max_connections); !error.empty()) {
    std::fprintf(stderr, "linerate: %s\n", error.c_str());
    return 2;
  }
  // Before the io_context: the connections its destructor ends give their tickets back.
  ctl::ConnectionGate gate(options.max_connections);
  asio::io_context io;
  tcp::acceptor acceptor(io);
  if (const int code = ctl::open_listener(acceptor, options.listen, "127.0.0.1:8443"); code != 0) return code;
  // The captures' files, for /monitor/capture; gone when the server ends.
  char dir_template[] = "/tmp/linerate-otg-XXXXXX";
  if (::mkdtemp(dir_template) == nullptr) {
    std::fprintf(stderr, "linerate: cannot create a directory for the captures: %s\n", std::strerror(errno));
    return 1;
  }
  struct RemoveDir {
    std::string path;
    ~RemoveDir() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  } remove_dir{dir_template};
  ctl::TlsContext tls;
  if (!options.plain_http) {
    tls = ctl::make_tls_context(options.tls_cert, options.tls_key, options.client_ca);
    if (!tls.context) {
      std::fprintf(stderr, "linerate: %s\n", tls.error.c_str());
      return tls.bad_file ? 2 : 1;
    }
  }
  Api api(*dataplanes, remove_dir.path, io);
  const tcp::endpoint bound = acceptor.local_endpoint();
  warn_if_exposed(bound, options);  // before the line a client waits for
  say_listening(bound, options, tls.certificate, kApiSpecVersion);
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const beast::error_code&, int) { io.stop(); });
  const std::chrono::seconds idle(options.idle_timeout_s);
  Server server{api, gate, {idle, kBodyDeadline}, tls.context ? &*tls.context : nullptr};
  accept_loop(acceptor, server);
  io.run();
  return 0;
}

}  // namespace lr::otg
