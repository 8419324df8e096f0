// `linerate otg serve`: the Open Traffic Generator API for snappi scripts (control/otg).
#include "control/otg/otg_command.hpp"

#include <memory>
#include <string>

#include "control/otg/otg_server.hpp"

namespace lr::ctl {

void add_otg_command(CLI::App& app, Commands& commands) {
  auto* otg = app.add_subcommand("otg", "the Open Traffic Generator API (snappi) on the serving data plane");
  auto* serve = otg->add_subcommand("serve", "serve OTG 1.60.0 over HTTPS (or HTTP) until Ctrl-C");
  auto options = std::make_shared<otg::ServeOptions>();
  serve->add_option("--listen", options->listen, "ADDRESS:PORT to listen on (default 127.0.0.1:8443; port 0: any)");
  auto* plain = serve->add_flag("--http", options->plain_http, "plain HTTP instead of TLS");
  auto* tls = serve->add_option("--tls", options->tls_files,
                                "CERT KEY: PEM files to serve TLS with (default: a self-signed certificate, as "
                                "ixia-c; snappi connects with verify=False)")
                  ->expected(2);
  plain->excludes(tls);
  serve
      ->add_option("--locations", options->locations_path,
                   "as for run: names for the data planes the config's port locations (NAME;PORT) name; with it, no "
                   "data plane need serve on this host (default: $LINERATE_LOCATIONS)")
      ->envname("LINERATE_LOCATIONS");
  auto* client_ca = serve->add_option("--client-ca", options->client_ca,
                                      "FILE (PEM): require client certificates signed by these CAs (mutual TLS)");
  plain->excludes(client_ca);
  serve
      ->add_option("--max-connections", options->max_connections,
                   "connections served at once; one more is answered 503 (default 256)")
      ->check(CLI::Range(size_t{1}, size_t{65536}));
  serve
      ->add_option("--idle-timeout", options->idle_timeout_s,
                   "SECONDS: close a connection that sends no request, or not its whole header, this long "
                   "(default 60)")
      ->check(CLI::Range(1U, 3600U));
  otg->require_subcommand(1);
  commands.push_back(command_for(serve, [options](const GlobalOptions& global) {
    otg::ServeOptions o = *options;
    o.dataplane = global.dataplane();
    if (o.tls_files.size() == 2) {
      o.tls_cert = o.tls_files[0];
      o.tls_key = o.tls_files[1];
    }
    return otg::serve(o);
  }));
}

}  // namespace lr::ctl
