#pragma once
// A server's `--listen ADDRESS:PORT` ("127.0.0.1:9477", "[::1]:8443"; port 0 picks a free
// one), shared by the data plane's control over TCP and linerate's HTTP servers (the
// exporter, the OTG server), and how a bound endpoint is said and judged.

#include <boost/asio/ip/tcp.hpp>

#include <string>
#include <string_view>

#include "lib/common/result.hpp"

namespace lr::net {

/// `text` as an endpoint: an IP address (IPv6 in brackets) and a port from 0 to 65535.
/// Errors (kInvalid) name the option and the part that is wrong; `example` shows a good one.
Result<boost::asio::ip::tcp::endpoint> parse_listen_address(const std::string& text, std::string_view example);

/// Whether other hosts may reach `endpoint`: any address but a loopback one (0.0.0.0,
/// ::, a LAN address; ::ffff:127.0.0.1 is loopback).
bool reachable_from_other_hosts(const boost::asio::ip::tcp::endpoint& endpoint);

/// `endpoint` as ADDRESS:PORT, an IPv6 address in brackets ("[::]:8443").
std::string endpoint_text(const boost::asio::ip::tcp::endpoint& endpoint);

}  // namespace lr::net
