#include "control/http/over_cap_refusal.hpp"

namespace lr::ctl {

boost::beast::http::response<boost::beast::http::string_body> over_cap_response(const char* content_type,
                                                                                std::string body) {
  namespace http = boost::beast::http;
  http::response<http::string_body> response{http::status::service_unavailable, 11};
  response.set(http::field::retry_after, std::to_string(kRetryAfterSeconds));
  response.set(http::field::content_type, content_type);
  response.keep_alive(false);
  response.body() = std::move(body);
  response.prepare_payload();
  return response;
}

}  // namespace lr::ctl
