#include "dataplane/mgmt/dataplane_methods.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "dataplane/mgmt/link_waiter.hpp"
#include "dataplane/mgmt/lookups.hpp"
#include "dataplane/mgmt/rpc_result.hpp"
#include "dataplane/port/port.hpp"
#include "dataplane/mgmt/run_ender.hpp"
#include "dataplane/mgmt/stream_methods.hpp"
#include "dataplane/profile/load_toml.hpp"
#include "dataplane/profile/stream_spec_json.hpp"
#include "dataplane/profile/quantity.hpp"

namespace lr::dp {

using api::RpcCode;
using api::RpcError;
using nlohmann::json;

namespace {

constexpr const char* kVersion = LR_VERSION;

// The report (identity, link, counters) of the port named `name`; kInvalidParams if none.
PortReport port_report(const Engine& engine, const std::string& name) {
  port_named(engine, name);
  for (PortReport& r : engine.port_reports())
    if (r.name == name) return std::move(r);
  throw RpcError(RpcCode::kNoDevice, fmt::format("port '{}' has no counters", name));
}

}  // namespace

void register_dataplane_methods(Dispatcher& d, boost::asio::io_context& io, Engine& engine, PortOwnership& ownership) {
  // Shared by the handlers that hold it; lives as long as the dispatcher's methods.
  const auto ender = std::make_shared<RunEnder>(io, engine);
  // The last ended run's report, for a client whose copy was lost (a file it could not
  // write, a connection that dropped during the drain): report.last.
  const auto last_report = std::make_shared<json>();
  d.add("hello", "Protocol handshake. params: {client?}. Returns server, version, protocol, session.", false,
        [](Session& session, const api::Params& p) {
          if (auto client = p.optional_string("client")) session.client = *client;
          return json{{"server", "linerate-dataplane"},
                      {"version", kVersion},
                      {"protocol", api::kProtocolVersion},
                      {"session", session.id}};
        });
  d.add("methods.list", "Every method with its help and whether it changes state.", false,
        [&d](Session&, const api::Params&) { return d.list(); });

  d.add("port.list",
        "Ports: name, device, driver, socket, link (read now), the speed rates refer to (speed_bps: the profile's "
        "speed, else the link's), owner session (null: none).",
        false, [&](Session&, const api::Params&) {
          json out = json::array();
          for (const std::string& name : engine.port_controls().names())
            if (auto port = engine.port(name)) (*port)->refresh_link();  // the same link state as port.link
          for (const PortReport& r : engine.port_reports()) {
            const auto owner = ownership.owner(r.name);
            out.push_back({{"name", r.name},
                           {"device", r.device},
                           {"driver", r.driver},
                           {"port_id", r.port_id},
                           {"socket", r.socket},
                           {"link_up", r.link_up},
                           {"link_speed_bps", r.link_speed_bps},
                           {"speed_bps", r.speed_bps},
                           {"speed_from_profile", r.speed_from_profile},
                           {"owner", owner ? json(*owner) : json(nullptr)}});
          }
          return out;
        });
  d.add("port.stats", "The port's own counters since the current run started. params: {port}.", false,
        [&](Session&, const api::Params& p) { return to_json(port_report(engine, p.string("port"))); });
  d.deprecate("port.stats", "port.counters (every source, this run and total)");
  d.add("port.xstats", "Extended statistics of a port. params: {port, filter?}: names containing filter.", false,
        [&](Session&, const api::Params& p) {
          const uint16_t port_id = port_report(engine, p.string("port")).port_id;
          const std::string filter = p.optional_string("filter").value_or("");
          json out = json::object();
          for (const auto& [key, value] : value_or_throw(read_xstats(port_id)))
            if (filter.empty() || key.find(filter) != std::string::npos) out[key] = value;
          return out;
        });
  d.deprecate("port.xstats", "port.counters (every source, this run and total)");

  // One handler for port.config.set and for protocol 1's port.set, which also took
  // `link` (now port.link.set's alone: one method per action; port.config.set does not
  // declare it, so the dispatcher refuses it there).
  const auto set_port = [&io, &engine, &ownership](Session& session, const api::Params& p, Reply reply) {
    const std::string name = port_named(engine, p.string("port")).name;
    ownership.check_may_change(session, name);
    EthdevPort& port = *value_or_throw(engine.port(name));
    bool await = false;
    const bool keep = p.optional_bool("keep").value_or(false);
    if (const auto v = p.optional_bool("promiscuous"))
      value_or_throw(engine.port_controls().find(name)->set_promiscuous(*v, keep));
    if (const auto v = p.optional_string("link")) {
      if (*v != "up" && *v != "down")
        throw RpcError(RpcCode::kInvalidParams, fmt::format("params.link: '{}' is not up or down", *v));
      value_or_throw(port.set_link_up(*v == "up"));
      await = *v == "up";
    }
    if (p.has("mtu"))
      value_or_throw(engine.set_mtu(name, static_cast<uint16_t>(p.number("mtu", 68, 9600)), keep));
    if (const auto v = p.optional_string("pfc_reaction_delay")) {
      const auto ns = profile::parse_duration_ns(*v);
      if (!ns)
        throw RpcError(RpcCode::kInvalidParams,
                       fmt::format("params.pfc_reaction_delay: '{}' is not a duration, e.g. \"20us\"", *v));
      value_or_throw(engine.set_pfc_reaction_delay(name, std::nullopt, *ns));
    }
    if (p.has("pfc_reaction_delay_quanta"))
      value_or_throw(engine.set_pfc_reaction_delay(
          name, static_cast<uint32_t>(p.number("pfc_reaction_delay_quanta", 0, 65535)), 0));
    if (const auto v = p.optional_string("state")) {
      if (*v != "started" && *v != "stopped")
        throw RpcError(RpcCode::kInvalidParams, fmt::format("params.state: '{}' is not started or stopped", *v));
      value_or_throw(port.set_started(*v == "started"));
      await = await || *v == "started";
    }
    const auto answer = [&engine, name, reply](bool) { reply.complete([&] { return to_json(port_report(engine, name)); }); };
    if (!await) {
      answer(false);
      return;
    }
    await_link(io, [&port] { return port.refresh_link(); }, kLinkWait, answer);
  };
  d.add_async("port.config.set",
              "Changes port settings: params {port, promiscuous?: bool, mtu?: 68-9600, state?: \"started\"|"
              "\"stopped\", keep?: bool (MTU and promiscuous mode stay after the data plane exits), "
              "pfc_reaction_delay?: duration (\"20us\"), pfc_reaction_delay_quanta?: 0-65535 (a port with "
              "pfc_honour: how long after a PFC / PAUSE frame it obeys it)}. MTU, state and the PFC reaction only "
              "while traffic is stopped (the port is stopped and restarted around an MTU change). A started port's link is awaited (up to 5 s, on a timer: other sessions are answered "
              "meanwhile). Link up / down: port.link.set. Returns the port.",
              true, set_port);
  d.add_async("port.set", "params {port, promiscuous?: bool, link?: up|down, mtu?, state?, keep?: bool}.", true,
              set_port);
  d.deprecate("port.set", "port.config.set, and port.link.set for the link");

  register_stream_methods(d, engine, ownership);

  d.add("traffic.start",
        "Starts a new run with fresh counters: params {streams?: [names], ports?: [names]}: every stream, or only "
        "those streams, or only the streams sent from those ports.",
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
          value_or_throw(engine.start(selected));
          return json{{"running", true}, {"streams", selected.empty() ? json("all") : json(selected)}};
        });
  d.add_async("traffic.stop",
        "Ends the run: stops every stream, drains, and returns the run's report (the one-shot mode's JSON report). "
        "params {streams?: [names], ports?: [names]}: stops only those streams, or the streams sent from those ports "
        "(see stream.stop), and the run goes on. "
        "The drain runs on a timer: other sessions are answered meanwhile.",
        true, [&, ender, last_report](Session& session, const api::Params& p, Reply reply) {
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
          ender->end(AfterRun::kKeepPorts, [reply, last_report](RunReport finished) {
            *last_report = to_json(finished);
            reply.complete([&] { return *last_report; });
          });
        });
  d.add("plan", "What the next run will do: per port its queues and lcores, per stream its rate and lanes, and "
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
          return json{{"running", engine.running()}, {"tx_finished", engine.running() && engine.tx_finished()}};
        });

  d.add("stats.streams", "Per-stream results so far (lost includes frames in flight while running).", false,
        [&](Session&, const api::Params&) {
          json out = json::array();
          for (const StreamReport& s : engine.live_stream_stats()) out.push_back(to_json(s));
          return out;
        });
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
        false, [&](Session&, const api::Params&) {
          json out = json::array();
          for (const api::SwitchReport& s : engine.switch_reports()) out.push_back(to_json(s));
          return out;
        });

  d.add("stats.lcores", "Per worker lcore: its TX lanes and RX queues with their counters.", false,
        [&](Session&, const api::Params&) {
          json out = json::array();
          for (const LcoreReport& l : engine.lcore_reports()) {
            json lanes = json::array();
            for (const LaneReport& lane : l.tx_lanes)
              lanes.push_back({{"stream", lane.stream},
                               {"lane", lane.lane},
                               {"port_id", lane.port_id},
                               {"queue", lane.queue},
                               {"tx_packets", lane.tx_packets},
                               {"tx_queue_full", lane.tx_queue_full},
                               {"alloc_failures", lane.alloc_failures},
                               {"done", lane.done}});
            json queues = json::array();
            for (const RxQueueReport& q : l.rx_queues)
              queues.push_back({{"port_id", q.port_id},
                                {"queue", q.queue},
                                {"rx_packets", q.rx_packets},
                                {"rx_bytes", q.rx_bytes},
                                {"rx_no_signature", q.rx_no_signature}});
            out.push_back({{"lcore", l.lcore}, {"socket", l.socket}, {"tx_lanes", lanes}, {"rx_queues", queues}});
          }
          return out;
        });
  d.add("stats.histogram", "A stream's latency histogram: non-empty buckets {low_ns, high_ns, count}. params: {stream}.",
        false, [&](Session&, const api::Params& p) {
          const LatencyHistogram h = value_or_throw(engine.latency_histogram(p.string("stream")));
          json buckets = json::array();
          for (const LatencyHistogram::Bucket& b : h.buckets)
            buckets.push_back({{"low_ns", b.low_ns}, {"high_ns", b.high_ns}, {"count", b.count}});
          return json{{"stream", h.stream}, {"samples", h.samples}, {"buckets", buckets}};
        });

  d.add("session.acquire",
        "Makes this session the owner of ports: other sessions cannot change them until released or this "
        "connection closes. params: {ports}.",
        false, [&](Session& session, const api::Params& p) {
          const std::vector<std::string> ports = p.strings("ports");
          if (ports.empty()) throw RpcError(RpcCode::kInvalidParams, "params.ports: name at least one port");
          for (const std::string& port : ports) port_named(engine, port);
          ownership.acquire(session, ports);
          return json{{"session", session.id}, {"owned", ports}};
        });
  d.add("session.release", "Releases ports: params {ports?: [names]} (all of this session's without it).", false,
        [&](Session& session, const api::Params& p) {
          ownership.release(session, p.strings("ports"));
          return json{{"session", session.id}};
        });

  // Protocol 1's names (before methods were named object.aspect.verb).
  d.alias("stream.set_rate", "stream.rate.set");
}

}  // namespace lr::dp
