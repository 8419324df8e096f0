#include "control/otg/otg_api.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "control/client/host_client.hpp"
#include "control/client/port_client.hpp"
#include "control/client/run_client.hpp"
#include "control/otg/otg_limits.hpp"
#include "control/otg/otg_neighbors.hpp"
#include "lib/api/bounded_json.hpp"
#include "lib/api/rpc.hpp"
#include "lib/profile/device_spec_json.hpp"
#include "lib/profile/load_toml.hpp"

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

Api::Api(const Dataplanes& dataplanes, std::string capture_dir, asio::io_context& io)
    : options_(dataplanes.served),
      names_(dataplanes.names),
      client_(dataplanes.served, {"linerate-otg"}),
      served_(client_),
      capture_dir_(std::move(capture_dir)),
      watch_(dataplanes.served.text(),
             {"linerate otg", "answering 503 and retrying with backoff", "POST /config again"}),
      retry_(io, watch_,
             {.connect = [this] { client_.reconnect(); },
              .on_back =
                  [this] {
                    if (!fleet_) forget_session();  // a config over other data planes is not its
                  },
              .check =
                  [this] {
                    if (client_.hung_up())
                      throw ctl::ConnectionError(fmt::format("the data plane at {} hung up", client_.address().text()));
                  }}),
      lease_timer_(io) {
  try {
    client_.reconnect();  // connects, and says hello
  } catch (const ctl::ConnectionError& e) {
    if (!dataplanes.served_optional) throw;
    watch_.lost(e.what(), ctl::DataplaneWatch::Clock::now());
  }
  keep_leases();
}

Answer Api::handle(http::verb verb, const std::string& target, const std::string& body) {
  try {
    // A config over other data planes needs none served here (POST /config sees which it
    // is), nor does the version.
    const bool served_needed = !fleet_ && !(verb == http::verb::post && target == "/config") &&
                               !(verb == http::verb::get && target == "/capabilities/version");
    if (served_needed && !watch_.up()) reconnect();
    if (served_needed && !watch_.up()) return away();
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
    if (fleet_) return fleet_lost(e.what());
    watch_.lost(e.what(), ctl::DataplaneWatch::Clock::now());
    return away();
  } catch (const std::exception& e) {  // linerate's own fault: said, and the server serves on
    return refused({fmt::format("linerate could not answer: {}", e.what())}, http::status::internal_server_error);
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
  files_.clear();  // the ids were the old session's captures
}

Answer Api::away() const {
  return refused(
      {fmt::format("{}; linerate retries with backoff (POST /config again once it serves)", watch_.reason())},
      http::status::service_unavailable);
}

Answer Api::set_config(const json& request) {
  if (running_)
    return refused({"config: traffic is running: stop it (control/state) before a new config"}, http::status::conflict);
  if (auto refusal = choose_dataplanes(located_ports(request))) return *refusal;
  OtgConfig config = read_otg_config(request, target_->port_speeds());
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

std::vector<std::string> addresses_of(const ctl::EngineFleet* fleet) {
  std::vector<std::string> out;
  if (fleet != nullptr)
    for (const ctl::FleetEngine& e : fleet->engines()) out.push_back(e.address);
  return out;
}

}  // namespace

std::optional<Answer> Api::choose_dataplanes(const std::vector<api::PortSpec>& located) {
  if (located.empty() && !watch_.up()) reconnect();
  if (located.empty() && !watch_.up()) return away();
  if (!located.empty() || fleet_) {
    // Another set of data planes: the old config, its run and its captures are over.
    config_.reset();
    ended_.reset();
    held_.clear();
    try {
      stop_captures();
    } catch (const std::exception&) {  // gone with its data plane's session
    }
    remove_capture_files();  // the ids are the old data planes' captures
  }
  const std::vector<std::string> before = addresses_of(fleet_.get());
  fleet_.reset();  // its data planes' streams are replaced by the next config naming them
  target_ = &served_;
  if (located.empty()) {
    if (!before.empty()) own_run_.reset();  // the served data plane's own settings are read anew
    return std::nullopt;
  }
  std::string problem;
  try {
    fleet_ = ctl::EngineFleet::open(located, options_, names_, "linerate-otg", problem);
  } catch (const ctl::ConnectionError& e) {
    return refused({fmt::format("ports: {}", e.what())}, http::status::service_unavailable);
  }
  if (!fleet_) throw ConfigRefused({fmt::format("ports: {}", problem)});
  // The run settings kept are the first data plane's: others' stand only for the same ones.
  if (addresses_of(fleet_.get()) != before) own_run_.reset();
  target_ = fleet_.get();
  return std::nullopt;
}

Answer Api::fleet_lost(const std::string& what) {
  fleet_->stop_after_loss(what);
  std::string said = fleet_->lost();
  if (running_) {
    try {
      api::RunReport report = fleet_->report().report;
      said = fmt::format("{}: the run was stopped on every other data plane, what they measured kept for the metrics",
                         report.interrupted_by.value_or(said));  // it names each that did not stop
      ended_ = std::move(report);
    } catch (const std::exception& e) {  // the loss is said all the same
      said = fmt::format("{} (the run's report could not be joined: {})", said, e.what());
    }
  }
  running_ = false;
  held_.clear();
  return refused({fmt::format("{}; POST /config again once it serves", said)}, http::status::service_unavailable);
}

void Api::keep_leases() {
  lease_timer_.expires_after(fleet_ ? fleet_->ask_every() : std::chrono::milliseconds(1000));
  lease_timer_.async_wait([this](const boost::system::error_code& error) {
    if (error) return;  // cancelled: the server ends
    if (fleet_ && running_) try {
        target_->all_sent();
      } catch (const ctl::ConnectionError& e) {
        std::fprintf(stderr, "linerate otg: %s\n", fleet_lost(e.what()).body["errors"][0].get<std::string>().c_str());
      } catch (const std::exception&) {  // a refusal: the next request meets it
      }
    keep_leases();
  });
}

namespace {

bool no_method(const ctl::RpcCallError& e) { return e.code() == static_cast<int>(api::RpcCode::kMethodNotFound); }

}  // namespace

void Api::load_devices(const OtgDevices& devices) {
  if (fleet_) {
    profile::Profile on;  // the ports the hosts are on, by location
    std::set<std::string> seen;
    for (const OtgEthernet& e : devices.ethernets)
      if (seen.insert(e.port).second) on.ports.emplace_back().name = e.port;
    try {
      fleet_->load_devices(profile::devices_from_json(devices.load, "config", on), "config");
    } catch (const profile::ConfigError& e) {
      throw ConfigRefused({fmt::format("devices: {}", e.what())});
    } catch (const ctl::RpcCallError& e) {
      // Each data plane gets the hosts on its ports: its refusal names places in its own list.
      if (e.code() == static_cast<int>(api::RpcCode::kInvalidParams))
        throw ConfigRefused({fmt::format("devices: a data plane refused the hosts on its ports: {}", e.what())});
      throw;
    }
    return;
  }
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
    ports = target_->neighbors();
  } catch (const ctl::RpcCallError& e) {
    if (!no_method(e)) throw;
    warning = fmt::format("this data plane emulates no hosts ({}): it has no neighbours to report", e.what());
  }
  Answer a{http::status::ok, neighbor_states(request, ports, config_ ? config_->devices : OtgDevices{})};
  if (warning) a.body["warnings"] = {*warning};
  return a;
}

