// `linerate ports | port-set | xstats`: the ports, a port's settings, a port's counters.

#include <memory>
#include <string>

#include "control/cli/commands/commands.hpp"
#include "control/client/port_client.hpp"
#include "control/client/run_client.hpp"
#include "control/cli/tables.hpp"
#include "control/cli/watch_commands.hpp"

namespace lr::ctl {

using nlohmann::json;

namespace {

void add_port_set(CLI::App& app, Commands& commands) {
  auto* port_set = app.add_subcommand("port-set", "change a port: promiscuous mode, link up / down, MTU");
  struct PortSetOptions {
    std::string port, promiscuous, link, state;
    int mtu = 0;
    bool keep = false;
  };
  auto options = std::make_shared<PortSetOptions>();
  port_set->add_option("--promiscuous", options->promiscuous, "on or off")->check(CLI::IsMember({"on", "off"}));
  port_set->add_option("--link", options->link, "up or down")->check(CLI::IsMember({"up", "down"}));
  port_set->add_option("--mtu", options->mtu, "MTU in bytes (traffic stopped)")->check(CLI::Range(68, 9600));
  port_set->add_flag("--keep", options->keep,
                     "MTU and promiscuous mode stay after the data plane exits (else the port's own are put back)");
  port_set->add_option("--state", options->state, "started or stopped (traffic stopped)")
      ->check(CLI::IsMember({"started", "stopped"}));
  port_set->add_option("port", options->port, "port name")->required();
  commands.push_back(command_for(port_set, [options](const GlobalOptions& global) {
    return with_dataplane(global, [&](DataplaneClient& client) {
      PortConfigChange change;
      change.state = options->state;
      change.keep = options->keep ? Keep::kYes : Keep::kNo;
      if (!options->promiscuous.empty()) change.promiscuous = options->promiscuous == "on";
      if (options->mtu != 0) change.mtu = options->mtu;
      PortClient port(client);
      if (!options->link.empty()) port.set_link_up(options->port, options->link == "up");
      const json result = port.set_config_json(options->port, change);  // with no change: the port as it now is
      print_result(result, global.as_json, ports_table(json::array({result})));
      return 0;
    });
  }));
}

void add_xstats(CLI::App& app, Commands& commands) {
  auto* xstats = app.add_subcommand(
      "xstats", "a port's counters from every source (ethdev, xstats, ethtool -S, FEC) under one naming scheme");
  struct XstatsOptions {
    std::string port, filter;
    bool watch = false, rate = false;
  };
  auto options = std::make_shared<XstatsOptions>();
  xstats->add_option("port", options->port, "port name")->required();
  xstats->add_option("-f,--filter", options->filter, "only counters whose name or canonical name contains this");
  xstats->add_flag("-w,--watch", options->watch, "refresh every second until Ctrl-C");
  xstats->add_flag("--rate", options->rate, "with --watch: per-second change beside each value");
  commands.push_back(command_for(xstats, [options](const GlobalOptions& global) {
    return with_dataplane(global, [&](DataplaneClient& client) {
      if (options->watch) return run_xstats_watch(client, options->port, options->filter, options->rate);
      const json result = PortClient(client).counter_view_json(options->port, options->filter);
      print_result(result, global.as_json, counters_table(api::port_counter_view_from_json(result)));
      return 0;
    });
  }));
}

}  // namespace

void add_port_commands(CLI::App& app, Commands& commands) {
  add_listing(app, commands, "ports", "ports: device, driver, NUMA socket, link, owner",
              [](DataplaneClient& client) { return RunClient(client).port_list_json(); }, ports_table);
  add_port_set(app, commands);
  add_xstats(app, commands);
}

}  // namespace lr::ctl
