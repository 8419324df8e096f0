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
  otg->require_subcommand(1);
  commands.push_back(command_for(serve, [options](const GlobalOptions& global) {
    otg::ServeOptions o = *options;
    o.socket = default_socket_path(global.socket);
    if (o.tls_files.size() == 2) {
      o.tls_cert = o.tls_files[0];
      o.tls_key = o.tls_files[1];
    }
    return otg::serve(o);
  }));
}

}  // namespace lr::ctl
