#include "dataplane/mgmt/traffic_methods.hpp"

#include <algorithm>
#include <memory>
#include <optional>

#include "dataplane/mgmt/lookups.hpp"
#include "dataplane/mgmt/rpc_result.hpp"
#include "dataplane/mgmt/run_ender.hpp"

namespace lr::dp {

using api::RpcCode;
using api::RpcError;
using nlohmann::json;

void register_traffic_methods(Dispatcher& d, boost::asio::io_context& io, Engine& engine, PortOwnership& ownership) {
  // Shared by the handlers that hold it; lives as long as the dispatcher's methods.
  const auto ender = std::make_shared<RunEnder>(io, engine);
  // The last ended run's report, for a client whose copy was lost (a file it could not
  // write, a connection that dropped during the drain): report.last.
  const auto last_report = std::make_shared<json>();
  d.add("traffic.start",
        "Starts a new run with fresh counters: params {streams?: [names], ports?: [names], at_utc_ns?}: every "
        "stream, or only those streams, or only the streams sent from those ports; at once, or with at_utc_ns "
        "(nanoseconds since 1970, UTC) at that instant, armed until then (a start synchronised across data "
        "planes: the report's start says when the first lcore began).",
        true, [&](Session& session, const api::Params& p) {
          std::vector<std::string> selected = p.strings("streams");
          const std::vector<std::string> ports = p.strings("ports");
          for (const std::string& port : ports) port_named(engine, port);
          for (const api::StreamSpec& s : engine.profile().streams)
            if (std::find(ports.begin(), ports.end(), s.tx_port) != ports.end()) selected.push_back(s.name);
          if (!ports.empty() && selected.empty())
            throw RpcError(RpcCode::kInvalidParams, "params.ports: no stream is sent from these ports");
          for (const api::StreamSpec& s : engine.profile().streams)
            if (selected.empty() || std::find(selected.begin(), selected.end(), s.name) != selected.end())
              check_stream_ports(ownership, session, s);
          std::optional<int64_t> at_utc_ns;
          if (const json& at = p.raw("at_utc_ns"); !at.is_null()) {
            if (!at.is_number_integer() || at.get<int64_t>() <= 0)
              throw RpcError(RpcCode::kInvalidParams,
                             "params.at_utc_ns: an integer count of nanoseconds since 1970-01-01T00:00:00Z");
            at_utc_ns = at.get<int64_t>();
          }
          value_or_throw(engine.start(selected, at_utc_ns));
          return json{{"running", true}, {"streams", selected.empty() ? json("all") : json(selected)}};
        });
  d.add_async(
      "traffic.stop",
      "Ends the run: stops every stream, drains, and returns the run's report (the one-shot mode's JSON report). "
      "params {streams?: [names], ports?: [names]}: stops only those streams, or the streams sent from those ports "
      "(see stream.stop), and the run goes on. "
      "The drain runs on a timer: other sessions are answered meanwhile.",
      true, [&, ender, last_report](Session& session, const api::Params& p, const Reply& reply) {
        if (!engine.running()) throw RpcError(RpcCode::kBusy, "traffic is not running");
        if (ender->ending()) throw RpcError(RpcCode::kBusy, "the run is already ending (its drain is in progress)");
        const std::vector<std::string> streams = p.strings("streams");
        const std::vector<std::string> ports = p.strings("ports");
        if (!streams.empty() || !ports.empty()) {
          for (const std::string& port : ports) port_named(engine, port);
          json stopped = json::array();
          for (const api::StreamSpec& s : engine.profile().streams) {
            const bool chosen = std::find(streams.begin(), streams.end(), s.name) != streams.end() ||
                                std::find(ports.begin(), ports.end(), s.tx_port) != ports.end();
            if (!chosen) continue;
            check_stream_ports(ownership, session, s);
            value_or_throw(engine.stop_stream(s.name));
            stopped.push_back(s.name);
          }
          for (const std::string& name : streams) stream_named(engine, name);
          reply(json{{"stopped", stopped}});
          return;
        }
        for (const api::StreamSpec& s : engine.profile().streams) check_stream_ports(ownership, session, s);
        ender->end(AfterRun::kKeepPorts, [reply, last_report](const RunReport& finished) {
          *last_report = to_json(finished);
          reply.complete([&] { return *last_report; });
        });
      });
  d.add("run.plan", "What the next run will do: per port its queues and lcores, per stream its rate and lanes, and "
        "the warnings about them (as the one-shot data plane prints it).", false,
        [&](Session&, const api::Params&) { return to_json(engine.plan()); });
  d.add("report.last",
        "The report of the last run that ended (as traffic.stop returned it), kept until another run ends.", false,
        [last_report](Session&, const api::Params&) {
          if (last_report->is_null()) throw RpcError(RpcCode::kFailed, "no run has ended yet");
          return *last_report;
        });
  d.add("traffic.status", "Whether traffic runs, and whether every stream has finished sending.", false,
        [&](Session&, const api::Params&) {
          return to_json(api::TrafficStatus{engine.running(), engine.running() && engine.tx_finished()});
        });
  d.alias("plan", "run.plan");
}

}  // namespace lr::dp
