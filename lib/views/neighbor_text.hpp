#pragma once
// `linerate neighbors` as text, from neighbors.list's report (lib/api/neighbor_report.hpp):
// per port with emulated hosts, a table of the neighbours its hosts resolve (host, host
// address, VLAN, role, neighbour address, state, MAC, tries, resolved at), a line of what
// its slow path counted, and its latest host events. Pure: no sockets.

#include <cstddef>
#include <string>
#include <vector>

#include "lib/api/neighbor_report.hpp"

namespace lr::views {

/// The events a port's section shows, the latest; the report keeps up to 64 (--json).
inline constexpr size_t kNeighborEventsShown = 10;

/// Each port's section, in the report's order; a value the report does not have (no VLAN,
/// no MAC yet) is "-". No port: one line saying the data plane has no emulated hosts.
std::string neighbor_text(const std::vector<api::PortNeighbors>& ports);

}  // namespace lr::views
