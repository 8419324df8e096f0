#include "control/otg/otg_requests.hpp"

#include <fmt/format.h>

#include <optional>
#include <utility>

#include "control/otg/otg_json.hpp"

namespace lr::otg {

using nlohmann::json;

namespace {

std::string path_of(const std::string& parent, const char* key) { return parent.empty() ? key : parent + "." + key; }

// The member `key` of `object`, or none when it is absent or null (OTG's "not set").
const json* member(const json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

// The object at `key` (absent or null: the empty object, so that what it must hold is
// said missing at its own path), or none, refused, when it is not an object.
const json* object_member(const json& object, const char* key, const std::string& path, Problems& p) {
  static const json kEmpty = json::object();
  const json* v = member(object, key);
  if (v == nullptr) return &kEmpty;
  if (v->is_object()) return v;
  p.refuse(path, fmt::format("{}, not an object", kind_said(*v)));
  return nullptr;
}

// One of a few words at `key`, as its enum: `fallback` when absent (or refused as
// missing when there is none), refused when another word or not a string. `listed`
// says what it may be ("start, stop, pause or resume").
template <class E>
std::optional<E> word_member(const json& object, const char* key, const std::string& path,
                             std::initializer_list<std::pair<const char*, E>> words, const char* listed,
                             std::optional<E> fallback, Problems& p) {
  const json* v = member(object, key);
  if (v == nullptr) {
    if (!fallback) p.refuse(path, fmt::format("missing ({})", listed));
    return fallback;
  }
  if (!v->is_string()) {
    p.refuse(path, fmt::format("{}, not a string ({})", kind_said(*v), listed));
    return std::nullopt;
  }
  const auto& word = v->get_ref<const std::string&>();
  for (const auto& [name, value] : words)
    if (word == name) return value;
  p.refuse(path, fmt::format("'{}' is not {}", word, listed));
  return std::nullopt;
}

// The strings at `key` (absent or null: none, which OTG reads as every name).
std::vector<std::string> names_member(const json& object, const char* key, const std::string& path, Problems& p) {
  const json* v = member(object, key);
  std::vector<std::string> names;
  if (v == nullptr) return names;
  if (!v->is_array()) {
    p.refuse(path, fmt::format("{}, not a list of names", kind_said(*v)));
    return names;
  }
  for (size_t i = 0; i < v->size(); ++i) {
    const json& item = (*v)[i];
    if (item.is_string()) names.push_back(item.get<std::string>());
    else p.refuse(fmt::format("{}[{}]", path, i), fmt::format("{}, not a string", kind_said(item)));
  }
  return names;
}

// The body itself must be an object; `request` names it ("control/state").
void require_object(const json& body, const char* request) {
  if (!body.is_object()) throw ConfigRefused({fmt::format("{}: {}, not an object", request, kind_said(body))});
}

template <class T>
T or_refused(T value, Problems& p) {
  if (!p.errors.empty()) throw ConfigRefused(std::move(p.errors));
  return value;
}

StateRequest read_flow_transmit(const json& body, Problems& p) {
  FlowTransmitRequest out;
  const json* traffic = object_member(body, "traffic", "traffic", p);
  if (traffic == nullptr) return out;
  enum class Traffic { kFlowTransmit };
  word_member<Traffic>(*traffic, "choice", "traffic.choice", {{"flow_transmit", Traffic::kFlowTransmit}},
                       "flow_transmit", Traffic::kFlowTransmit, p);
  const json* transmit = object_member(*traffic, "flow_transmit", "traffic.flow_transmit", p);
  if (transmit == nullptr) return out;
  using State = FlowTransmitRequest::State;
  const auto state = word_member<State>(
      *transmit, "state", "traffic.flow_transmit.state",
      {{"start", State::kStart}, {"stop", State::kStop}, {"pause", State::kPause}, {"resume", State::kResume}},
      "start, stop, pause or resume", std::nullopt, p);
  out.state = state.value_or(State::kStart);
  out.flow_names = names_member(*transmit, "flow_names", "traffic.flow_transmit.flow_names", p);
  return out;
}

StateRequest read_port_state(const json& body, Problems& p) {
  const json* port = object_member(body, "port", "port", p);
  if (port == nullptr) return PortLinkRequest{};
  enum class Port { kLink, kCapture };
  const auto choice =
      word_member<Port>(*port, "choice", "port.choice", {{"link", Port::kLink}, {"capture", Port::kCapture}},
                        "link or capture", std::nullopt, p);
  if (!choice) return PortLinkRequest{};
  if (*choice == Port::kLink) {
    PortLinkRequest out;
    const json* link = object_member(*port, "link", "port.link", p);
    if (link == nullptr) return out;
    using State = PortLinkRequest::State;
    out.state = word_member<State>(*link, "state", "port.link.state", {{"up", State::kUp}, {"down", State::kDown}},
                                   "up or down", std::nullopt, p)
                    .value_or(State::kUp);
    out.port_names = names_member(*link, "port_names", "port.link.port_names", p);
    return out;
  }
  PortCaptureRequest out;
  const json* capture = object_member(*port, "capture", "port.capture", p);
  if (capture == nullptr) return out;
  using State = PortCaptureRequest::State;
  out.state = word_member<State>(*capture, "state", "port.capture.state",
                                 {{"start", State::kStart}, {"stop", State::kStop}}, "start or stop", std::nullopt, p)
                  .value_or(State::kStart);
  out.port_names = names_member(*capture, "port_names", "port.capture.port_names", p);
  return out;
}

// protocol: all's state; the model's other choices are protocols linerate does not run.
StateRequest read_protocol_state(const json& body, Problems& p) {
  ProtocolStateRequest out;
  const json* protocol = object_member(body, "protocol", "protocol", p);
  if (protocol == nullptr) return out;
  const json* choice = member(*protocol, "choice");
  if (choice != nullptr && choice->is_string() && *choice != "all") {
    const auto& word = choice->get_ref<const std::string&>();
    for (const char* known : {"route", "lacp", "bgp", "isis", "ospfv2", "ospfv3"})
      if (word == known) {
        p.refuse("protocol.choice", fmt::format("'{}' is not supported by linerate: it runs no routing or LAG "
                                                "protocol; all starts or stops the devices' emulated hosts",
                                                word));
        return out;
      }
  }
  enum class Protocol { kAll };
  if (!word_member<Protocol>(*protocol, "choice", "protocol.choice", {{"all", Protocol::kAll}}, "all", std::nullopt, p))
    return out;
  const json* all = object_member(*protocol, "all", "protocol.all", p);
  if (all == nullptr) return out;
  using State = ProtocolStateRequest::State;
  out.state = word_member<State>(*all, "state", "protocol.all.state",
                                 {{"start", State::kStart}, {"stop", State::kStop}}, "start or stop", std::nullopt, p)
                  .value_or(State::kStart);
  return out;
}

}  // namespace

StateRequest read_state_request(const json& body) {
  require_object(body, "control/state");
  Problems p;
  enum class Choice { kPort, kProtocol, kTraffic };
  const auto choice =
      word_member<Choice>(body, "choice", "choice",
                          {{"port", Choice::kPort}, {"protocol", Choice::kProtocol}, {"traffic", Choice::kTraffic}},
                          "port, protocol or traffic", std::nullopt, p);
  if (!choice) throw ConfigRefused(std::move(p.errors));
  switch (*choice) {
    case Choice::kTraffic: return or_refused(read_flow_transmit(body, p), p);
    case Choice::kPort: return or_refused(read_port_state(body, p), p);
    case Choice::kProtocol: break;
  }
  return or_refused(read_protocol_state(body, p), p);
}

MetricsRequest read_metrics_request(const json& body) {
  require_object(body, "monitor/metrics");
  Problems p;
  using Kind = MetricsRequest::Kind;
  MetricsRequest out;
  const auto kind = word_member<Kind>(body, "choice", "choice", {{"port", Kind::kPort}, {"flow", Kind::kFlow}},
                                      "port or flow (the metrics linerate serves)", Kind::kPort, p);
  if (!kind) throw ConfigRefused(std::move(p.errors));
  out.kind = *kind;
  const char* key = out.kind == Kind::kFlow ? "flow" : "port";
  if (const json* rows = object_member(body, key, key, p))
    out.names = names_member(*rows, out.kind == Kind::kFlow ? "flow_names" : "port_names",
                             path_of(key, out.kind == Kind::kFlow ? "flow_names" : "port_names"), p);
  return or_refused(std::move(out), p);
}

CaptureRequest read_capture_request(const json& body) {
  require_object(body, "monitor/capture");
  const json* name = member(body, "port_name");
  if (name == nullptr) throw ConfigRefused({"port_name: missing (the port whose capture is wanted)"});
  if (!name->is_string()) throw ConfigRefused({fmt::format("port_name: {}, not a string", kind_said(*name))});
  return {name->get<std::string>()};
}

NeighborStatesRequest read_states_request(const json& body) {
  require_object(body, "monitor/states");
  Problems p;
  using Kind = NeighborStatesRequest::Kind;
  const auto kind =
      word_member<Kind>(body, "choice", "choice", {{"ipv4_neighbors", Kind::kIpv4}, {"ipv6_neighbors", Kind::kIpv6}},
                        "ipv4_neighbors or ipv6_neighbors (the states of the hosts linerate emulates: it "
                        "runs no protocols)",
                        Kind::kIpv4, p);
  if (!kind) throw ConfigRefused(std::move(p.errors));
  NeighborStatesRequest out;
  out.kind = *kind;
  const char* key = out.kind == Kind::kIpv4 ? "ipv4_neighbors" : "ipv6_neighbors";
  if (const json* request = object_member(body, key, key, p))
    out.ethernet_names = names_member(*request, "ethernet_names", path_of(key, "ethernet_names"), p);
  return or_refused(std::move(out), p);
}

}  // namespace lr::otg
