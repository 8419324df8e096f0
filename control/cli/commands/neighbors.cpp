// `linerate neighbors [PORT]`: what the data plane's emulated hosts resolved.

#include <memory>
#include <optional>
#include <string>

#include "control/cli/commands/commands.hpp"
#include "control/cli/neighbors_command.hpp"

namespace lr::ctl {

void add_neighbors_command(CLI::App& app, Commands& commands) {
  auto* neighbors = app.add_subcommand(
      "neighbors", "emulated hosts' neighbours (gateways, on-link destinations), slow-path counts and events per port");
  auto port = std::make_shared<std::string>();
  const CLI::Option* given = neighbors->add_option("port", *port, "only this port (default: every port with hosts)");
  commands.push_back(command_for(neighbors, [port, given](const GlobalOptions& global) {
    return with_dataplane(global, [&](DataplaneClient& client) {
      return show_neighbors(client, given->count() > 0 ? std::optional<std::string>(*port) : std::nullopt,
                            global.as_json);
    });
  }));
}

}  // namespace lr::ctl
