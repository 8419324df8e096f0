#pragma once
// What `linerate otg serve` says once it listens: the "listening on" line (the scheme,
// the address, the certificate and who may connect), and on stderr, when other hosts can
// reach it and no client certificate is asked, who can now drive the tester.

#include <boost/asio/ip/tcp.hpp>

#include <string>

#include "control/otg/otg_server.hpp"

namespace lr::otg {

/// "listening on https://127.0.0.1:8443 (Open Traffic Generator 1.60.0, TLS, certificate
/// CERT; clients must show a certificate signed by FILE), data plane at SOCKET" on stdout.
void say_listening(const boost::asio::ip::tcp::endpoint& bound, const ServeOptions& options,
                   const std::string& certificate, const char* api_version);

/// On stderr, bound where other hosts can reach it without --client-ca: "linerate otg:
/// listening on 0.0.0.0:8443 without --client-ca: anyone who can reach this host's port
/// 8443 can configure and start traffic on the data plane's ports; ...". Else nothing.
void warn_if_exposed(const boost::asio::ip::tcp::endpoint& bound, const ServeOptions& options);

}  // namespace lr::otg
