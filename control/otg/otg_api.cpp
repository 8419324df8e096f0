#include "control/otg/otg_api.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "control/client/host_client.hpp"
#include "control/client/port_client.hpp"
#include "control/otg/otg_limits.hpp"
#include "control/otg/otg_neighbors.hpp"
#include "lib/api/bounded_json.hpp"
#include "lib/api/rpc.hpp"

namespace lr::otg {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using nlohmann::json;

// OTG's error body: its kind says whose the fault is (validation: the request's, or the
// state it met; internal: the host's or linerate's), the status says more (docs/reference/limits.md).
Answer refused(const std::vector<std::string>& errors, http::status status) {
  return {status,
          {{"code", static_cast<int>(status)},
           {"kind", static_cast<int>(status) < 500 ? "validation" : "internal"},
           {"errors", errors}}};
}

namespace {

// The data plane's refusal by its cause: the request (400), a state that does not allow
// it (409), a request larger than the socket carries (413), a host resource that ran
// out (507); only what is left is linerate's fault (500).
Answer refused_by_dataplane(const ctl::RpcCallError& e) {
  using api::RpcCode;
  switch (static_cast<RpcCode>(e.code())) {
    case RpcCode::kInvalidParams:
    case RpcCode::kNotSupported: return refused({e.what()});
    case RpcCode::kBusy:
    case RpcCode::kPortOwned:
    case RpcCode::kNoDevice: return refused({e.what()}, http::status::conflict);
    case RpcCode::kRequestTooLarge: return refused({e.what()}, http::status::payload_too_large);
    case RpcCode::kNoResource:
      return refused({fmt::format("the host ran out: {}", e.what())}, http::status::insufficient_storage);
    default: return refused({e.what()}, http::status::internal_server_error);
  }
}

Answer warnings(const std::vector<std::string>& list) { return {http::status::ok, {{"warnings", list}}}; }

}  // namespace

Api::Api(const ctl::DataplaneAddress& dataplane, std::string capture_dir, asio::io_context& io)
    : client_(dataplane),
      run_(client_),
      capture_dir_(std::move(capture_dir)),
      watch_(dataplane.text(), {"linerate otg", "answering 503 and retrying with backoff", "POST /config again"}),
      retry_(io, watch_,
             {.connect = [this] { client_.reconnect(); },
              .on_back = [this] { forget_session(); },
              .check =
                  [this] {
                    if (client_.hung_up())
                      throw ctl::ConnectionError(fmt::format("the data plane at {} hung up", client_.address().text()));
                  }}) {
  client_.hello("linerate-otg");
}

Answer Api::handle(http::verb verb, const std::string& target, const std::string& body) {
  try {
    if (!watch_.up()) reconnect();
    if (!watch_.up()) return away();
    return route(verb, target, body);
  } catch (const api::JsonTooDeep& e) {
    return refused({fmt::format("the body is {} (linerate reads at most {})", e.what(), api::kMaxJsonDepth)});
  } catch (const json::exception& e) {
    return refused({fmt::format("the body is not JSON linerate can read: {}", e.what())});
  } catch (const ConfigRefused& e) {
    return refused(e.errors());
  } catch (const ctl::RpcCallError& e) {
    return refused_by_dataplane(e);
  } catch (const ctl::ConnectionError& e) {
    watch_.lost(e.what(), ctl::DataplaneWatch::Clock::now());
    return away();
  }
}

Answer Api::route(http::verb verb, const std::string& target, const std::string& body) {
  if (verb == http::verb::get && target == "/capabilities/version")
    return {http::status::ok,
            {{"api_spec_version", kApiSpecVersion}, {"sdk_version", ""}, {"app_version", LR_VERSION}}};
  if (verb == http::verb::get && target == "/config")
    return {http::status::ok, config_ ? config_->body : json::object()};
  if (verb == http::verb::get && target == "/linerate/flows") return linerate_flows();
  if (verb == http::verb::get && target == "/linerate/ports") return linerate_ports();
  json request = body.empty() ? json::object() : api::parse_bounded_json(body);
  if (auto problems = string_length_problems(request); !problems.empty()) return refused(problems);
  if (verb == http::verb::post && target == "/config") return set_config(request);
  if (verb == http::verb::post && target == "/control/state") return set_state(request);
  if (verb == http::verb::post && target == "/monitor/metrics") return metrics(request);
  if (verb == http::verb::post && target == "/monitor/capture") return capture_file(request);
  if (verb == http::verb::post && target == "/monitor/states") return neighbor_states_answer(request);
  return refused({fmt::format("{} {} is not served by linerate", std::string(http::to_string(verb)), target)},
                 http::status::not_found);
}

void Api::reconnect() {
  if (watch_.retry([this] { client_.reconnect(); }, ctl::DataplaneWatch::Clock::now())) forget_session();
}

void Api::forget_session() {
  config_.reset();
  running_ = false;
  ended_.reset();
  own_run_.reset();
  held_.clear();
  captures_.clear();
}

Answer Api::away() const {
  return refused(
      {fmt::format("{}; linerate retries with backoff (POST /config again once it serves)", watch_.reason())},
      http::status::service_unavailable);
}

Answer Api::set_config(const json& request) {
  if (running_)
    return refused({"config: traffic is running: stop it (control/state) before a new config"}, http::status::conflict);
  OtgConfig config = read_otg_config(request, run_.port_speeds());
  load_devices(config.devices);
  try {
    load_streams(config);
    stop_captures();
  } catch (const ctl::RpcCallError& e) {
    // The data plane's own checks against its ports (a frame too small for its headers,
    // a rate above the port's): the flows are refused, stream[i] being flows[i].
    if (e.code() == static_cast<int>(api::RpcCode::kInvalidParams))
      return refused({fmt::format("flows: {}", e.what())});
    throw;
  }
  ended_.reset();
  held_.clear();
  set_flow_control(config);
  config_ = std::move(config);
  return warnings(config_->warnings);
}

namespace {

bool no_method(const ctl::RpcCallError& e) { return e.code() == static_cast<int>(api::RpcCode::kMethodNotFound); }

}  // namespace

void Api::load_devices(const OtgDevices& devices) {
  try {
    ctl::HostClient(client_).load_devices(devices.load, "config");
  } catch (const ctl::RpcCallError& e) {
    if (no_method(e) && devices.ethernets.empty()) return;  // it has no hosts to remove
    if (no_method(e)) throw ConfigRefused({fmt::format("devices: this data plane emulates no hosts: {}", e.what())});
    if (e.code() == static_cast<int>(api::RpcCode::kInvalidParams))
      throw ConfigRefused({device_load_refusal(e.what(), devices)});
    throw;
  }
}

Answer Api::set_protocol_state(const ProtocolStateRequest& request) {
  if (!config_) return refused({"control/state: no config: POST /config first"}, http::status::conflict);
  load_devices(request.state == ProtocolStateRequest::State::kStart ? config_->devices : OtgDevices{});
  return warnings({});
}

Answer Api::neighbor_states_answer(const json& body) {
  const NeighborStatesRequest request = read_states_request(body);
  std::vector<api::PortNeighbors> ports;
  std::optional<std::string> warning;
  try {
    ports = ctl::HostClient(client_).neighbors();
  } catch (const ctl::RpcCallError& e) {
    if (!no_method(e)) throw;
    warning = fmt::format("this data plane emulates no hosts ({}): it has no neighbours to report", e.what());
  }
  Answer a{http::status::ok, neighbor_states(request, ports, config_ ? config_->devices : OtgDevices{})};
  if (warning) a.body["warnings"] = {*warning};
  return a;
}

void Api::load_streams(const OtgConfig& config) {
  const api::RunSpec now = run_.load(config.streams, "config", own_run_);
  if (!own_run_) own_run_ = now;  // the data plane's, before this server changed it
  if (config.timestamped_flows.empty() || now.timeline_bin_ns != 0) return;
  api::RunSpec timed = now;
  timed.timeline_bin_ns = 10'000'000;
  run_.load(config.streams, "config", timed);
}

void Api::set_flow_control(OtgConfig& config) {
  std::map<std::string, bool> honours;
  for (const api::PortSpec& spec : run_.port_specs()) honours[spec.name] = spec.pfc_honour;
  ctl::PortClient ports(client_);
  for (const FlowControlSetting& s : config.flow_control) {
    const char* what = s.pause ? "802.3x PAUSE" : "PFC";
    try {
      if (s.pause) ports.set_pause(s.port, "both");
      else ports.set_pfc(s.port, s.pfc_priorities);
    } catch (const ctl::RpcCallError& e) {
      config.warnings.push_back(
          honours[s.port]
              ? fmt::format("{}: {} reacts to {} in software (its profile's pfc_honour); the NIC's own could not be "
                            "set: {}",
                            s.path, s.port, what, e.what())
              : fmt::format("{}: {} could not be set on {}: {}; its streams do not pause on {} frames (give the port "
                            "pfc_honour in the data plane's profile for a software reaction)",
                            s.path, what, s.port, e.what(), what));
    }
  }
}

const std::string* Api::location_of(const std::string& name) const {
  if (!config_) return nullptr;
  const auto it = config_->ports.find(name);
  return it == config_->ports.end() ? nullptr : &it->second;
}

Answer Api::set_capture_state(const PortCaptureRequest& request) {
  std::vector<std::string> names = request.port_names;
  if (names.empty() && config_)
    for (const auto& [name, setting] : config_->captures) names.push_back(name);
  for (const std::string& name : names) {
    const std::string* location = location_of(name);
    if (location == nullptr)
      return refused({fmt::format("port.capture.port_names: '{}' is not one of the config's ports", name)});
    stop_capture(name);
    if (request.state == PortCaptureRequest::State::kStop) continue;
    api::CaptureSpec spec;
    spec.port = *location;
    spec.file = capture_dir_ + "/" + *location + ".pcapng";
    spec.direction = "both";
    if (const auto it = config_->captures.find(name); it != config_->captures.end()) {
      spec.filter = it->second.filter;
      spec.snaplen = it->second.snaplen;
    }
    captures_[name] = run_.start_capture(spec).id;
    files_[name] = spec.file;
  }
  return warnings({});
}

Answer Api::set_link_state(const PortLinkRequest& request) {
  std::vector<std::string> names = request.port_names;
  if (names.empty() && config_)
    for (const auto& [name, location] : config_->ports) names.push_back(name);
  for (const std::string& name : names) {
    const std::string* location = location_of(name);
    if (location == nullptr)
      return refused({fmt::format("port.link.port_names: '{}' is not one of the config's ports", name)});
    ctl::PortClient(client_).set_link_up(*location, request.state == PortLinkRequest::State::kUp);
  }
  return warnings({});
}

Answer Api::linerate_flows() {
  if (running_ && run_.status().tx_finished) finish();
  json out = json::array();
  for (const api::StreamReport& s : ended_ ? ended_->streams : run_.stream_stats()) out.push_back(api::to_json(s));
  return {http::status::ok, {{"flows", out}}};
}

Answer Api::linerate_ports() {
  json out = json::array();
  for (const api::PortReport& p : ended_ ? ended_->ports : run_.port_stats()) out.push_back(api::to_json(p));
  return {http::status::ok, {{"ports", out}}};
}

Answer Api::capture_file(const json& body) {
  const std::string name = read_capture_request(body).port_name;
  stop_capture(name);
  const auto file = files_.find(name);
  if (file == files_.end()) return refused({fmt::format("port_name: '{}' has no capture (start one first)", name)});
  std::ifstream in(file->second, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  Answer a;
  a.bytes = bytes.str();
  return a;
}

void Api::stop_capture(const std::string& name) {
  if (const auto it = captures_.find(name); it != captures_.end()) {
    run_.stop_capture(it->second);
    captures_.erase(it);
  }
}

void Api::stop_captures() {
  for (const auto& [name, id] : captures_) run_.stop_capture(id);
  captures_.clear();
}

Answer Api::set_state(const json& body) {
  const StateRequest request = read_state_request(body);
  if (const auto* protocol = std::get_if<ProtocolStateRequest>(&request)) return set_protocol_state(*protocol);
  if (const auto* capture = std::get_if<PortCaptureRequest>(&request)) return set_capture_state(*capture);
  if (const auto* link = std::get_if<PortLinkRequest>(&request)) return set_link_state(*link);
  return set_transmit_state(std::get<FlowTransmitRequest>(request));
}

Answer Api::set_transmit_state(const FlowTransmitRequest& request) {
  using State = FlowTransmitRequest::State;
  std::vector<std::string> flows = request.flow_names;
  if (request.state == State::kStop) {
    if (running_) finish();
    return warnings({});
  }
  if (auto unknown = unknown_flow(flows)) return *unknown;
  if (request.state == State::kStart) {
    if (running_) finish();  // a start is a new run, as on a hardware tester
    run_.start(flows);
    running_ = true;
    ended_.reset();
    held_.clear();
    return warnings({});
  }
  if (!running_)
    return refused({fmt::format("traffic.flow_transmit: no traffic is running to {}",
                                request.state == State::kPause ? "pause" : "resume")},
                   http::status::conflict);
  if (flows.empty())
    for (const api::StreamSpec& s : config_->streams) flows.push_back(s.name);
  for (const std::string& flow : flows) {
    run_.hold(flow, request.state == State::kPause);
    if (request.state == State::kPause) held_.insert(flow);
    else held_.erase(flow);
  }
  return warnings({});
}

std::optional<Answer> Api::unknown_flow(const std::vector<std::string>& flows) const {
  if (!config_) return refused({"control/state: no config: POST /config first"}, http::status::conflict);
  for (size_t i = 0; i < flows.size(); ++i)
    if (std::none_of(config_->streams.begin(), config_->streams.end(),
                     [&](const api::StreamSpec& s) { return s.name == flows[i]; }))
      return refused(
          {fmt::format("traffic.flow_transmit.flow_names[{}]: '{}' is not one of the config's flows", i, flows[i])});
  return std::nullopt;
}

void Api::finish() {
  ended_ = run_.stop().report;
  running_ = false;
  held_.clear();
}

Answer Api::metrics(const json& body) {
  const MetricsRequest request = read_metrics_request(body);
  if (running_ && run_.status().tx_finished) finish();
  const std::string transmit = running_ ? "started" : "stopped";
  std::map<std::string, std::string> names;  // the data plane's port -> the config's
  if (config_)
    for (const auto& [name, location] : config_->ports) names[location] = name;
  return request.kind == MetricsRequest::Kind::kFlow ? flow_metrics(request.names, transmit, names)
                                                     : port_metrics(request.names, transmit, names);
}

Answer Api::flow_metrics(const std::vector<std::string>& wanted, const std::string& transmit,
                         const std::map<std::string, std::string>& names) {
  const std::vector<api::StreamReport> streams = ended_ ? ended_->streams : run_.stream_stats();
  json out = json::array();
  for (const api::StreamReport& s : streams) {
    if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), s.name) == wanted.end()) continue;
    const std::vector<double> r =
        sampler_.rates("flow " + s.name, {s.tx_packets, s.rx_packets}, RateSampler::Clock::now());
    out.push_back(flow_metric(s, {r[0], r[1]}, held_.contains(s.name) ? "paused" : transmit, names,
                              config_ && config_->timestamped_flows.contains(s.name)));
  }
  return {http::status::ok, {{"choice", "flow_metrics"}, {"flow_metrics", out}}};
}

Answer Api::port_metrics(const std::vector<std::string>& wanted, const std::string& transmit,
                         const std::map<std::string, std::string>& names) {
  const std::vector<api::PortTraffic> traffic = run_.port_traffic();
  const std::vector<api::PortReport> ports = run_.ports();
  json out = json::array();
  for (const auto& [location, name] : names) {
    if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), name) == wanted.end()) continue;
    const auto t = std::find_if(traffic.begin(), traffic.end(), [&](const auto& x) { return x.name == location; });
    const auto p = std::find_if(ports.begin(), ports.end(), [&](const auto& x) { return x.name == location; });
    const api::PortTraffic now = t == traffic.end() ? api::PortTraffic{} : *t;
    const std::vector<double> r = sampler_.rates(
        "port " + location, {now.tx_packets, now.rx_packets, now.tx_bytes, now.rx_bytes}, RateSampler::Clock::now());
    out.push_back(port_metric(name, location, now, {r[0], r[1], r[2], r[3]}, p != ports.end() && p->link_up,
                              captures_.contains(name), transmit));
  }
  return {http::status::ok, {{"choice", "port_metrics"}, {"port_metrics", out}}};
}

}  // namespace lr::otg
