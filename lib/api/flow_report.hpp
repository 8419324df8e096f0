#pragma once
// What the flow.* methods answer (rte_flow rules on a port): the rules with their
// counters (flow.list), a new rule's id (flow.create), how many rules flow.flush
// destroyed. Built by the data plane, read back by `linerate flow`.

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lr::api {

struct FlowRuleReport {
  uint32_t id = 0;
  std::string rule;               ///< as it was written ("pattern eth / udp dst is 4791 actions ...")
  std::optional<uint64_t> hits;   ///< with a count action, when the PMD could read it
  std::optional<uint64_t> bytes;
  std::string counter_error;      ///< why the counters could not be read, or ""
};

struct FlowList {
  std::string port;
  std::string backend;  ///< ethdev
  std::vector<FlowRuleReport> rules;
};

/// flow.create: the new rule's id; flow.flush: how many rules it destroyed.
struct FlowChange {
  std::string port;
  std::string backend;
  std::optional<uint32_t> id;
  std::optional<uint64_t> destroyed;
};

nlohmann::json to_json(const FlowList& list);
nlohmann::json to_json(const FlowChange& change);
/// Throws nlohmann::json::exception on a field of the wrong type.
FlowList flow_list_from_json(const nlohmann::json& j);
FlowChange flow_change_from_json(const nlohmann::json& j);

}  // namespace lr::api
