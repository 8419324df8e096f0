#pragma once
// The engine's ports and streams by the names a request gives, refused with an RPC error
// that names the parameter; and the ownership check a change to a stream needs.
// Thread: mgmt.

#include <string>

#include "dataplane/engine/engine.hpp"
#include "dataplane/mgmt/dispatcher.hpp"

namespace lr::dp {

const api::PortSpec& port_named(const Engine& engine, const std::string& name);
const api::StreamSpec& stream_named(const Engine& engine, const std::string& name);
/// The report (identity, link, counters) of the port named `name`.
PortReport port_report(const Engine& engine, const std::string& name);

/// A stream changes what leaves its TX port and what its RX port counts: the session
/// must be allowed to change both.
void check_stream_ports(const PortOwnership& ownership, const Session& session, const api::StreamSpec& s);

}  // namespace lr::dp
