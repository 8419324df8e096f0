#pragma once
// `linerate`'s subcommands as a list. Each file of commands/ adds its subcommands (with
// their options) to the app, and to the list what each does when chosen; main.cpp adds
// them in --help's order, parses, and runs the one chosen.

#include <CLI/CLI.hpp>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "control/command/exit_codes.hpp"
#include "control/client/dataplane_client.hpp"

namespace lr::ctl {

/// linerate's own options, given before or after the subcommand.
struct GlobalOptions {
  std::string socket;          ///< --socket; "": $LINERATE_SOCKET, else the default
  std::string engine;          ///< --engine HOST:PORT: a data plane serving TCP
  tls::MutualTlsFiles engine_tls;  ///< --engine-ca, --engine-cert, --engine-key
  double engine_lease_s = 10;  ///< --engine-lease
  bool as_json = false;        ///< --json

  /// The data plane these name (dataplane_address: the environment fills what they leave).
  DataplaneAddress dataplane() const {
    DataplaneAddress address = dataplane_address(socket, engine, engine_tls);
    address.lease_ms = static_cast<int64_t>(engine_lease_s * 1000);
    return address;
  }
};

/// A subcommand: whether it was chosen, and what it does (the exit code). A client's
/// ConnectionError and RpcCallError propagate to main, which says them.
struct Command {
  std::function<bool()> chosen;
  std::function<int(const GlobalOptions&)> run;
};
using Commands = std::vector<Command>;

/// A Command chosen when `subcommand` was parsed.
Command command_for(const CLI::App* subcommand, std::function<int(const GlobalOptions&)> run);

/// Prints the data plane's JSON (--json) or the table.
void print_result(const nlohmann::json& result, bool as_json, const std::string& table);

/// Runs `fn` on a client of the serving data plane, greeted as linerate-cli.
int with_dataplane(const GlobalOptions& global, const std::function<int(DataplaneClient&)>& fn);

/// For a command line whose first word is not a subcommand of `app` (`linerate stat`):
/// "unknown subcommand 'stat' (did you mean 'stats'?)"; "" when it is one, or there is none.
/// `args` without the program's name.
std::string unknown_subcommand(const CLI::App& app, const std::vector<std::string>& args);

/// A list the data plane answers (port.list, stream.list, ...), read through a typed client.
using Listing = nlohmann::json (*)(DataplaneClient&);

/// A subcommand `name` that asks `listing` and prints the answer as `table`.
void add_listing(CLI::App& app, Commands& commands, const char* name, const char* help, Listing listing,
                 std::string (*table)(const nlohmann::json&));

}  // namespace lr::ctl
