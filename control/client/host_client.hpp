#pragma once
// The data plane's emulated hosts (issue 50) as typed calls over the contract: devices
// loaded (device.load), listed (device.list), and the neighbours their hosts resolve
// (neighbors.list, read as api::PortNeighbors). `linerate run` loads a profile's [[device]]
// tables through it; `linerate neighbors` shows what they resolved. Throws RpcCallError or
// ConnectionError, as DataplaneClient does.
//
// A method `X_json` returns the data plane's answer as sent, for a front end that prints
// it as-is (--json); `X` reads that same answer. Each RPC is called in one place.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "control/client/dataplane_client.hpp"
#include "lib/api/neighbor_report.hpp"

namespace lr::ctl {

class HostClient {
 public:
  explicit HostClient(DataplaneClient& client) : client_(client) {}

  /// Replaces the data plane's emulated hosts with `devices_json` (an array of device
  /// objects: a [[device]] table's keys with their text forms; empty: every host removed).
  /// The hosts start at once (gratuitous ARP, DAD, their gateways' resolution). `path`
  /// names them in the data plane's errors ("" sends none). Returns how many hosts it
  /// now has. Refused (RpcCallError): invalid params naming "devices[i].key", busy while
  /// traffic runs, method not found from a data plane without hosts.
  uint32_t load_devices(const nlohmann::json& devices_json, const std::string& path);
  /// device.load's answer as sent: {"devices": [names], "hosts": N}.
  nlohmann::json load_devices_json(const nlohmann::json& devices_json, const std::string& path);
  /// The devices loaded, in device.load's form (device.list), as sent.
  nlohmann::json devices_json();

  /// Per port with hosts, its hosts' neighbours, slow-path counts and latest events
  /// (neighbors.list); with `port`, that port's only (invalid params when no port has that
  /// name).
  std::vector<api::PortNeighbors> neighbors(const std::optional<std::string>& port = std::nullopt);
  nlohmann::json neighbors_json(const std::optional<std::string>& port = std::nullopt);

 private:
  DataplaneClient& client_;
};

/// The host count of a device.load answer. Throws nlohmann::json::exception when it has
/// none, or not a count.
uint32_t loaded_hosts(const nlohmann::json& load_answer);

}  // namespace lr::ctl
