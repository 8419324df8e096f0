#include "lib/net/listen_address.hpp"

#include <boost/asio/ip/address.hpp>
#include <fmt/format.h>

#include <charconv>

namespace lr::net {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

Result<tcp::endpoint> parse_listen_address(const std::string& text, std::string_view example) {
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0)
    return make_error(Errc::kInvalid,
                      fmt::format("--listen '{}': give ADDRESS:PORT (e.g. {}, or [::1]:PORT)", text, example));
  std::string host = text.substr(0, colon);
  const std::string port_text = text.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  unsigned port = 0;
  const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc() || end != port_text.data() + port_text.size() || port > 65535)
    return make_error(Errc::kInvalid,
                      fmt::format("--listen '{}': port '{}' is not a number from 0 to 65535", text, port_text));
  boost::system::error_code bad;
  const asio::ip::address address = asio::ip::make_address(host, bad);
  if (bad)
    return make_error(Errc::kInvalid, fmt::format("--listen '{}': '{}' is not an IP address (IPv6 goes in brackets: "
                                                  "[::1]:PORT)",
                                                  text, host));
  return tcp::endpoint(address, static_cast<uint16_t>(port));
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

}  // namespace lr::net
