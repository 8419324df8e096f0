#include "dataplane/mgmt/traffic_methods.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>

#include "dataplane/mgmt/lookups.hpp"
#include "dataplane/mgmt/rpc_result.hpp"
#include "dataplane/mgmt/run_ender.hpp"
#include "dataplane/mgmt/run_lease.hpp"

namespace lr::dp {

using api::RpcCode;
using api::RpcError;
using nlohmann::json;

namespace {

// traffic.start: a run of every stream or of some, at once or at a UTC instant, with a lease or without.
void add_traffic_start(Dispatcher& d, Engine& engine, PortOwnership& ownership,
                       const std::shared_ptr<RunLease>& lease) {
  d.add("traffic.start",
        "Starts a new run with fresh counters: params {streams?: [names], ports?: [names], at_utc_ns?, "
        "lease_ms?}: every stream, or only those streams, or only the streams sent from those ports; at once, or "
        "with at_utc_ns (nanoseconds since 1970, UTC) at that instant, armed until then (a start synchronised "
        "across data planes: the report's start says when the first lcore began). With lease_ms (100 to "
        "3600000) the run ends by itself once this session has sent no request for that long (a controller "
        "that died), its report kept for report.last.",
        true, [&engine, &ownership, lease](Session& session, const api::Params& p) {
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
          const double lease_ms = p.has("lease_ms") ? p.number("lease_ms", 100, 3'600'000) : 0;
          value_or_throw(engine.start(selected, at_utc_ns));
          if (lease_ms > 0) lease->hold(session, std::chrono::milliseconds(static_cast<int64_t>(lease_ms)));
          else lease->release();
          return json{{"running", true}, {"streams", selected.empty() ? json("all") : json(selected)}};
        });
}

}  // namespace

void register_traffic_methods(Dispatcher& d, boost::asio::io_context& io, Engine& engine, PortOwnership& ownership) {
  // Shared by the handlers that hold it; lives as long as the dispatcher's methods.
  const auto ender = std::make_shared<RunEnder>(io, engine);
  // The last ended run's report, for a client whose copy was lost (a file it could not
  // write, a connection that dropped during the drain): report.last.
  const auto last_report = std::make_shared<json>();
  // A run whose controller went silent ends as traffic.stop would end it, its report kept
  // for report.last with the reason.
  const auto lease = std::make_shared<RunLease>(io, [&engine, ender, last_report](const std::string& why) {
    if (!engine.running() || ender->ending()) return;
    std::fprintf(stderr, "linerate-dataplane: %s: the run is ended\n", why.c_str());
    ender->end(AfterRun::kKeepPorts, [last_report, why](RunReport finished) {
      finished.interrupted = true;
      finished.interrupted_by = why;
      *last_report = to_json(finished);
    });
  });
  add_traffic_start(d, engine, ownership, lease);
  d.add_async(
      "traffic.stop",
      "Ends the run: stops every stream, drains, and returns the run's report (the one-shot mode's JSON report). "
      "params {streams?: [names], ports?: [names]}: stops only those streams, or the streams sent from those ports "
      "(see stream.stop), and the run goes on. "
      "The drain runs on a timer: other sessions are answered meanwhile.",
      true, [&, ender, last_report, lease](Session& session, const api::Params& p, const Reply& reply) {
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
        lease->release();
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
