// The bodies of control/state, monitor/metrics, monitor/capture and monitor/states read into their typed
// requests: each kind as snappi writes it to the exact struct, each bad shape refused with
// its path and reason (all of a body's problems at once); and every seed of the otg_request
// fuzz target (real snappi requests, tests/fuzz/corpus/otg_request) read without a refusal.
#include "control/otg/otg_requests.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "control/otg/otg_limits.hpp"
#include "lib/api/bounded_json.hpp"

namespace lr::otg {
namespace {

using nlohmann::json;

// The errors a refused body is answered with; {} when it is read.
template <class Read>
std::vector<std::string> refusal(Read read, const json& body) {
  try {
    read(body);
  } catch (const ConfigRefused& e) {
    return e.errors();
  }
  return {};
}

std::vector<std::string> state_refusal(const json& body) { return refusal(read_state_request, body); }
std::vector<std::string> metrics_refusal(const json& body) { return refusal(read_metrics_request, body); }
std::vector<std::string> capture_refusal(const json& body) { return refusal(read_capture_request, body); }

json transmit(json flow_transmit) {
  return {{"choice", "traffic"},
          {"traffic", {{"choice", "flow_transmit"}, {"flow_transmit", std::move(flow_transmit)}}}};
}

json port_state(const char* choice, json inner) {
  return {{"choice", "port"}, {"port", {{"choice", choice}, {choice, inner}}}};
}

using Transmit = FlowTransmitRequest::State;

TEST(OtgStateRequest, TrafficIsReadWithItsStateAndFlows) {
  EXPECT_EQ(read_state_request(transmit({{"flow_names", {"f1", "f2"}}, {"state", "start"}})),
            StateRequest(FlowTransmitRequest{Transmit::kStart, {"f1", "f2"}}));
  EXPECT_EQ(read_state_request(transmit({{"state", "stop"}})), StateRequest(FlowTransmitRequest{Transmit::kStop, {}}));
  EXPECT_EQ(read_state_request(transmit({{"state", "pause"}, {"flow_names", nullptr}})),
            StateRequest(FlowTransmitRequest{Transmit::kPause, {}}));
  // traffic.choice may be left out: flow_transmit is the model's only one.
  EXPECT_EQ(read_state_request({{"choice", "traffic"}, {"traffic", {{"flow_transmit", {{"state", "resume"}}}}}}),
            StateRequest(FlowTransmitRequest{Transmit::kResume, {}}));
}

TEST(OtgStateRequest, PortCaptureAndLinkAreReadWithTheirPorts) {
  EXPECT_EQ(read_state_request(port_state("capture", {{"port_names", {"tx"}}, {"state", "start"}})),
            StateRequest(PortCaptureRequest{PortCaptureRequest::State::kStart, {"tx"}}));
  EXPECT_EQ(read_state_request(port_state("capture", {{"state", "stop"}})),
            StateRequest(PortCaptureRequest{PortCaptureRequest::State::kStop, {}}));
  EXPECT_EQ(read_state_request(port_state("link", {{"port_names", {"tx", "rx"}}, {"state", "down"}})),
            StateRequest(PortLinkRequest{PortLinkRequest::State::kDown, {"tx", "rx"}}));
  EXPECT_EQ(read_state_request(port_state("link", {{"state", "up"}})),
            StateRequest(PortLinkRequest{PortLinkRequest::State::kUp, {}}));
}

json protocol(json inner) { return {{"choice", "protocol"}, {"protocol", std::move(inner)}}; }

TEST(OtgStateRequest, ProtocolAllIsReadWithItsState) {
  EXPECT_EQ(read_state_request(protocol({{"choice", "all"}, {"all", {{"state", "start"}}}})),
            StateRequest(ProtocolStateRequest{ProtocolStateRequest::State::kStart}));
  EXPECT_EQ(read_state_request(protocol({{"choice", "all"}, {"all", {{"state", "stop"}}}})),
            StateRequest(ProtocolStateRequest{ProtocolStateRequest::State::kStop}));
}

TEST(OtgStateRequest, ProtocolsLinerateDoesNotRunAreRefusedByName) {
  EXPECT_EQ(state_refusal(protocol({{"choice", "bgp"}, {"bgp", {{"choice", "peers"}}}})),
            std::vector<std::string>{"protocol.choice: 'bgp' is not supported by linerate: it runs no routing or LAG "
                                     "protocol; all starts or stops the devices' emulated hosts"});
  EXPECT_EQ(state_refusal(protocol({{"choice", "lacp"}})),
            std::vector<std::string>{"protocol.choice: 'lacp' is not supported by linerate: it runs no routing or LAG "
                                     "protocol; all starts or stops the devices' emulated hosts"});
  EXPECT_EQ(state_refusal(protocol({{"choice", "rip"}})),
            std::vector<std::string>{"protocol.choice: 'rip' is not all"});
  EXPECT_EQ(state_refusal(protocol({{"choice", "all"}, {"all", {{"state", "restart"}}}})),
            std::vector<std::string>{"protocol.all.state: 'restart' is not start or stop"});
  EXPECT_EQ(state_refusal(protocol({{"choice", "all"}})),
            std::vector<std::string>{"protocol.all.state: missing (start or stop)"});
  EXPECT_EQ(state_refusal({{"choice", "protocol"}}), std::vector<std::string>{"protocol.choice: missing (all)"});
  EXPECT_EQ(state_refusal(protocol({{"choice", "all"}, {"all", "start"}})),
            std::vector<std::string>{"protocol.all: a string, not an object"});
}

TEST(OtgStatesRequest, NeighboursOfEachVersionAreReadWithTheirEthernets) {
  using Kind = NeighborStatesRequest::Kind;
  EXPECT_EQ(read_states_request({{"choice", "ipv4_neighbors"}, {"ipv4_neighbors", {{"ethernet_names", {"e1"}}}}}),
            (NeighborStatesRequest{Kind::kIpv4, {"e1"}}));
  EXPECT_EQ(read_states_request({{"choice", "ipv6_neighbors"}, {"ipv6_neighbors", json::object()}}),
            (NeighborStatesRequest{Kind::kIpv6, {}}));
  // The model's default choice is ipv4_neighbors.
  EXPECT_EQ(read_states_request(json::object()), (NeighborStatesRequest{Kind::kIpv4, {}}));
}

TEST(OtgStatesRequest, ABadShapeIsRefusedWithItsPath) {
  const auto states_refusal = [](const json& body) { return refusal(read_states_request, body); };
  EXPECT_EQ(
      states_refusal({{"choice", "bgp_prefixes"}}),
      std::vector<std::string>{"choice: 'bgp_prefixes' is not ipv4_neighbors or ipv6_neighbors (the states of the "
                               "hosts linerate emulates: it runs no protocols)"});
  EXPECT_EQ(states_refusal({{"choice", "ipv6_neighbors"}, {"ipv6_neighbors", {{"ethernet_names", {"e1", 2}}}}}),
            std::vector<std::string>{"ipv6_neighbors.ethernet_names[1]: a number, not a string"});
  EXPECT_EQ(states_refusal({{"ipv4_neighbors", {{"ethernet_names", "e1"}}}}),
            std::vector<std::string>{"ipv4_neighbors.ethernet_names: a string, not a list of names"});
  EXPECT_EQ(states_refusal(json::array()), std::vector<std::string>{"monitor/states: an array, not an object"});
}

TEST(OtgStateRequest, AWrongWordIsRefusedWithItsPath) {
  EXPECT_EQ(state_refusal(transmit({{"state", "go"}})),
            std::vector<std::string>{"traffic.flow_transmit.state: 'go' is not start, stop, pause or resume"});
  EXPECT_EQ(state_refusal(port_state("capture", {{"state", "up"}})),
            std::vector<std::string>{"port.capture.state: 'up' is not start or stop"});
  EXPECT_EQ(state_refusal(port_state("link", {{"state", "sideways"}})),
            std::vector<std::string>{"port.link.state: 'sideways' is not up or down"});
  EXPECT_EQ(state_refusal(port_state("stats", json::object())),
            std::vector<std::string>{"port.choice: 'stats' is not link or capture"});
  EXPECT_EQ(state_refusal({{"choice", "route"}}),
            std::vector<std::string>{"choice: 'route' is not port, protocol or traffic"});
  EXPECT_EQ(state_refusal({{"choice", "traffic"},
                           {"traffic", {{"choice", "flow_rate"}, {"flow_transmit", {{"state", "stop"}}}}}}),
            std::vector<std::string>{"traffic.choice: 'flow_rate' is not flow_transmit"});
}

TEST(OtgStateRequest, WhatIsMissingIsRefusedAtItsPath) {
  EXPECT_EQ(state_refusal(json::object()), std::vector<std::string>{"choice: missing (port, protocol or traffic)"});
  EXPECT_EQ(state_refusal({{"choice", "traffic"}}),
            std::vector<std::string>{"traffic.flow_transmit.state: missing (start, stop, pause or resume)"});
  EXPECT_EQ(state_refusal({{"choice", "port"}, {"port", nullptr}}),
            std::vector<std::string>{"port.choice: missing (link or capture)"});
  EXPECT_EQ(state_refusal({{"choice", "port"}, {"port", {{"choice", "link"}}}}),
            std::vector<std::string>{"port.link.state: missing (up or down)"});
}

TEST(OtgStateRequest, AWrongTypeIsRefusedWithWhatItIs) {
  EXPECT_EQ(state_refusal(json::array()), std::vector<std::string>{"control/state: an array, not an object"});
  EXPECT_EQ(state_refusal({{"choice", 3}}),
            std::vector<std::string>{"choice: a number, not a string (port, protocol or traffic)"});
  EXPECT_EQ(state_refusal({{"choice", "traffic"}, {"traffic", "start"}}),
            std::vector<std::string>{"traffic: a string, not an object"});
  EXPECT_EQ(
      state_refusal(transmit({{"state", true}, {"flow_names", {"f1", "f2", 7, {{"name", "f4"}}}}})),
      (std::vector<std::string>{"traffic.flow_transmit.state: a boolean, not a string (start, stop, pause or resume)",
                                "traffic.flow_transmit.flow_names[2]: a number, not a string",
                                "traffic.flow_transmit.flow_names[3]: an object, not a string"}));
  EXPECT_EQ(state_refusal(transmit({{"state", "start"}, {"flow_names", "f1"}})),
            std::vector<std::string>{"traffic.flow_transmit.flow_names: a string, not a list of names"});
  EXPECT_EQ(state_refusal(port_state("capture", {{"state", "start"}, {"port_names", {nullptr}}})),
            std::vector<std::string>{"port.capture.port_names[0]: null, not a string"});
  EXPECT_EQ(state_refusal({{"choice", "port"}, {"port", {{"choice", "link"}, {"link", json::array()}}}}),
            std::vector<std::string>{"port.link: an array, not an object"});
}

TEST(OtgMetricsRequest, FlowAndPortAreReadWithTheirNames) {
  EXPECT_EQ(
      read_metrics_request({{"choice", "flow"}, {"flow", {{"flow_names", {"f1"}}, {"metric_names", {"frames_tx"}}}}}),
      (MetricsRequest{MetricsRequest::Kind::kFlow, {"f1"}}));
  EXPECT_EQ(read_metrics_request({{"choice", "port"}, {"port", {{"port_names", {"tx", "rx"}}}}}),
            (MetricsRequest{MetricsRequest::Kind::kPort, {"tx", "rx"}}));
  EXPECT_EQ(read_metrics_request({{"choice", "flow"}}), (MetricsRequest{MetricsRequest::Kind::kFlow, {}}));
  // The model's default choice is port; an empty body asks for every port.
  EXPECT_EQ(read_metrics_request(json::object()), (MetricsRequest{MetricsRequest::Kind::kPort, {}}));
}

TEST(OtgMetricsRequest, ABadShapeIsRefusedWithItsPath) {
  EXPECT_EQ(metrics_refusal({{"choice", "bgpv4"}}),
            std::vector<std::string>{"choice: 'bgpv4' is not port or flow (the metrics linerate serves)"});
  EXPECT_EQ(metrics_refusal({{"choice", "flow"}, {"flow", {{"flow_names", {"a", "b", 2}}}}}),
            std::vector<std::string>{"flow.flow_names[2]: a number, not a string"});
  EXPECT_EQ(metrics_refusal({{"choice", "port"}, {"port", 1}}),
            std::vector<std::string>{"port: a number, not an object"});
  EXPECT_EQ(metrics_refusal("port"), std::vector<std::string>{"monitor/metrics: a string, not an object"});
}

TEST(OtgCaptureRequest, ThePortNameIsRead) {
  EXPECT_EQ(read_capture_request({{"port_name", "tx"}, {"packets", {{"choice", "all"}}}}), CaptureRequest{"tx"});
  EXPECT_EQ(capture_refusal(json::object()),
            std::vector<std::string>{"port_name: missing (the port whose capture is wanted)"});
  EXPECT_EQ(capture_refusal({{"port_name", {"tx"}}}), std::vector<std::string>{"port_name: an array, not a string"});
  EXPECT_EQ(capture_refusal(nullptr), std::vector<std::string>{"monitor/capture: null, not an object"});
}

// Every seed of the fuzz target, made by snappi: its first byte picks the body, as the
// target reads it (its value mod 8: 0 config, 1 control/state, 2 metrics, 4 states, else
// capture); none is refused (the config against the target's ports: p0 at 100G, p1 of a
// speed not known).
TEST(OtgRequests, EverySnappiSeedIsRead) {
  const std::filesystem::path dir = std::filesystem::path(LR_SOURCE_ROOT) / "tests/fuzz/corpus/otg_request";
  size_t seen[5] = {};
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(bytes.empty()) << entry.path();
    const json body = api::parse_bounded_json(std::string_view(bytes).substr(1));
    EXPECT_EQ(string_length_problems(body), std::vector<std::string>{}) << entry.path();
    const auto selector = static_cast<unsigned char>(bytes[0]) % 8;
    const size_t kind = selector <= 4 ? selector : 3;
    ++seen[kind];
    std::vector<std::string> errors;
    switch (kind) {
      case 0:
        errors = refusal([](const json& b) { read_otg_config(b, {{"p0", 100'000'000'000}, {"p1", 0}}); }, body);
        break;
      case 1: errors = state_refusal(body); break;
      case 2: errors = metrics_refusal(body); break;
      case 4: errors = refusal(read_states_request, body); break;
      default: errors = capture_refusal(body); break;
    }
    EXPECT_EQ(errors, std::vector<std::string>{}) << entry.path();
  }
  for (size_t kind = 0; kind < 5; ++kind) EXPECT_GT(seen[kind], 0u) << "no seed of body kind " << kind;
}

}  // namespace
}  // namespace lr::otg
