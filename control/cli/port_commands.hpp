#pragma once
// `linerate link | fec | pause | pfc | module show | flow | port settings | port restore`:
// port control through the data plane (port.link*, port.fec*, port.pause*, port.pfc*,
// port.module, flow.*, port.settings*), printed as text or JSON.

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "control/client/dataplane_client.hpp"
#include "control/client/flow_client.hpp"
#include "control/client/port_client.hpp"

namespace lr::ctl {

class PortCommands {
 public:
  /// Adds the subcommands to `app`, and `show` to the existing `module` subcommand.
  PortCommands(CLI::App& app, CLI::App& module);
  /// Whether one of these subcommands was given.
  bool chosen() const;
  /// Runs the chosen one; throws what DataplaneClient throws. Returns the exit code.
  int run(DataplaneClient& client, bool as_json) const;

 private:
  int run_link(PortClient& ports, bool as_json) const;
  int run_flow(FlowClient& flows, bool as_json) const;

  CLI::App* link_;
  CLI::App* fec_;
  CLI::App* pause_;
  CLI::App* pfc_;
  CLI::App* module_show_;
  CLI::App* flow_list_;
  CLI::App* flow_add_;
  CLI::App* flow_check_;
  CLI::App* flow_delete_;
  CLI::App* flow_flush_;
  CLI::App* flow_isolate_;
  CLI::App* port_settings_;
  CLI::App* port_restore_;
  std::vector<std::string> rule_words_;
  uint32_t flow_id_ = 0;
  std::string port_;
  bool up_ = false, down_ = false, history_ = false, hex_ = false, keep_ = false;
  std::string autoneg_, speed_, set_;
  std::vector<std::string> advertise_;
};

}  // namespace lr::ctl
