#include "dataplane/mgmt/port_control_lookups.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace lr::dp {

using api::RpcCode;
using api::RpcError;

PortControl& control_named(PortControls& ports, const api::Params& p) {
  const std::string name = p.string("port");
  PortControl* port = ports.find(name);
  if (port == nullptr)
    throw RpcError(RpcCode::kInvalidParams, fmt::format("params.port: no port is named '{}' (there are: {})", name,
                                                        fmt::join(ports.names(), ", ")));
  return *port;
}

PortControl& changeable(PortControls& ports, const PortOwnership& ownership, const Session& session,
                        const api::Params& p) {
  PortControl& port = control_named(ports, p);
  ownership.check_may_change(session, port.name());
  return port;
}

}  // namespace lr::dp
