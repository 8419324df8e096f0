#include "control/http/http_listener.hpp"

#include <cstdio>

#include "lib/net/listen_address.hpp"

namespace lr::ctl {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

int open_listener(tcp::acceptor& acceptor, const std::string& listen, const char* example) {
  const auto parsed = net::parse_listen_address(listen, example);
  if (!parsed) {
    std::fprintf(stderr, "linerate: %s\n", parsed.error().context.c_str());
    return 2;
  }
  const tcp::endpoint& endpoint = *parsed;
  boost::system::error_code ec;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    std::fprintf(stderr, "linerate: cannot listen on %s: %s\n", listen.c_str(), ec.message().c_str());
    return 1;
  }
  return 0;
}

}  // namespace lr::ctl
