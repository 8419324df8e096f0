#include "control/http/request_reader.hpp"

namespace lr::ctl {

RequestParser& new_request_parser(std::optional<RequestParser>& slot, const RequestLimits& limits) {
  // A parser reads one message; emplace, as Beast's parsers are not reset.
  RequestParser& parser = slot.emplace();
  parser.body_limit(limits.body_bytes);
  parser.header_limit(static_cast<std::uint32_t>(limits.header_bytes));
  return parser;
}

boost::beast::error_code whole_header_error(size_t header_bytes, const RequestLimits& limits) {
  if (header_bytes > limits.header_bytes) return boost::beast::http::error::header_limit;
  return {};
}

}  // namespace lr::ctl
