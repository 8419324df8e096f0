#include "dataplane/mgmt/stats_methods.hpp"

#include "lib/api/json_fields.hpp"
#include "dataplane/mgmt/rpc_result.hpp"

namespace lr::dp {

using nlohmann::json;

void register_stats_methods(Dispatcher& d, const Engine& engine) {
  d.add("stats.streams", "Per-stream results so far (lost includes frames in flight while running).", false,
        [&](Session&, const api::Params&) { return api::json_array(engine.live_stream_stats()); });
  d.add("stats.ports",
        "Per port: what linerate sent and received so far (tx/rx packets and bytes incl. FCS) and the port's own "
        "counters since the run started.",
        false, [&](Session&, const api::Params&) {
          json out = json::array();
          const std::vector<PortReport> ports = engine.port_reports();
          const std::vector<PortTraffic> live = engine.live_counters();
          for (size_t i = 0; i < ports.size() && i < live.size(); ++i) {
            json j = to_json(ports[i]);
            j["linerate"] = to_json(live[i]);
            out.push_back(std::move(j));
          }
          return out;
        });

  d.add("stats.switches",
        "Per software switch ([[switch]]), per port and priority: frames, drops by reason, PFC sent and received, "
        "ECN marks, queue watermarks, time paused (so far while traffic runs).",
        false, [&](Session&, const api::Params&) { return api::json_array(engine.switch_reports()); });

  d.add("stats.lcores", "Per worker lcore: its TX lanes and RX queues with their counters.", false,
        [&](Session&, const api::Params&) { return api::json_array(engine.lcore_reports()); });
  d.add("stats.histogram", "A stream's latency histogram: non-empty buckets {low_ns, high_ns, count}. params: {stream}.",
        false, [&](Session&, const api::Params& p) {
          return to_json(value_or_throw(engine.latency_histogram(p.string("stream"))));
        });
}

}  // namespace lr::dp
