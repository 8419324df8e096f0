#include "control/cli/commands/command.hpp"

#include <cstdio>

namespace lr::ctl {

Command command_for(const CLI::App* subcommand, std::function<int(const GlobalOptions&)> run) {
  return {[subcommand] { return subcommand->parsed(); }, std::move(run)};
}

void print_result(const nlohmann::json& result, bool as_json, const std::string& table) {
  if (as_json) std::printf("%s\n", result.dump(2).c_str());
  else std::printf("%s", table.c_str());
}

int with_dataplane(const GlobalOptions& global, const std::function<int(DataplaneClient&)>& fn) {
  DataplaneClient client(default_socket_path(global.socket));
  client.call("hello", {{"client", "linerate-cli"}});
  return fn(client);
}

void add_listing(CLI::App& app, Commands& commands, const char* name, const char* help, const char* method,
                 std::string (*table)(const nlohmann::json&)) {
  commands.push_back(command_for(app.add_subcommand(name, help), [method, table](const GlobalOptions& global) {
    return with_dataplane(global, [&](DataplaneClient& client) {
      const nlohmann::json result = client.call(method);
      print_result(result, global.as_json, table(result));
      return 0;
    });
  }));
}

}  // namespace lr::ctl
