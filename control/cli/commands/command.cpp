#include "control/cli/commands/command.hpp"

#include <fmt/format.h>

#include <algorithm>
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

namespace {

// Levenshtein distance: the typo's edits.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string unknown_subcommand(const CLI::App& app, const std::vector<std::string>& args) {
  std::string word;
  for (size_t i = 0; i < args.size() && word.empty(); ++i) {
    if (args[i] == "--socket") ++i;  // its value
    else if (!args[i].empty() && args[i][0] != '-') word = args[i];
  }
  if (word.empty()) return "";
  std::vector<std::string> names{"--version", "--help"};
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name() == word) return "";
    names.push_back(sub->get_name());
  }
  std::string best;
  size_t best_distance = 3;  // a prefix, else at most two edits
  for (const std::string& name : names) {
    const std::string bare = name.rfind("--", 0) == 0 ? name.substr(2) : name;
    const size_t distance = bare.rfind(word, 0) == 0 ? 0 : edit_distance(word, bare);  // a prefix first
    if (distance < best_distance) best = name, best_distance = distance;
  }
  return best.empty() ? fmt::format("unknown subcommand '{}' (linerate --help lists them)", word)
                      : fmt::format("unknown subcommand '{}' (did you mean '{}'?)", word, best);
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
