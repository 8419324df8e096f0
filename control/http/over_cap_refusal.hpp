#pragma once
// A connection over the server's cap (connection_gate.hpp), answered and closed without
// its request being read: over TLS the handshake first, then the server's 503 with
// Retry-After, then the close; all of it within kRefusalDeadline, so a client that
// stalls does not keep the refusal's socket. Over plain TCP the answer is followed by a
// FIN and the unread request is drained until the client closes (or the deadline): a close
// with unread bytes would send a reset, which can reach the client before the 503.

#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <array>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "control/http/connection_gate.hpp"

namespace lr::ctl {

/// 503 with Retry-After and `body` of `content_type`, closing the connection.
boost::beast::http::response<boost::beast::http::string_body> over_cap_response(const char* content_type,
                                                                                std::string body);

/// Answers `response` on `stream` (a beast::tcp_stream, or a TLS stream over one) and
/// closes it; `ticket` holds the refusal's place in the gate until then.
template <class Stream>
class OverCapRefusal : public std::enable_shared_from_this<OverCapRefusal<Stream>> {
 public:
  OverCapRefusal(Stream stream, ConnectionGate::Ticket ticket,
                 boost::beast::http::response<boost::beast::http::string_body> response)
      : stream_(std::move(stream)), ticket_(std::move(ticket)), response_(std::move(response)) {}

  void start() {
    namespace beast = boost::beast;
    beast::get_lowest_layer(stream_).expires_after(kRefusalDeadline);  // the whole refusal
    if constexpr (kTls) {
      stream_.async_handshake(boost::asio::ssl::stream_base::server,
                              [self = this->shared_from_this()](beast::error_code ec) {
                                if (!ec) self->write();
                              });
    } else {
      write();
    }
  }

 private:
  static constexpr bool kTls = !std::is_same_v<Stream, boost::beast::tcp_stream>;

  void write() {
    namespace beast = boost::beast;
    beast::http::async_write(stream_, response_, [self = this->shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return;
      if constexpr (kTls) {
        self->stream_.async_shutdown([self](beast::error_code) {});
      } else {
        beast::error_code ignored;
        self->stream_.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ignored);
        self->drain();
      }
    });
  }

  void drain() {
    namespace beast = boost::beast;
    stream_.async_read_some(boost::asio::buffer(scratch_),
                            [self = this->shared_from_this()](beast::error_code ec, size_t) {
                              if (!ec) self->drain();
                            });
  }

  Stream stream_;
  ConnectionGate::Ticket ticket_;
  boost::beast::http::response<boost::beast::http::string_body> response_;
  std::array<char, 4096> scratch_{};  ///< the unread request, discarded
};

/// Refuses `stream` with `response` (from over_cap_response), or closes it at once when
/// the gate said kDrop (its socket closes as `stream` goes).
template <class Stream>
void refuse_over_cap(Stream stream, ConnectionGate::Entry entry,
                     boost::beast::http::response<boost::beast::http::string_body> response) {
  if (entry.verdict != ConnectionGate::Verdict::kRefuse) return;
  std::make_shared<OverCapRefusal<Stream>>(std::move(stream), std::move(entry.ticket), std::move(response))->start();
}

}  // namespace lr::ctl
