#include "control/http/http_listener.hpp"

#include <boost/asio/ip/address.hpp>
#include <charconv>
#include <cstdio>

namespace lr::ctl {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

int open_listener(tcp::acceptor& acceptor, const std::string& listen, const char* example) {
  const size_t colon = listen.rfind(':');
  unsigned port = 0;
  const char* port_begin = listen.data() + colon + 1;
  const char* port_end = listen.data() + listen.size();
  if (colon == std::string::npos || std::from_chars(port_begin, port_end, port).ptr != port_end || port > 65535) {
    std::fprintf(stderr, "linerate: --listen '%s' is not ADDRESS:PORT (e.g. %s)\n", listen.c_str(), example);
    return 2;
  }
  std::string host = listen.substr(0, colon);
  if (host.size() > 1 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  boost::system::error_code ec;
  const asio::ip::address address = asio::ip::make_address(host, ec);
  if (ec) {
    std::fprintf(stderr, "linerate: --listen '%s': '%s' is not an IP address\n", listen.c_str(), host.c_str());
    return 2;
  }
  const tcp::endpoint endpoint(address, static_cast<uint16_t>(port));
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

bool reachable_from_other_hosts(const tcp::endpoint& endpoint) {
  const asio::ip::address address = endpoint.address();
  if (address.is_v6() && address.to_v6().is_v4_mapped())
    return !asio::ip::make_address_v4(asio::ip::v4_mapped, address.to_v6()).is_loopback();
  return !address.is_loopback();
}

std::string endpoint_text(const tcp::endpoint& endpoint) {
  const std::string address = endpoint.address().to_string();
  return (endpoint.address().is_v6() ? "[" + address + "]" : address) + ":" + std::to_string(endpoint.port());
}

}  // namespace lr::ctl
