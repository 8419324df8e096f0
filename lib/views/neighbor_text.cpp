#include "lib/views/neighbor_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace lr::views {

namespace {

constexpr size_t kColumns = 9;
using Row = std::array<std::string, kColumns>;

// Columns as wide as their widest cell, two spaces apart, the last one unpadded (no
// trailing blanks), each row indented under its port.
std::string aligned(const std::vector<Row>& rows, const std::string& indent) {
  std::array<size_t, kColumns> width{};
  for (const Row& row : rows)
    for (size_t c = 0; c < kColumns; ++c) width[c] = std::max(width[c], row[c].size());
  std::string out;
  for (const Row& row : rows) {
    std::string line = indent;
    for (size_t c = 0; c + 1 < kColumns; ++c) line += fmt::format("{:<{}}  ", row[c], width[c]);
    line += row[kColumns - 1];
    out += line + "\n";
  }
  return out;
}

Row entry_row(const api::NeighborEntry& e) {
  return {e.host,
          e.host_address,
          e.vlan ? std::to_string(*e.vlan) : "-",
          e.role,
          e.address,
          e.state,
          e.mac.value_or("-"),
          std::to_string(e.tries),
          e.resolved_at.value_or("-")};
}

std::string counts_line(const api::SlowPathCounts& c) {
  return fmt::format(
      "  slow path: {} answered, {} no reply, {} not for us, {} malformed, {} unsupported, {} dropped (ring full), "
      "{} sent, {} send failed\n",
      c.answered, c.no_reply, c.not_for_us, c.malformed, c.unsupported, c.dropped, c.sent, c.send_failed);
}

std::string events_text(const std::vector<std::string>& events) {
  if (events.empty()) return "  events: none\n";
  const size_t shown = std::min(events.size(), kNeighborEventsShown);
  std::string out = shown == events.size()
                        ? "  events:\n"
                        : fmt::format("  events (the latest {} of {}; --json has them all):\n", shown, events.size());
  for (size_t i = events.size() - shown; i < events.size(); ++i) out += "    " + events[i] + "\n";
  return out;
}

std::string port_text(const api::PortNeighbors& port) {
  std::string out = fmt::format("port {}: {} host{}, sending on TX queue {}\n", port.port, port.hosts,
                                port.hosts == 1 ? "" : "s", port.tx_queue);
  if (port.neighbors.empty()) {
    out += "  no neighbours to resolve\n";
  } else {
    std::vector<Row> rows{
        {"host", "host address", "VLAN", "role", "neighbour", "state", "MAC", "tries", "resolved at"}};
    for (const api::NeighborEntry& e : port.neighbors) rows.push_back(entry_row(e));
    out += aligned(rows, "  ");
  }
  return out + counts_line(port.counts) + events_text(port.events);
}

}  // namespace

std::string neighbor_text(const std::vector<api::PortNeighbors>& ports) {
  if (ports.empty()) return "no emulated hosts: the data plane has no devices loaded ([[device]] tables)\n";
  std::string out;
  for (size_t i = 0; i < ports.size(); ++i) out += (i == 0 ? "" : "\n") + port_text(ports[i]);
  return out;
}

}  // namespace lr::views
