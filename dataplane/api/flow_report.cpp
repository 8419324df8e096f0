#include "dataplane/api/flow_report.hpp"

#include <nlohmann/json.hpp>

#include "dataplane/api/json_fields.hpp"

namespace lr::api {

using nlohmann::json;

namespace {

json optional_json(const std::optional<uint64_t>& v) { return v ? json(*v) : json(nullptr); }

}  // namespace

json to_json(const FlowList& list) {
  json rules = json::array();
  for (const FlowRuleReport& r : list.rules) {
    json rule{{"id", r.id}, {"rule", r.rule}, {"hits", optional_json(r.hits)}, {"bytes", optional_json(r.bytes)}};
    if (!r.counter_error.empty()) rule["counter_error"] = r.counter_error;
    rules.push_back(std::move(rule));
  }
  return {{"port", list.port}, {"backend", list.backend}, {"rules", std::move(rules)}};
}

json to_json(const FlowChange& change) {
  json out{{"port", change.port}, {"backend", change.backend}};
  if (change.id) out["id"] = *change.id;
  if (change.destroyed) out["destroyed"] = *change.destroyed;
  return out;
}

FlowList flow_list_from_json(const json& j) {
  FlowList list;
  const auto read = reader(j);
  read("port", list.port);
  read("backend", list.backend);
  read_items(j, "rules", list.rules, [](const json& r) {
    FlowRuleReport rule;
    const auto field = reader(r);
    field("id", rule.id);
    field("rule", rule.rule);
    field("counter_error", rule.counter_error);
    field("hits", rule.hits);
    field("bytes", rule.bytes);
    return rule;
  });
  return list;
}

FlowChange flow_change_from_json(const json& j) {
  FlowChange change;
  const auto read = reader(j);
  read("port", change.port);
  read("backend", change.backend);
  read("id", change.id);
  read("destroyed", change.destroyed);
  return change;
}

}  // namespace lr::api
