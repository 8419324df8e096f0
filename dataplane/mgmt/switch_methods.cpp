#include "dataplane/mgmt/switch_methods.hpp"

#include "lib/profile/switch_spec_json.hpp"

namespace lr::dp {

using nlohmann::json;

void register_switch_methods(Dispatcher& d, const Engine& engine) {
  d.add("switch.list",
        "The software switches ([[switch]]) with their settings, each as a [[switch]] table's keys (their counters: "
        "stats.switches).",
        false, [&](Session&, const api::Params&) {
          json out = json::array();
          for (const api::SwitchSpec& sw : engine.profile().switches) out.push_back(profile::to_json(sw));
          return out;
        });
}

}  // namespace lr::dp
