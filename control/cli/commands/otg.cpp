// `linerate otg serve`: the Open Traffic Generator API for snappi scripts (control/otg).
#include <memory>
#include <string>

#include "control/cli/commands/commands.hpp"
#include "control/otg/otg_server.hpp"

namespace lr::ctl {

void add_otg_command(CLI::App& app, Commands& commands) {
  auto* otg = app.add_subcommand("otg", "the Open Traffic Generator API (snappi) on the serving data plane");
  auto* serve = otg->add_subcommand("serve", "serve OTG 1.60.0 over HTTP until Ctrl-C");
  auto options = std::make_shared<otg::ServeOptions>();
  serve->add_option("--listen", options->listen, "ADDRESS:PORT to listen on (default 127.0.0.1:8443; port 0: any)");
  auto http = std::make_shared<bool>(true);
  serve->add_flag("--http", *http, "plain HTTP (the only transport served yet; TLS is not)");
  otg->require_subcommand(1);
  commands.push_back(command_for(serve, [options](const GlobalOptions& global) {
    otg::ServeOptions o = *options;
    o.socket = default_socket_path(global.socket);
    return otg::serve(o);
  }));
}

}  // namespace lr::ctl
