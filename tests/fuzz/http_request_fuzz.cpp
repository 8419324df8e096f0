// libFuzzer target: any bytes as what a client sends `linerate otg serve`, read by the
// parser the server reads each request with (ctl::new_request_parser with
// otg::kRequestLimits), the bytes arriving in pieces as a socket delivers them: the first
// byte is the piece's size (0: all at once). Requests follow each other as on a kept-alive
// connection, a new parser each, the bytes after one request the next's, until one that
// does not keep the connection alive; the end of the input is the client's close.
// Every input ends in requests, a refusal the server answers (body_limit: 413,
// header_limit: 431) or a parse error it closes on; never a crash, a hang or a leak.
// A request read holds its limits: its header (measured in the bytes sent, apart from the
// parser) within kMaxHeaderBytes, its body within kMaxBodyBytes and, given a
// Content-Length, of exactly that length. (The header check found that Beast's
// header_limit bounds the request line and the fields each on its own: the server now
// holds the whole header to the limit, ctl::whole_header_error.)

#include <boost/asio/buffer.hpp>
#include <boost/beast/http.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "control/http/request_reader.hpp"
#include "control/otg/otg_server.hpp"

namespace {

namespace http = boost::beast::http;
using lr::ctl::RequestParser;

// The request `parser` read from `message` (the bytes sent from its first on), checked
// against the limits; false: the connection closes after it.
bool check_request(const RequestParser& parser, std::string_view message) {
  const size_t header_end = message.find("\r\n\r\n");  // Beast takes CRLF line ends only
  if (header_end == std::string_view::npos || header_end + 4 > lr::otg::kMaxHeaderBytes) __builtin_trap();
  const http::request<http::string_body>& request = parser.get();
  if (request.body().size() > lr::otg::kMaxBodyBytes) __builtin_trap();
  if (const auto length = parser.content_length(); length && !parser.chunked() && *length != request.body().size())
    __builtin_trap();
  return request.keep_alive();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view sent(reinterpret_cast<const char*>(data) + 1, size - 1);
  const size_t piece = data[0] == 0 ? sent.size() : data[0];
  std::optional<RequestParser> slot;
  RequestParser* parser = &lr::ctl::new_request_parser(slot, lr::otg::kRequestLimits);
  std::string received;  // arrived, not yet parsed (Beast's flat_buffer)
  size_t delivered = 0;
  size_t parsed = 0;          // bytes of `sent` the parsers consumed
  size_t message_start = 0;   // where the request being read began in `sent`
  while (delivered < sent.size()) {
    const std::string_view next = sent.substr(delivered, piece);
    received.append(next);
    delivered += next.size();
    while (!received.empty()) {
      boost::beast::error_code ec;
      const bool header_done = parser->is_header_done();
      const size_t used = parser->put(boost::asio::buffer(received), ec);
      received.erase(0, used);
      parsed += used;
      if (ec == http::error::need_more) break;
      if (!ec && !header_done && parser->is_header_done()) {
        ec = lr::ctl::whole_header_error(parsed - message_start, lr::otg::kRequestLimits);  // as the server
        parser->eager(true);  // as Beast's read of the body
      }
      if (ec) return 0;  // refused (413, 431) or malformed: the server answers or closes
      if (!parser->is_done()) {
        if (used == 0) break;  // nothing more to parse until more arrives
        continue;
      }
      if (!check_request(*parser, sent.substr(message_start, parsed - message_start))) return 0;
      parser = &lr::ctl::new_request_parser(slot, lr::otg::kRequestLimits);
      message_start = parsed;
    }
  }
  // The client closes: a body without a length ends here, anything else is cut short.
  boost::beast::error_code ec;
  if (parser->got_some()) parser->put_eof(ec);
  if (!ec && parser->is_done()) check_request(*parser, sent.substr(message_start));
  return 0;
}