void Api::load_streams(const OtgConfig& config) {
  const api::RunSpec now = target_->load(config.streams, "config", own_run_);
  if (!own_run_) own_run_ = now;  // the data plane's, before this server changed it
  if (config.timestamped_flows.empty() || now.timeline_bin_ns != 0) return;
  api::RunSpec timed = now;
  timed.timeline_bin_ns = 10'000'000;
  target_->load(config.streams, "config", timed);
}

void Api::set_flow_control(OtgConfig& config) {
  for (const FlowControlSetting& s : config.flow_control) {
    const char* what = s.pause ? "802.3x PAUSE" : "PFC";
    const ctl::PortPlace place = target_->place_of(s.port);
    try {
      ctl::PortClient ports(*place.dataplane);
      if (s.pause) ports.set_pause(place.name, "both");
      else ports.set_pfc(place.name, s.pfc_priorities);
    } catch (const ctl::RpcCallError& e) {
      bool honours = false;
      for (const api::PortSpec& spec : ctl::RunClient(*place.dataplane).port_specs())
        honours = honours || (spec.name == place.name && spec.pfc_honour);
      config.warnings.push_back(
          honours
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
    const ctl::PortPlace place = target_->place_of(*location);
    api::CaptureSpec spec;
    spec.port = place.name;
    spec.file = capture_file_path(*location);
    spec.direction = "both";
    if (const auto it = config_->captures.find(name); it != config_->captures.end()) {
      spec.filter = it->second.filter;
      spec.snaplen = it->second.snaplen;
    }
    const CaptureOnPort capture{ctl::RunClient(*place.dataplane).start_capture(spec).id, *location};
    captures_[name] = capture;
    files_[name] = capture;
  }
  return warnings({});
}

bool Api::captures_here() const { return !fleet_ && client_.address().engine.empty(); }

std::string Api::capture_file_path(const std::string& location) const {
  if (captures_here()) return capture_dir_ + "/" + location + ".pcapng";
  // A file name, which the data plane writes in its capture directory (a path of its host
  // is not this server's to choose): this server's directory's (unique) name, the location.
  std::string name = std::filesystem::path(capture_dir_).filename().string() + "-" + location;
  std::replace_if(
      name.begin(), name.end(),
      [](char c) { return std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '-' && c != '.'; }, '_');
  return name + ".pcapng";
}

Answer Api::set_link_state(const PortLinkRequest& request) {
  std::vector<std::string> names = request.port_names;
  if (names.empty() && config_)
    for (const auto& [name, location] : config_->ports) names.push_back(name);
  for (const std::string& name : names) {
    const std::string* location = location_of(name);
    if (location == nullptr)
      return refused({fmt::format("port.link.port_names: '{}' is not one of the config's ports", name)});
    target_->set_link(*location, request.state == PortLinkRequest::State::kUp);
  }
  return warnings({});
}

Answer Api::linerate_flows() {
  if (running_ && target_->all_sent()) finish();
  json out = json::array();
  for (const api::StreamReport& s : ended_ ? ended_->streams : target_->stream_stats()) out.push_back(api::to_json(s));
  return {http::status::ok, {{"flows", out}}};
}

Answer Api::linerate_ports() {
  json out = json::array();
  for (const api::PortReport& p : ended_ ? ended_->ports : target_->port_stats()) out.push_back(api::to_json(p));
  return {http::status::ok, {{"ports", out}}};
}

Answer Api::capture_file(const json& body) {
  const std::string name = read_capture_request(body).port_name;
  stop_capture(name);
  const auto file = files_.find(name);
  if (file == files_.end()) return refused({fmt::format("port_name: '{}' has no capture (start one first)", name)});
  Answer a;
  if (captures_here()) {  // the served data plane wrote it into this server's directory
    std::ifstream in(capture_file_path(file->second.location), std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    a.bytes = bytes.str();
    return a;
  }
  // On the data plane's host: read over its connection (capture.read).
  const ctl::PortPlace place = target_->place_of(file->second.location);
  a.bytes = ctl::RunClient(*place.dataplane).capture_file(file->second.id);
  return a;
}

void Api::stop_capture(const std::string& name) {
  if (const auto it = captures_.find(name); it != captures_.end()) {
    const CaptureOnPort capture = it->second;
    captures_.erase(it);
    ctl::RunClient(*target_->place_of(capture.location).dataplane).stop_capture(capture.id);
  }
}

Api::~Api() {
  try {
    stop_captures();  // a running capture's file is not removed
  } catch (const std::exception&) {  // gone with its data plane
  }
  remove_capture_files();
}

void Api::remove_capture_files() noexcept {
  if (captures_here()) {  // the served data plane's are in this server's directory, removed with it
    files_.clear();
    return;
  }
  for (const auto& [name, capture] : files_) try {
      ctl::RunClient(*target_->place_of(capture.location).dataplane).remove_capture_file(capture.id);
    } catch (const std::exception&) {  // gone with its data plane, or its session
    }
  files_.clear();
}

void Api::stop_captures() {
  std::exception_ptr first;  // each is stopped whatever the others do; the first failure said after
  for (const auto& [name, capture] : std::exchange(captures_, {})) try {
      ctl::RunClient(*target_->place_of(capture.location).dataplane).stop_capture(capture.id);
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  if (first) std::rethrow_exception(first);
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
    target_->start(flows);
    if (fleet_) {  // asked from now on at the fleet's pace
      lease_timer_.cancel();
      keep_leases();
    }
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
    target_->hold(flow, request.state == State::kPause);
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
  ended_ = target_->stop().report;
  running_ = false;
  held_.clear();
}

Answer Api::metrics(const json& body) {
  const MetricsRequest request = read_metrics_request(body);
  if (running_ && target_->all_sent()) finish();
  const std::string transmit = running_ ? "started" : "stopped";
  std::map<std::string, std::string> names;  // the data plane's port -> the config's
  if (config_)
    for (const auto& [name, location] : config_->ports) names[location] = name;
  return request.kind == MetricsRequest::Kind::kFlow ? flow_metrics(request.names, transmit, names)
                                                     : port_metrics(request.names, transmit, names);
}

Answer Api::flow_metrics(const std::vector<std::string>& wanted, const std::string& transmit,
                         const std::map<std::string, std::string>& names) {
  const std::vector<api::StreamReport> streams = ended_ ? ended_->streams : target_->stream_stats();
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
  const std::vector<api::PortTraffic> traffic = target_->port_traffic();
  const std::vector<api::PortReport> ports = target_->ports();
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
