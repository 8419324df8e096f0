#include "dataplane/mgmt/port_link_methods.hpp"

#include <fmt/format.h>

#include "lib/api/port_control_report.hpp"
#include "dataplane/mgmt/link_waiter.hpp"
#include "dataplane/mgmt/port_control_lookups.hpp"
#include "dataplane/mgmt/rpc_result.hpp"
#include "lib/profile/quantity.hpp"

namespace lr::dp {

using api::RpcCode;
using api::RpcError;
using nlohmann::json;

namespace {

json link_json(PortControl& port, const Served<LinkStatus>& s) {
  const LinkStatus& l = s.value;
  return to_json(api::LinkReport{{port.name(), backend_name(s.backend), port.netdev_name()}, l.up, l.speed_mbps,
                                 l.full_duplex, l.autoneg, l.supported, l.advertised, l.partner});
}

}  // namespace

void register_port_link_methods(Dispatcher& d, boost::asio::io_context& io, PortControls& ports,
                                PortOwnership& ownership) {
  d.add("port.link",
        "Link state and settings: up, speed, duplex, autoneg, and (from the kernel netdev) the supported and "
        "advertised link modes. params: {port}.",
        false, [&](Session&, const api::Params& p) {
          PortControl& port = control_named(ports, p);
          return link_json(port, value_or_throw(port.link()));
        });
  d.add_async("port.link.set",
              "Sets the link: params {port, up?: bool, autoneg?: bool, speed?: \"50G\" (fixed with autoneg false, else "
              "advertise that speed's modes), advertise?: [link modes], keep?: bool (speeds stay after exit)}. Returns "
              "the link read back; a link brought up "
              "is awaited first (up to 5 s, on a timer: other sessions are answered meanwhile).",
              true, [&](Session& session, const api::Params& p, const Reply& reply) {
                PortControl& port = changeable(ports, ownership, session, p);
                LinkRequest request;
                request.up = p.optional_bool("up");
                request.autoneg = p.optional_bool("autoneg");
                if (const auto speed = p.optional_string("speed")) {
                  const auto bps = profile::parse_link_speed_bps(*speed);
                  if (!bps)
                    throw RpcError(RpcCode::kInvalidParams,
                                   fmt::format("params.speed: '{}' is not a link speed (e.g. 50G)", *speed));
                  request.speed_mbps = static_cast<uint32_t>(*bps / 1'000'000);
                }
                if (p.has("advertise")) request.advertise = p.strings("advertise");
                const std::string cause = fmt::format("set by session {}", session.id);
                const Served<LinkStatus> set =
                    value_or_throw(port.set_link(request, cause, p.optional_bool("keep").value_or(false)));
          // A link brought up (and not up yet), or renegotiated at new speeds, is awaited on
          // a timer, then read back; a link taken down is answered at once.
                const bool renegotiated = request.autoneg || request.speed_mbps || request.advertise;
                const bool await = request.up != std::optional<bool>(false) &&
                                   (renegotiated || (request.up.value_or(false) && !set.value.up));
                const auto answer = [&port, set, reply](bool awaited) {
                  reply.complete([&] {
                    value_or_throw(port.verify_link_set());  // a link that is down has no speed to check
                    if (!awaited) return link_json(port, set);
                    Served<LinkStatus> now = value_or_throw(port.link());
                    now.backend = set.backend;
                    return link_json(port, now);
                  });
                };
                if (!await) {
                  answer(false);
                  return;
                }
                // Each look records what it sees: the link's coming up is in its history
                // within the 10 ms poll, not at the 100 ms one (run_s measures from it).
                await_link(
                    io, [&port, cause] { return port.observe_link(cause); }, kLinkWait,
                    [answer](bool) { answer(true); });
              });
  d.add("port.link.history", "Link changes seen on the port (polled every 100 ms), oldest first. params: {port}.",
        false, [&](Session&, const api::Params& p) {
          PortControl& port = control_named(ports, p);
          json events = json::array();
          for (const api::LinkEventReport& e : link_events(port)) events.push_back(to_json(e));
          return json{{"port", port.name()}, {"events", events}};
        });
  // Protocol 1's names (before methods were named object.aspect.verb).
  d.alias("port.link_set", "port.link.set");
  d.alias("port.link_history", "port.link.history");
}

}  // namespace lr::dp
