#pragma once
// The port a port-control request names, refused with an RPC error that names the ports
// there are; and the same port when the session may change it. Thread: mgmt.

#include "lib/api/rpc.hpp"
#include "dataplane/mgmt/dispatcher.hpp"
#include "dataplane/port/port_controls.hpp"

namespace lr::dp {

/// The port named by params.port.
PortControl& control_named(PortControls& ports, const api::Params& p);

/// The port named by params.port, which `session` may change.
PortControl& changeable(PortControls& ports, const PortOwnership& ownership, const Session& session,
                        const api::Params& p);

}  // namespace lr::dp
