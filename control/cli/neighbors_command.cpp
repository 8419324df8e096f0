#include "control/cli/neighbors_command.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "control/client/host_client.hpp"
#include "control/command/command.hpp"
#include "control/command/exit_codes.hpp"
#include "lib/api/rpc.hpp"
#include "lib/views/neighbor_text.hpp"

namespace lr::ctl {

using nlohmann::json;

int show_neighbors(DataplaneClient& client, const std::optional<std::string>& port, bool as_json) {
  HostClient hosts(client);
  json answer;
  try {
    answer = hosts.neighbors_json(port);
  } catch (const RpcCallError& e) {
    // The port the user named is not the data plane's: an argument to fix, not a refusal.
    if (!port || e.code() != static_cast<int>(api::RpcCode::kInvalidParams)) throw;
    std::fprintf(stderr, "linerate: neighbors %s: %s\n", port->c_str(), e.what());
    return kExitUsage;
  }
  const std::vector<api::PortNeighbors> ports = api::port_neighbors_from_json(answer);
  const bool has_hosts =
      std::any_of(ports.begin(), ports.end(), [](const api::PortNeighbors& p) { return p.hosts > 0; });
  if (port && !has_hosts) {
    std::fprintf(stderr,
                 "linerate: neighbors %s: port '%s' has no emulated hosts (give it a [[device]] table and run "
                 "the profile, or load devices with device.load)\n",
                 port->c_str(), port->c_str());
    return kExitUsage;
  }
  print_result(answer, as_json, as_json ? "" : views::neighbor_text(ports));
  return 0;
}

}  // namespace lr::ctl
