#include "lib/api/flow_report.hpp"

#include <nlohmann/json.hpp>

#include "lib/api/json_fields.hpp"

namespace lr::api {

using nlohmann::json;

namespace {

constexpr auto flow_rule_fields = LR_JSON_FIELDS(id, rule, hits, bytes, counter_error);
constexpr auto flow_served_fields = LR_JSON_FIELDS(port, backend);
constexpr auto flow_change_fields = LR_JSON_FIELDS(port, backend, id, destroyed);

}  // namespace

json to_json(const FlowList& list) {
  json rules = json::array();
  for (const FlowRuleReport& r : list.rules) {
    json rule = write_fields(r, flow_rule_fields);
    if (r.counter_error.empty()) rule.erase("counter_error");  // said only when the counters failed
    rules.push_back(std::move(rule));
  }
  json out = write_fields(list, flow_served_fields);
  out["rules"] = std::move(rules);
  return out;
}

json to_json(const FlowChange& change) { return write_fields(change, flow_change_fields, Absent::kLeftOut); }

FlowList flow_list_from_json(const json& j) {
  FlowList list = read_fields<FlowList>(j, flow_served_fields);
  read_field_items(j, "rules", list.rules, flow_rule_fields);
  return list;
}

FlowChange flow_change_from_json(const json& j) { return read_fields<FlowChange>(j, flow_change_fields); }

}  // namespace lr::api
