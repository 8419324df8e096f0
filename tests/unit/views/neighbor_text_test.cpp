// `linerate neighbors` as text, exactly: the table's columns as wide as their widest cell,
// "-" for what the report does not have, the slow path's counts in their order, the latest
// events only, and a line for no hosts at all.
#include "lib/views/neighbor_text.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace lr::views {
namespace {

// A neighbour entry; `mac` and `resolved_at` "" for none.
api::NeighborEntry entry(const std::string& host, const std::string& host_address, std::optional<uint16_t> vlan,
                         const std::string& role, const std::string& address, const std::string& state,
                         const std::string& mac, uint32_t tries, const std::string& resolved_at) {
  api::NeighborEntry e;
  e.host = host;
  e.host_mac = "02:00:00:00:01:01";
  e.host_address = host_address;
  e.vlan = vlan;
  e.role = role;
  e.address = address;
  e.state = state;
  if (!mac.empty()) e.mac = mac;
  e.tries = tries;
  if (!resolved_at.empty()) e.resolved_at = resolved_at;
  return e;
}

api::PortNeighbors port_p0() {
  api::PortNeighbors p;
  p.port = "p0";
  p.hosts = 2;
  p.tx_queue = 1;
  p.counts = {.answered = 3,
              .no_reply = 1,
              .not_for_us = 2,
              .malformed = 0,
              .unsupported = 1,
              .dropped = 0,
              .sent = 7,
              .send_failed = 0};
  p.neighbors = {entry("hosts_a[0]", "198.18.0.1", std::nullopt, "gateway", "198.18.0.254", "resolved",
                       "02:00:00:00:fe:01", 1, "2026-12-06T11:09:00.123Z"),
                 entry("hosts_a[1]", "2001:db8:a::2", 10, "gateway", "2001:db8:a::fe", "incomplete", "", 2, "")};
  p.events = {"2026-12-06T11:09:00.123Z hosts_a[0]: gateway 198.18.0.254 resolved to 02:00:00:00:fe:01"};
  return p;
}

TEST(NeighborText, APortsNeighboursCountsAndEvents) {
  EXPECT_EQ(
      neighbor_text({port_p0()}),
      "port p0: 2 hosts, sending on TX queue 1\n"
      "  host        host address   VLAN  role     neighbour       state       MAC                tries  resolved at\n"
      "  hosts_a[0]  198.18.0.1     -     gateway  198.18.0.254    resolved    02:00:00:00:fe:01  1      "
      "2026-12-06T11:09:00.123Z\n"
      "  hosts_a[1]  2001:db8:a::2  10    gateway  2001:db8:a::fe  incomplete  -                  2      -\n"
      "  slow path: 3 answered, 1 no reply, 2 not for us, 0 malformed, 1 unsupported, 0 dropped (ring full), "
      "7 sent, 0 send failed\n"
      "  events:\n"
      "    2026-12-06T11:09:00.123Z hosts_a[0]: gateway 198.18.0.254 resolved to 02:00:00:00:fe:01\n");
}

TEST(NeighborText, PortsAreSectionsInTheReportsOrder) {
  api::PortNeighbors p1;
  p1.port = "p1";
  p1.hosts = 1;
  p1.tx_queue = 3;
  p1.counts.dropped = 12;
  p1.neighbors = {entry("b[0]", "198.19.0.1", std::nullopt, "on-link", "198.19.0.9", "failed", "", 3, "")};
  const std::string text = neighbor_text({p1, port_p0()});
  EXPECT_EQ(text.substr(0, text.find("\nport p0:") + 1),
            "port p1: 1 host, sending on TX queue 3\n"
            "  host  host address  VLAN  role     neighbour   state   MAC  tries  resolved at\n"
            "  b[0]  198.19.0.1    -     on-link  198.19.0.9  failed  -    3      -\n"
            "  slow path: 0 answered, 0 no reply, 0 not for us, 0 malformed, 0 unsupported, 12 dropped (ring full), "
            "0 sent, 0 send failed\n"
            "  events: none\n"
            "\n");
  EXPECT_EQ(text.substr(text.find("\nport p0:") + 1), neighbor_text({port_p0()}));
}

TEST(NeighborText, OnlyTheLatestEventsAreShown) {
  api::PortNeighbors p = port_p0();
  p.events.clear();
  for (int i = 1; i <= 12; ++i) p.events.push_back("event " + std::to_string(i));
  const std::string text = neighbor_text({p});
  const std::string events = text.substr(text.find("  events"));
  EXPECT_EQ(events,
            "  events (the latest 10 of 12; --json has them all):\n"
            "    event 3\n    event 4\n    event 5\n    event 6\n    event 7\n"
            "    event 8\n    event 9\n    event 10\n    event 11\n    event 12\n");
}

TEST(NeighborText, APortWhoseHostsHaveNothingToResolveSaysSo) {
  api::PortNeighbors p;
  p.port = "p2";
  p.hosts = 1;
  EXPECT_EQ(neighbor_text({p}),
            "port p2: 1 host, sending on TX queue 0\n"
            "  no neighbours to resolve\n"
            "  slow path: 0 answered, 0 no reply, 0 not for us, 0 malformed, 0 unsupported, 0 dropped (ring full), "
            "0 sent, 0 send failed\n"
            "  events: none\n");
}

TEST(NeighborText, NoPortsIsOneLine) {
  EXPECT_EQ(neighbor_text({}), "no emulated hosts: the data plane has no devices loaded ([[device]] tables)\n");
}

}  // namespace
}  // namespace lr::views
