#include "control/otg/otg_listening.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "lib/net/listen_address.hpp"

namespace lr::otg {

void say_listening(const boost::asio::ip::tcp::endpoint& bound, const ServeOptions& options,
                   const std::string& certificate, const char* api_version) {
  const std::string who =
      options.client_ca.empty() ? "" : "; clients must show a certificate signed by " + options.client_ca;
  const std::string transport =
      options.plain_http ? "plain HTTP" : fmt::format("TLS, certificate {}{}", certificate, who);
  std::printf("listening on %s://%s:%u (Open Traffic Generator %s, %s), data plane at %s\n",
              options.plain_http ? "http" : "https", bound.address().to_string().c_str(), bound.port(), api_version,
              transport.c_str(), options.dataplane.text().c_str());
  std::fflush(stdout);
}

void warn_if_exposed(const boost::asio::ip::tcp::endpoint& bound, const ServeOptions& options) {
  if (!options.client_ca.empty() || !net::reachable_from_other_hosts(bound)) return;
  std::fprintf(stderr,
               "linerate otg: listening on %s without --client-ca: anyone who can reach this host's port %u can "
               "configure and start traffic on the data plane's ports; %s, or listen on 127.0.0.1\n",
               net::endpoint_text(bound).c_str(), bound.port(),
               options.plain_http ? "serve TLS with --client-ca to require client certificates"
                                  : "give --client-ca to require client certificates");
}

}  // namespace lr::otg
