#include "control/client/flow_client.hpp"

namespace lr::ctl {

using nlohmann::json;

json FlowClient::list_json(const std::string& port) { return client_.call("flow.list", {{"port", port}}); }

json FlowClient::validate_json(const std::string& port, const std::string& rule) {
  return client_.call("flow.validate", {{"port", port}, {"rule", rule}});
}

json FlowClient::create_json(const std::string& port, const std::string& rule) {
  return client_.call("flow.create", {{"port", port}, {"rule", rule}});
}

json FlowClient::destroy_json(const std::string& port, uint32_t id) {
  return client_.call("flow.destroy", {{"port", port}, {"id", id}});
}

json FlowClient::flush_json(const std::string& port) { return client_.call("flow.flush", {{"port", port}}); }

json FlowClient::isolate_json(const std::string& port, bool on) {
  return client_.call("flow.isolate", {{"port", port}, {"on", on}});
}

}  // namespace lr::ctl
