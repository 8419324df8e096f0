#include "dataplane/mgmt/lookups.hpp"

#include <fmt/format.h>

namespace lr::dp {

using api::RpcCode;
using api::RpcError;

const api::PortSpec& port_named(const Engine& engine, const std::string& name) {
  const api::PortSpec* port = engine.profile().find_port(name);
  if (port == nullptr) throw RpcError(RpcCode::kInvalidParams, fmt::format("params.port: no port is named '{}'", name));
  return *port;
}

const api::StreamSpec& stream_named(const Engine& engine, const std::string& name) {
  for (const api::StreamSpec& s : engine.profile().streams)
    if (s.name == name) return s;
  throw RpcError(RpcCode::kInvalidParams, fmt::format("params.stream: no stream is named '{}'", name));
}

void check_stream_ports(const PortOwnership& ownership, const Session& session, const api::StreamSpec& s) {
  ownership.check_may_change(session, s.tx_port);
  if (s.rx_port) ownership.check_may_change(session, *s.rx_port);
}

PortReport port_report(const Engine& engine, const std::string& name) {
  port_named(engine, name);
  for (PortReport& r : engine.port_reports())
    if (r.name == name) return std::move(r);
  throw RpcError(RpcCode::kNoDevice, fmt::format("port '{}' has no counters", name));
}

}  // namespace lr::dp
