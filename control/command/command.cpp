#include "control/command/command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "lib/common/nearest_name.hpp"

namespace lr::ctl {

Command command_for(const CLI::App* subcommand, std::function<int(const GlobalOptions&)> run) {
  return {[subcommand] { return subcommand->parsed(); }, std::move(run)};
}

void print_result(const nlohmann::json& result, bool as_json, const std::string& table) {
  if (as_json) std::printf("%s\n", result.dump(2).c_str());
  else std::printf("%s", table.c_str());
}

int with_dataplane(const GlobalOptions& global, const std::function<int(DataplaneClient&)>& fn) {
  DataplaneClient client(global.dataplane());
  client.hello("linerate-cli");
  return fn(client);
}

std::string unknown_subcommand(const CLI::App& app, const std::vector<std::string>& args) {
  std::string word;
  for (size_t i = 0; i < args.size() && word.empty(); ++i) {
    if (args[i] == "--socket" || args[i].starts_with("--engine")) ++i;  // its value
    else if (!args[i].empty() && args[i][0] != '-') word = args[i];
  }
  if (word.empty()) return "";
  // The options a bare word may mean, without their dashes ("version" for --version).
  std::vector<std::string> names{"version", "help"};
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name() == word) return "";
    names.push_back(sub->get_name());
  }
  const bool bare_option = word == "version" || word == "help";  // `linerate version`: --version
  const std::string best = bare_option ? word : nearest_name(word, names);
  const bool option = best == "version" || best == "help";
  return best.empty() ? fmt::format("unknown subcommand '{}' (linerate --help lists them)", word)
                      : fmt::format("unknown subcommand '{}' (did you mean '{}{}'?)", word, option ? "--" : "", best);
}

void add_listing(CLI::App& app, Commands& commands, const char* name, const char* help, Listing listing,
                 std::string (*table)(const nlohmann::json&)) {
  commands.push_back(command_for(app.add_subcommand(name, help), [listing, table](const GlobalOptions& global) {
    return with_dataplane(global, [&](DataplaneClient& client) {
      const nlohmann::json result = listing(client);
      print_result(result, global.as_json, table(result));
      return 0;
    });
  }));
}

}  // namespace lr::ctl
