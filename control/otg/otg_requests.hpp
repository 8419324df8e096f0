#pragma once
// The bodies of OTG's requests other than the config (open-traffic-generator/models
// 1.60.0: ControlState, MetricsRequest, CaptureRequest, StatesRequest), read into typed requests
// before the server acts on them. Pure: no server state, no I/O, so the reading is
// unit-tested and fuzzed (tests/fuzz/otg_request_fuzz.cpp) apart from the server.
// A body of the wrong shape is refused with ConfigRefused, every problem naming its
// JSON path: "traffic.flow_transmit.state: 'go' is not start, stop, pause or resume",
// "flow.flow_names[2]: a number, not a string". Keys the model has and linerate does
// not use (metric_names, column_names, packets) are left unread; an absent or null
// list of names means every name, as the model says.

#include <nlohmann/json.hpp>

#include <string>
#include <variant>
#include <vector>

#include "control/otg/otg_config.hpp"

namespace lr::otg {

/// control/state traffic.flow_transmit: the flows (none named: every flow) started,
/// stopped, paused or resumed.
struct FlowTransmitRequest {
  enum class State { kStart, kStop, kPause, kResume };
  State state = State::kStart;
  std::vector<std::string> flow_names;
  bool operator==(const FlowTransmitRequest&) const = default;
};

/// control/state port.capture: the captures of these ports (none named: every port
/// the config captures on) started or stopped.
struct PortCaptureRequest {
  enum class State { kStart, kStop };
  State state = State::kStart;
  std::vector<std::string> port_names;
  bool operator==(const PortCaptureRequest&) const = default;
};

/// control/state port.link: these ports' links (none named: every port) up or down.
struct PortLinkRequest {
  enum class State { kUp, kDown };
  State state = State::kUp;
  std::vector<std::string> port_names;
  bool operator==(const PortLinkRequest&) const = default;
};

/// control/state protocol.all: the devices' emulated hosts started (loaded again: they
/// announce themselves and resolve their gateways anew) or stopped (removed). The model's
/// other choices (route, lacp, bgp, isis, ospfv2, ospfv3) are refused: linerate runs none.
struct ProtocolStateRequest {
  enum class State { kStart, kStop };
  State state = State::kStart;
  bool operator==(const ProtocolStateRequest&) const = default;
};

/// The body of POST /control/state, by its choice.
using StateRequest = std::variant<FlowTransmitRequest, PortCaptureRequest, PortLinkRequest, ProtocolStateRequest>;

/// The body of POST /monitor/metrics: one kind's rows, of these names (none: all).
struct MetricsRequest {
  enum class Kind { kPort, kFlow };
  Kind kind = Kind::kPort;  ///< the model's default choice
  std::vector<std::string> names;  ///< port.port_names or flow.flow_names
  bool operator==(const MetricsRequest&) const = default;
};

/// The body of POST /monitor/states: the IPv4 or IPv6 neighbours (ARP or neighbour cache
/// entries) of these ethernets (none named: every one).
struct NeighborStatesRequest {
  enum class Kind { kIpv4, kIpv6 };
  Kind kind = Kind::kIpv4;  ///< the model's default choice
  std::vector<std::string> ethernet_names;
  bool operator==(const NeighborStatesRequest&) const = default;
};

/// The body of POST /monitor/capture: the port whose capture file is wanted.
struct CaptureRequest {
  std::string port_name;
  bool operator==(const CaptureRequest&) const = default;
};

/// Each reads a parsed body (an empty body is the empty object). Throws ConfigRefused
/// with every problem found, each with its path; nothing else but std::bad_alloc.
StateRequest read_state_request(const nlohmann::json& body);
MetricsRequest read_metrics_request(const nlohmann::json& body);
CaptureRequest read_capture_request(const nlohmann::json& body);
NeighborStatesRequest read_states_request(const nlohmann::json& body);

}  // namespace lr::otg
