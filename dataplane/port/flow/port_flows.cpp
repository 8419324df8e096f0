#include "dataplane/port/flow/port_flows.hpp"

#include <fmt/format.h>
#include <rte_ethdev.h>

#include <algorithm>
#include <cstring>

namespace lr::dp {

namespace {

const char* error_type_name(rte_flow_error_type type) {
  switch (type) {
    case RTE_FLOW_ERROR_TYPE_ATTR_GROUP: return "group attribute";
    case RTE_FLOW_ERROR_TYPE_ATTR_PRIORITY: return "priority attribute";
    case RTE_FLOW_ERROR_TYPE_ATTR_INGRESS: return "ingress attribute";
    case RTE_FLOW_ERROR_TYPE_ATTR_EGRESS: return "egress attribute";
    case RTE_FLOW_ERROR_TYPE_ATTR: return "attributes";
    case RTE_FLOW_ERROR_TYPE_ITEM_NUM: return "number of items";
    case RTE_FLOW_ERROR_TYPE_ITEM_SPEC: return "item spec";
    case RTE_FLOW_ERROR_TYPE_ITEM_LAST: return "item last";
    case RTE_FLOW_ERROR_TYPE_ITEM_MASK: return "item mask";
    case RTE_FLOW_ERROR_TYPE_ITEM: return "item";
    case RTE_FLOW_ERROR_TYPE_ACTION_NUM: return "number of actions";
    case RTE_FLOW_ERROR_TYPE_ACTION_CONF: return "action configuration";
    case RTE_FLOW_ERROR_TYPE_ACTION: return "action";
    case RTE_FLOW_ERROR_TYPE_HANDLE: return "rule handle";
    default: return "unspecified";
  }
}

}  // namespace

PortFlows::~PortFlows() {
  // A closed port took its rules with it; only a live one is flushed.
  if (!flows_.empty() && rte_eth_dev_is_valid_port(port_id_)) (void)flush();
}

Error PortFlows::refused(const char* what, int rc, const rte_flow_error& error, const FlowRule* rule) const {
  const int err = rc < 0 ? -rc : rc;
  const std::string blamed = rule != nullptr ? rule->describe_cause(error.cause) : "";
  std::string text = fmt::format("{} on port '{}': {} says: {}", what, port_name_, driver_,
                                 error.message != nullptr ? error.message : std::strerror(err));
  text += fmt::format(" ({}{})", error_type_name(error.type), blamed.empty() ? "" : ", at " + blamed);
  const bool unsupported = err == ENOSYS || err == ENOTSUP || err == EOPNOTSUPP;
  return Error{unsupported ? Errc::kNotSupported : Errc::kInvalid, err, std::move(text)};
}

Result<void> PortFlows::validate(const FlowRule& rule) const {
  rte_eth_dev_info info{};
  if (int rc = rte_eth_dev_info_get(port_id_, &info); rc != 0)
    return make_error(Errc::kNoDevice, fmt::format("flow rule on port '{}'", port_name_), -rc);
  if (rule.max_queue() >= static_cast<int>(info.nb_rx_queues))
    return make_error(Errc::kInvalid, fmt::format("flow rule on port '{}': it names RX queue {}, and the port has {} "
                                                  "(0-{})", port_name_, rule.max_queue(), info.nb_rx_queues,
                                                  info.nb_rx_queues - 1));
  rte_flow_error error{};
  if (int rc = rte_flow_validate(port_id_, &rule.attr(), rule.pattern(), rule.actions(), &error); rc != 0)
    return std::unexpected(refused("flow rule validation", rc, error, &rule));
  return {};
}

Result<uint32_t> PortFlows::create(FlowRule rule) {
  if (auto ok = validate(rule); !ok) return std::unexpected(ok.error());
  rte_flow_error error{};
  rte_flow* flow = rte_flow_create(port_id_, &rule.attr(), rule.pattern(), rule.actions(), &error);
  if (flow == nullptr) return std::unexpected(refused("flow rule creation", -rte_errno, error, &rule));
  const uint32_t id = next_id_++;
  flows_.push_back(Installed{id, std::move(rule), flow});
  return id;
}

Result<void> PortFlows::destroy(uint32_t id) {
  const auto it = std::find_if(flows_.begin(), flows_.end(), [id](const Installed& f) { return f.id == id; });
  if (it == flows_.end()) {
    std::string ids;
    for (const Installed& f : flows_) ids += (ids.empty() ? "" : ", ") + std::to_string(f.id);
    return make_error(Errc::kInvalid, fmt::format("port '{}' has no flow rule {} (it has: {})", port_name_, id,
                                                  ids.empty() ? "none" : ids));
  }
  rte_flow_error error{};
  if (int rc = rte_flow_destroy(port_id_, it->flow, &error); rc != 0)
    return std::unexpected(refused("flow rule destruction", rc, error, &it->rule));
  flows_.erase(it);
  return {};
}

Result<size_t> PortFlows::flush() {
  const size_t n = flows_.size();
  rte_flow_error error{};
  if (int rc = rte_flow_flush(port_id_, &error); rc != 0) {
    // Without flush, one by one.
    for (auto it = flows_.begin(); it != flows_.end();) {
      if (rte_flow_destroy(port_id_, it->flow, &error) != 0) return std::unexpected(refused("flow flush", rc, error, nullptr));
      it = flows_.erase(it);
    }
  }
  flows_.clear();
  return n;
}

std::vector<FlowInfo> PortFlows::list() {
  std::vector<FlowInfo> out;
  for (const Installed& f : flows_) {
    FlowInfo info{f.id, f.rule.text(), std::nullopt, std::nullopt, ""};
    if (f.rule.counts()) {
      rte_flow_query_count count{};
      rte_flow_action query[] = {{RTE_FLOW_ACTION_TYPE_COUNT, nullptr}, {RTE_FLOW_ACTION_TYPE_END, nullptr}};
      rte_flow_error error{};
      if (int rc = rte_flow_query(port_id_, f.flow, query, &count, &error); rc == 0) {
        if (count.hits_set) info.hits = count.hits;
        if (count.bytes_set) info.bytes = count.bytes;
      } else {
        info.counter_error = refused("flow counter query", rc, error, &f.rule).context;
      }
    }
    out.push_back(std::move(info));
  }
  return out;
}

Result<void> PortFlows::isolate(bool on) {
  rte_flow_error error{};
  if (int rc = rte_flow_isolate(port_id_, on ? 1 : 0, &error); rc != 0)
    return std::unexpected(refused(on ? "flow isolated mode on" : "flow isolated mode off", rc, error, nullptr));
  return {};
}

}  // namespace lr::dp
