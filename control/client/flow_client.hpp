#pragma once
// A port's rte_flow steering rules on the data plane (flow.*): list, validate, create,
// destroy, flush, isolated mode. `linerate flow` prints each answer as sent (--json) or
// reads it with lib/api/flow_report.hpp. Throws RpcCallError or ConnectionError, as
// DataplaneClient does.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "control/client/dataplane_client.hpp"

namespace lr::ctl {

class FlowClient {
 public:
  explicit FlowClient(DataplaneClient& client) : client_(client) {}

  /// The port's rules with their counters (flow.list; api::flow_list_from_json reads it).
  nlohmann::json list_json(const std::string& port);
  /// Asks the PMD whether it takes `rule`, creating nothing (flow.validate).
  nlohmann::json validate_json(const std::string& port, const std::string& rule);
  /// Validates and creates `rule` (flow.create; api::flow_change_from_json reads its id).
  nlohmann::json create_json(const std::string& port, const std::string& rule);
  nlohmann::json destroy_json(const std::string& port, uint32_t id);
  /// Destroys every rule of the port (flow.flush; api::flow_change_from_json reads how many).
  nlohmann::json flush_json(const std::string& port);
  /// Isolated mode on or off (flow.isolate).
  nlohmann::json isolate_json(const std::string& port, bool on);

 private:
  DataplaneClient& client_;
};

}  // namespace lr::ctl
