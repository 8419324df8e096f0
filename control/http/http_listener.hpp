#pragma once
// The listening socket of linerate's HTTP servers (the exporter, the OTG server), from
// `--listen ADDRESS:PORT` ("127.0.0.1:9477", "[::1]:8443"; port 0 picks a free one).

#include <boost/asio/ip/tcp.hpp>

#include <string>

namespace lr::ctl {

/// Opens, binds and listens `acceptor` on `listen`. Returns 0, or the exit code after
/// saying why: 2 (not ADDRESS:PORT, `example` shows one), 1 (cannot bind).
int open_listener(boost::asio::ip::tcp::acceptor& acceptor, const std::string& listen, const char* example);

}  // namespace lr::ctl
