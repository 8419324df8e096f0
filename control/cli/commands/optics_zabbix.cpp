// `linerate optics zabbix discover ports|lanes`, `get PORT ITEM [LANE]`, `items`: what a Zabbix
// agent asks, answered from the watch's state file by control/cli/optics_zabbix_items.hpp.

#include "control/cli/commands/optics_zabbix.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>

#include "control/cli/optics_zabbix_items.hpp"

namespace lr::ctl {

namespace {

struct ZabbixOptions {
  std::string dir = kOpticsWatchDir;
  std::string discover;
  ZabbixQuery query;
};

// The state file's text, or why it cannot be read: a watch that never ran, or runs with
// another --dir.
std::expected<std::string, std::string> read_state(const std::string& path) {
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!file)
    return std::unexpected(fmt::format("{}: cannot read it ({}): is `linerate optics watch` running, with this --dir?",
                                       path, std::strerror(errno)));
  std::string text;
  char buffer[65536];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, file.get())) > 0;) text.append(buffer, n);
  if (std::ferror(file.get())) return std::unexpected(fmt::format("{}: read failed ({})", path, std::strerror(errno)));
  return text;
}

// Prints the answer for Zabbix: the value on stdout, or, when there is none, why on stderr
// and exit 1 (the agent passes either as the item's text; the template makes "linerate: ..."
// an unsupported item with that reason).
int answer(const ZabbixOptions& options) {
  const std::string path = options.dir + "/" + kWatchStateName;
  const double now_s = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  const std::expected<std::string, std::string> text = read_state(path);
  const ZabbixAnswer out = text ? zabbix_answer(path, *text, now_s, options.query) : std::unexpected(text.error());
  if (!out) {
    std::fprintf(stderr, "linerate: %s\n", out.error().c_str());
    return kExitRefused;
  }
  std::printf("%s\n", out->c_str());
  return 0;
}

int list_items(bool as_json) {
  nlohmann::json items = nlohmann::json::array();
  std::string table;
  for (const ZabbixItem& item : zabbix_items()) {
    const bool lane = item.scope == ItemScope::kLane;
    items.push_back({{"name", item.name},
                     {"lane", lane},
                     {"value_type", value_type_name(item.value_type)},
                     {"units", item.units},
                     {"help", item.help}});
    table += fmt::format("{:<26} {:<5} {:<4} {}\n", item.name, lane ? "LANE" : "", item.units, item.help);
  }
  print_result(items, as_json, table);
  return 0;
}

void add_dir_option(CLI::App* app, ZabbixOptions& options) {
  app->add_option("--dir", options.dir,
                  fmt::format("the watch's --dir, where it writes {} (default: $LINERATE_OPTICS_DIR, else {})",
                              kWatchStateName, kOpticsWatchDir))
      ->envname("LINERATE_OPTICS_DIR");
}

}  // namespace

void add_optics_zabbix_command(CLI::App& optics, Commands& commands) {
  auto* zabbix = optics.add_subcommand("zabbix",
                                       "a Zabbix agent's UserParameters, answered from the state file of "
                                       "`optics watch` (docker/zabbix/)");
  zabbix->require_subcommand(1);
  auto options = std::make_shared<ZabbixOptions>();

  auto* discover = zabbix->add_subcommand("discover", "low-level discovery JSON: the watch's ports, or their lanes");
  discover->add_option("what", options->discover, "ports | lanes")
      ->required()
      ->check(CLI::IsMember({"ports", "lanes"}));
  add_dir_option(discover, *options);
  commands.push_back(command_for(discover, [options](const GlobalOptions&) {
    options->query.discover = options->discover == "ports" ? Discovery::kPorts : Discovery::kLanes;
    return answer(*options);
  }));

  auto* get = zabbix->add_subcommand("get",
                                     "one item's value; none (exit 1, why on stderr) when the port lacks it "
                                     "or the watch is not running");
  get->add_option("port", options->query.port, "the port, as the watch names it")->required();
  get->add_option("item", options->query.item, "the item (`linerate optics zabbix items` lists them)")->required();
  get->add_option("lane", options->query.lane, "the lane, for an item of a lane (empty: none)");
  add_dir_option(get, *options);
  commands.push_back(command_for(get, [options](const GlobalOptions&) { return answer(*options); }));

  auto* items = zabbix->add_subcommand("items", "the items `get` answers: name, LANE when it takes one, units");
  commands.push_back(command_for(items, [](const GlobalOptions& global) { return list_items(global.as_json); }));
}

}  // namespace lr::ctl
