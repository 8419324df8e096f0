#pragma once
// What neighbors.list answers: per port with emulated hosts, what its hosts' slow path
// counted, and every neighbour they resolve (a gateway, or an on-link destination of a
// stream): its state and MAC, and when it was resolved; the host events of late (resolved,
// failed, MAC changed, duplicate address). Built by the data plane, read back by
// `linerate neighbors`, the OTG server's /monitor/states and the run report.

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lr::api {

struct NeighborEntry {
  std::string host;          ///< "DEVICE[INDEX]": its [[device]] and place in the range
  std::string host_mac;      ///< the host's own MAC, "aa:bb:cc:dd:ee:ff"
  std::string host_address;  ///< the host's address it is asked from (IPv4 or IPv6 text)
  std::optional<uint16_t> vlan;
  std::string address;       ///< the neighbour's IPv4 or IPv6 address, as text
  std::string role;          ///< "gateway" (the host's) or "on-link" (a stream's destination)
  std::string state;         ///< "incomplete", "resolved" or "failed"
  std::optional<std::string> mac;  ///< resolved: its MAC
  uint32_t tries = 0;        ///< requests sent since it was added or the link came back
  std::optional<std::string> resolved_at;  ///< resolved: UTC, ISO 8601 with milliseconds
};

/// The slow path of one port: frames by what they led to, and what it sent or dropped.
struct SlowPathCounts {
  uint64_t answered = 0;     ///< requests answered (ARP, NS, echo)
  uint64_t no_reply = 0;     ///< well-formed, nothing to answer (replies, gratuitous ARP)
  uint64_t not_for_us = 0;   ///< for an address no host has
  uint64_t malformed = 0;
  uint64_t unsupported = 0;
  uint64_t dropped = 0;      ///< ring full: the control path was behind the workers
  uint64_t sent = 0;         ///< frames the hosts sent (replies, requests, announcements)
  uint64_t send_failed = 0;  ///< frames the TX queue did not take
};

struct PortNeighbors {
  std::string port;
  uint32_t hosts = 0;
  uint16_t tx_queue = 0;  ///< the hosts' own TX queue on the port
  SlowPathCounts counts;
  std::vector<NeighborEntry> neighbors;
  std::vector<std::string> events;  ///< the latest host events, oldest first (at most 64)
};

nlohmann::json to_json(const NeighborEntry& entry);
nlohmann::json to_json(const PortNeighbors& port);
nlohmann::json to_json(const std::vector<PortNeighbors>& ports);
/// Throws nlohmann::json::exception on a field of the wrong type.
std::vector<PortNeighbors> port_neighbors_from_json(const nlohmann::json& j);
/// One port's (an item of the array above).
PortNeighbors one_port_neighbors_from_json(const nlohmann::json& item);

}  // namespace lr::api
