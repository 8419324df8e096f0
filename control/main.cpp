// linerate: the control process. A client of the data plane's control socket, never of
// DPDK: every subcommand is one or a few JSON-RPC calls, printed as a table or, with
// --json, as the data plane's JSON. Each front end adds its own subcommands (cli/commands/,
// a file each family; otg/; export/); this file lists them in --help's order and runs the
// one chosen.

#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "control/cli/commands/commands.hpp"
#include "control/client/dataplane_client.hpp"
#include "control/export/exporter_command.hpp"
#include "control/export/optics_watch_command.hpp"
#include "control/otg/otg_command.hpp"

namespace {

int run(int argc, char** argv) {
  using namespace lr::ctl;
  CLI::App app{"linerate: drives a running data plane (linerate-dataplane --serve) over its control socket.",
               "linerate"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "linerate " LR_VERSION);
  // Options of linerate itself (--json, --socket) are taken after the subcommand too:
  // `linerate ports --json` as `linerate --json ports`. Set before the subcommands are made,
  // which inherit it.
  app.fallthrough();
  GlobalOptions global;
  CLI::Option* socket = app.add_option(
      "--socket", global.socket, "data plane socket (default: $LINERATE_SOCKET, else /run/linerate/dataplane.sock)");
  app.add_option("--engine", global.engine,
                 "a data plane on another host, serving TCP (linerate-dataplane --listen): HOST:PORT "
                 "(default: $LINERATE_ENGINE)")
      ->excludes(socket);
  app.add_option("--engine-ca", global.engine_tls.ca,
                 "--engine: the CA (PEM) that signed the data plane's certificate (default: $LINERATE_ENGINE_CA)");
  app.add_option("--engine-cert", global.engine_tls.cert,
                 "--engine: this controller's certificate (PEM) (default: $LINERATE_ENGINE_CERT)");
  app.add_option("--engine-key", global.engine_tls.key,
                 "--engine: its private key (PEM) (default: $LINERATE_ENGINE_KEY)");
  app.add_option("--engine-lease", global.engine_lease_s,
                 "a run over several data planes: each ends its run by itself once this controller has been "
                 "silent this long, in seconds (default: $LINERATE_ENGINE_LEASE, else 10)")
      ->envname("LINERATE_ENGINE_LEASE")
      ->check(CLI::Range(0.1, 3600.0));
  app.add_flag("--json", global.as_json, "print the data plane's JSON instead of a table");

  Commands commands;
  for (void (*add)(CLI::App&, Commands&) :
       {add_run_command, add_module_and_port_control_commands, add_exporter_command, add_session_commands,
        add_port_commands, add_stream_commands, add_traffic_commands, add_stats_commands, add_bench_commands,
        add_doctor_command, add_optics_commands, add_frames_command, add_capture_command, add_neighbors_command,
        add_otg_command, add_completion_command})
    add(app, commands);
  add_optics_watch_command(*app.get_subcommand("optics"), commands);  // export/'s, under cli/'s `optics`

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // A typo for a subcommand: say so, with the nearest, not CLI11's "A subcommand is required".
    if (const std::string unknown = unknown_subcommand(app, std::vector<std::string>(argv + 1, argv + argc));
        !unknown.empty()) {
      std::fprintf(stderr, "linerate: %s\n", unknown.c_str());
      return kExitUsage;
    }
    return app.exit(error) == 0 ? 0 : kExitUsage;
  }
  try {
    for (const Command& command : commands)
      if (command.chosen()) return command.run(global);
  } catch (const ConnectionError& error) {
    std::fprintf(stderr, "linerate: %s\n", error.what());
    return kExitNoDataplane;
  } catch (const RpcCallError& error) {
    std::fprintf(stderr, "linerate: %s (error %d)\n", error.what(), error.code());
    return kExitRefused;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Any other exception a command lets out (a JSON it cannot read, memory) ends with its
  // message and exit status 1 (could not do what was asked), not std::terminate's abort.
  try {
    return run(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "linerate: %s\n", error.what());
    return lr::ctl::kExitRefused;
  }
}
