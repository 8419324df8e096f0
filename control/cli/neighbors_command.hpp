#pragma once
// `linerate neighbors [PORT]`: per port with emulated hosts, the neighbours its hosts
// resolve (gateways, streams' on-link destinations), its slow path's counts and its latest
// host events, as text (lib/views/neighbor_text.hpp) or, with --json, neighbors.list's
// answer as sent.

#include <optional>
#include <string>

#include "control/client/dataplane_client.hpp"

namespace lr::ctl {

/// Prints the data plane's neighbours, of every port or of `port`. Returns the exit code:
/// 0, or 2 (kExitUsage) when `port` names no port of the data plane or one without hosts,
/// said on stderr. Other refusals throw RpcCallError, a lost data plane ConnectionError.
int show_neighbors(DataplaneClient& client, const std::optional<std::string>& port, bool as_json);

}  // namespace lr::ctl
