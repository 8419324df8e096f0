#pragma once
// How linerate's HTTP servers read one request: a Beast parser with the server's limits
// (the same function configures the server's parser and the fuzz target's,
// tests/fuzz/http_request_fuzz.cpp), the header under the idle deadline, the body under
// a longer one. A kept-alive connection with no request, and a header that has not
// fully arrived (a client trickling it a byte at a time), are cut at the idle deadline:
// Beast closes the socket, and the handler sees beast::error::timeout (no 408: the
// socket is gone).

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <chrono>
#include <cstddef>
#include <optional>
#include <utility>

namespace lr::ctl {

using RequestParser = boost::beast::http::request_parser<boost::beast::http::string_body>;

struct RequestLimits {
  size_t body_bytes;    ///< beyond it: http::error::body_limit (from the Content-Length, or as chunks pass it)
  size_t header_bytes;  ///< the request line and fields; beyond it: http::error::header_limit
};

struct RequestDeadlines {
  std::chrono::seconds idle;  ///< from the read's start to the header's end (`--idle-timeout`)
  std::chrono::seconds body;  ///< from the header's end to the body's
};

/// A new parser in `slot` (the last one's request is gone) with `limits`. Returns it.
RequestParser& new_request_parser(std::optional<RequestParser>& slot, const RequestLimits& limits);

/// Beast's header_limit bounds the request line and the fields each on its own (a header
/// of twice the limit passes: the fuzz target found it); the whole header, `header_bytes`
/// as the parser consumed it, is held to `limits.header_bytes` here. Returns
/// http::error::header_limit beyond it, else no error.
boost::beast::error_code whole_header_error(size_t header_bytes, const RequestLimits& limits);

/// Reads one request on `stream` (a beast::tcp_stream, or a TLS stream over one) into a
/// new parser in `slot` with `limits`, then calls `handler(error_code)`. `stream`,
/// `buffer` and `slot` must outlive the read: `handler` holds their owner.
template <class Stream, class Handler>
void async_read_request(Stream& stream, boost::beast::flat_buffer& buffer, std::optional<RequestParser>& slot,
                        const RequestLimits& limits, const RequestDeadlines& deadlines, Handler&& handler) {
  namespace beast = boost::beast;
  RequestParser& parser = new_request_parser(slot, limits);
  beast::get_lowest_layer(stream).expires_after(deadlines.idle);
  beast::http::async_read_header(
      stream, buffer, parser,
      [&stream, &buffer, &parser, limits, deadlines, handler = std::forward<Handler>(handler)](
          beast::error_code ec, size_t header_bytes) mutable {
        if (!ec) ec = whole_header_error(header_bytes, limits);
        if (ec || parser.is_done()) return handler(ec);
        beast::get_lowest_layer(stream).expires_after(deadlines.body);
        beast::http::async_read(
            stream, buffer, parser,
            [handler = std::move(handler)](beast::error_code body_ec, size_t) mutable { handler(body_ec); });
      });
}

}  // namespace lr::ctl
