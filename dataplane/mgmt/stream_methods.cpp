#include "dataplane/mgmt/stream_methods.hpp"

#include <fmt/format.h>

#include <vector>

#include "dataplane/mgmt/lookups.hpp"
#include "dataplane/mgmt/rpc_result.hpp"
#include "lib/api/traffic.hpp"
#include "lib/profile/load_toml.hpp"
#include "lib/profile/quantity.hpp"
#include "lib/profile/run_spec_json.hpp"
#include "lib/profile/stream_spec_json.hpp"

namespace lr::dp {

using api::RpcCode;
using api::RpcError;
using nlohmann::json;

namespace {

// The streams of a stream.load / stream.add request, read against this data plane's
// ports: `streams`, their JSON form (profile/stream_spec_json.hpp). Errors name the
// caller's keys, and the lines of the file a stream came from when it says so. (The TOML
// text of before, `profile`, is refused by the dispatcher: no method declares it now.)
std::vector<api::StreamSpec> requested_streams(const Engine& engine, const api::Params& p) {
  if (!p.has("streams"))
    throw RpcError(RpcCode::kInvalidParams, "params: give streams, an array of stream objects with the [[stream]] "
                                            "table's keys");
  try {
    return profile::streams_from_json(p.raw("streams"), p.optional_string("path").value_or("params"), engine.profile());
  } catch (const profile::ConfigError& error) {
    throw RpcError(RpcCode::kInvalidParams, error.what());
  }
}

// stream.load's run settings: `run`, the [run] table's keys as JSON; none, the current ones.
std::optional<api::RunSpec> requested_run(const api::Params& p) {
  if (!p.has("run")) return std::nullopt;
  try {
    return profile::run_spec_from_json(p.raw("run"), p.optional_string("path").value_or("params"));
  } catch (const profile::ConfigError& error) {
    throw RpcError(RpcCode::kInvalidParams, error.what());
  }
}

// stream.list: a line per stream, or (specs) each stream's whole spec.
json list_streams(const Engine& engine, const api::Params& p) {
  if (p.optional_bool("specs").value_or(false)) return profile::to_json(engine.profile().streams);
  json out = json::array();
  const std::vector<StreamReport> live = engine.live_stream_stats();
  for (size_t i = 0; i < engine.profile().streams.size(); ++i) {
    const api::StreamSpec& s = engine.profile().streams[i];
    const bool paced = i < live.size() && live[i].target_pps > 0;
    out.push_back(to_json(api::StreamListing{s.name, s.tx_port, s.rx_port, s.frame.mean(), s.lanes,
                                             paced ? std::optional<double>(live[i].target_pps) : std::nullopt}));
  }
  return out;
}

// stream.add: the new streams after the engine's; a name taken already is refused at its key.
json add_streams(Engine& engine, const PortOwnership& ownership, const Session& session, const api::Params& p) {
  const std::vector<api::StreamSpec> loaded = requested_streams(engine, p);
  std::vector<api::StreamSpec> streams = engine.profile().streams;
  json added = json::array();
  for (size_t i = 0; i < loaded.size(); ++i) {
    const api::StreamSpec& s = loaded[i];
    for (const api::StreamSpec& existing : streams)
      if (existing.name == s.name)
        throw RpcError(RpcCode::kInvalidParams,
                       profile::ConfigError(s.file, s.loc, fmt::format("stream[{}].name", i),
                                            fmt::format("a stream named '{}' exists already; stream.remove "
                                                        "it first", s.name))
                           .what());
  }
  for (const api::StreamSpec& s : loaded) {
    check_stream_ports(ownership, session, s);
    streams.push_back(s);
    added.push_back(s.name);
  }
  value_or_throw(engine.set_streams(streams));
  return json{{"added", added}};
}

}  // namespace

void register_stream_methods(Dispatcher& d, Engine& engine, PortOwnership& ownership) {
  d.add("stream.list",
        "Streams: name, ports, rate, frame size, lanes. params {specs?: bool}: true, each stream's whole spec "
        "instead, in the form stream.load takes.",
        false, [&](Session&, const api::Params& p) { return list_streams(engine, p); });
  d.add("stream.rate.set",
        "Changes a stream's rate, also while it runs. params: {stream, rate}: rate as in profiles "
        "('10%', '1.5Mpps', '5Gbps', '5Gbps-l2', 'max'). Returns target_pps.",
        true, [&](Session& session, const api::Params& p) {
          const api::StreamSpec& s = stream_named(engine, p.string("stream"));
          const std::string text = p.string("rate");
          const auto rate = profile::parse_rate(text);
          if (!rate) throw RpcError(RpcCode::kInvalidParams, "params.rate: " + profile::rate_refusal(text));
          check_stream_ports(ownership, session, s);
          const double pps = value_or_throw(engine.set_stream_rate(s.name, *rate));
          return to_json(api::StreamRate{s.name, pps > 0 ? std::optional<double>(pps) : std::nullopt});
        });
  d.add("stream.stop", "Stops one stream's transmission; the others go on. params: {stream}.", true,
        [&](Session& session, const api::Params& p) {
          const api::StreamSpec& s = stream_named(engine, p.string("stream"));
          check_stream_ports(ownership, session, s);
          value_or_throw(engine.stop_stream(s.name));
          return json{{"stream", s.name}, {"stopped", true}};
        });
  d.add("stream.hold",
        "Holds one stream's transmission while the run goes on (held true), or lets it go on (held false) at its "
        "rate from then: what was not sent while held is not made up. params: {stream, held}.",
        true, [&](Session& session, const api::Params& p) {
          const api::StreamSpec& s = stream_named(engine, p.string("stream"));
          const bool held = p.boolean("held");
          check_stream_ports(ownership, session, s);
          value_or_throw(engine.hold_stream(s.name, held));
          return json{{"stream", s.name}, {"held", held}};
        });

  d.add("stream.load",
        "Replaces the streams. Not while traffic runs. params {streams: [stream], run?, path?}: streams are JSON "
        "objects with a profile's [[stream]] keys ({\"name\": \"a\", \"tx_port\": \"p0\", \"rate\": \"10%\", "
        "\"frame_size\": 64}); run, the [run] table's keys ({\"drain\": \"1s\", \"timeline\": \"10us\"}), replaces "
        "the run settings; path names them in errors. Their ports must exist here. Returns {streams: [names], run: "
        "the run settings now}.",
        true, [&](Session& session, const api::Params& p) {
          const std::vector<api::StreamSpec> streams = requested_streams(engine, p);
          const std::optional<api::RunSpec> run = requested_run(p);
          for (const api::StreamSpec& s : streams) check_stream_ports(ownership, session, s);
          for (const api::StreamSpec& s : engine.profile().streams) check_stream_ports(ownership, session, s);
          value_or_throw(engine.set_streams(streams, run));
          json names = json::array();
          for (const api::StreamSpec& s : streams) names.push_back(s.name);
          return json{{"streams", names}, {"run", profile::to_json(engine.profile().run)}};
        });

  d.add("stream.add",
        "Adds streams (names must be new). Not while traffic runs. params {streams: [stream], path?}, as "
        "stream.load. Returns {added: [names]}.",
        true, [&](Session& session, const api::Params& p) { return add_streams(engine, ownership, session, p); });
  d.add("stream.remove", "Removes a stream. Not while traffic runs. params: {stream}.", true,
        [&](Session& session, const api::Params& p) {
          const api::StreamSpec& s = stream_named(engine, p.string("stream"));
          check_stream_ports(ownership, session, s);
          const std::string name = s.name;
          std::vector<api::StreamSpec> streams;
          for (const api::StreamSpec& other : engine.profile().streams)
            if (other.name != name) streams.push_back(other);
          value_or_throw(engine.set_streams(streams));
          return json{{"removed", name}};
        });
}

}  // namespace lr::dp
