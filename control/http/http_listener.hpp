#pragma once
// The listening socket of linerate's HTTP servers (the exporter, the OTG server), from
// `--listen ADDRESS:PORT` ("127.0.0.1:9477", "[::1]:8443"; port 0 picks a free one).

#include <boost/asio/ip/tcp.hpp>

#include <string>

namespace lr::ctl {

/// Opens, binds and listens `acceptor` on `listen`. Returns 0, or the exit code after
/// saying why: 2 (not ADDRESS:PORT, `example` shows one), 1 (cannot bind).
int open_listener(boost::asio::ip::tcp::acceptor& acceptor, const std::string& listen, const char* example);

/// Whether other hosts may reach `endpoint`: any address but a loopback one (0.0.0.0,
/// ::, a LAN address; ::ffff:127.0.0.1 is loopback).
bool reachable_from_other_hosts(const boost::asio::ip::tcp::endpoint& endpoint);

/// `endpoint` as ADDRESS:PORT, an IPv6 address in brackets ("[::]:8443").
std::string endpoint_text(const boost::asio::ip::tcp::endpoint& endpoint);

}  // namespace lr::ctl
