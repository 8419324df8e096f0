#include "dataplane/mgmt/dataplane_methods.hpp"

#include <fmt/format.h>

#include "dataplane/mgmt/capture_methods.hpp"
#include "dataplane/mgmt/host_methods.hpp"
#include "dataplane/mgmt/lookups.hpp"
#include "dataplane/mgmt/node_description.hpp"
#include "dataplane/mgmt/port_methods.hpp"
#include "dataplane/mgmt/stats_methods.hpp"
#include "dataplane/mgmt/stream_methods.hpp"
#include "dataplane/mgmt/switch_methods.hpp"
#include "dataplane/mgmt/traffic_methods.hpp"

namespace lr::dp {

using api::RpcCode;
using api::RpcError;
using nlohmann::json;

namespace {

constexpr const char* kVersion = LR_VERSION;

}  // namespace

void register_dataplane_methods(Dispatcher& d, boost::asio::io_context& io, Engine& engine, PortOwnership& ownership,
                                const std::string& capture_dir, const ClockWatch* clock) {
  d.add("hello",
        "Protocol handshake. params: {client?, protocol? (the client's; another is refused)}. Returns "
        "server, version, protocol, session, node (host name), ports (name, device, numa_node, speed_bps, mac, "
        "link), lcores, clock.",
        false, [&engine, clock](Session& session, const api::Params& p) {
          if (p.has("protocol")) {
            const double protocol = p.number("protocol", 1, 1e9);
            if (protocol != api::kProtocolVersion)
              throw RpcError(RpcCode::kInvalidRequest,
                             fmt::format("this data plane speaks protocol {} (linerate-dataplane {}); the client "
                                         "speaks protocol {}: use a linerate of the same release",
                                         api::kProtocolVersion, kVersion, protocol));
          }
          if (auto client = p.optional_string("client")) session.client = *client;
          json hello{{"server", "linerate-dataplane"},
                     {"version", kVersion},
                     {"protocol", api::kProtocolVersion},
                     {"session", session.id}};
          hello.update(describe_node(engine, clock));
          return hello;
        });
  d.add("methods.list", "Every method with its help and whether it changes state.", false,
        [&d](Session&, const api::Params&) { return d.list(); });

  register_port_methods(d, io, engine, ownership);
  register_stream_methods(d, engine, ownership);
  register_traffic_methods(d, io, engine, ownership);
  register_stats_methods(d, engine);
  register_switch_methods(d, engine);
  register_capture_methods(d, engine, capture_dir);
  register_host_methods(d, engine, ownership);

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
