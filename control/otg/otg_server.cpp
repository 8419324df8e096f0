#include "control/otg/otg_server.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <type_traits>

#include "control/client/dataplane_client.hpp"
#include "control/client/port_client.hpp"
#include "control/client/run_client.hpp"
#include "control/http/connection_gate.hpp"
#include "control/http/http_listener.hpp"
#include "control/http/over_cap_refusal.hpp"
#include "control/http/request_reader.hpp"
#include "control/http/tls_context.hpp"
#include "control/otg/otg_config.hpp"
#include "control/otg/otg_limits.hpp"
#include "control/otg/otg_listening.hpp"
#include "control/otg/otg_metrics.hpp"
#include "lib/api/bounded_json.hpp"
#include "lib/api/rpc.hpp"

namespace lr::otg {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using nlohmann::json;

namespace {

constexpr const char* kApiSpecVersion = "1.60.0";

// An answer: the status and its JSON body (OTG clients want a body every time).
struct Answer {
  Answer(http::status s = http::status::ok, json b = json::object()) : status(s), body(std::move(b)) {}
  http::status status;
  json body;
  std::optional<std::string> bytes;  ///< a capture file: sent as application/octet-stream instead
};

// OTG's error body: its kind says whose the fault is (validation: the request's, or the
// state it met; internal: the host's or linerate's), the status says more (docs/reference/limits.md).
Answer refused(const std::vector<std::string>& errors, http::status status = http::status::bad_request) {
  return {status, {{"code", static_cast<int>(status)},
                   {"kind", static_cast<int>(status) < 500 ? "validation" : "internal"},
                   {"errors", errors}}};
}

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

// The OTG state of one data plane: its config, and the run the flows are in.
class Api {
 public:
  Api(const std::string& socket, std::string capture_dir)
      : client_(socket), run_(client_), capture_dir_(std::move(capture_dir)) {
    client_.hello("linerate-otg");
  }

  Answer handle(http::verb verb, const std::string& target, const std::string& body) {
    try {
      if (!client_.connected()) reconnect();
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
      std::fprintf(stderr, "linerate otg: %s; reconnecting on the next request\n", e.what());
      return refused({fmt::format("{}; linerate reconnects on the next request", e.what())},
                     http::status::service_unavailable);
    }
  }

 private:
  Answer route(http::verb verb, const std::string& target, const std::string& body) {
    if (verb == http::verb::get && target == "/capabilities/version")
      return {http::status::ok, {{"api_spec_version", kApiSpecVersion}, {"sdk_version", ""}, {"app_version", LR_VERSION}}};
    if (verb == http::verb::get && target == "/config") return {http::status::ok, config_ ? config_->body : json::object()};
    if (verb == http::verb::get && target == "/linerate/flows") return linerate_flows();
    if (verb == http::verb::get && target == "/linerate/ports") return linerate_ports();
    json request = body.empty() ? json::object() : api::parse_bounded_json(body);
    if (auto problems = string_length_problems(request); !problems.empty()) return refused(problems);
    if (verb == http::verb::post && target == "/config") return set_config(request);
    if (verb == http::verb::post && target == "/control/state") return set_state(request);
    if (verb == http::verb::post && target == "/monitor/metrics") return metrics(request);
    if (verb == http::verb::post && target == "/monitor/capture") return capture_file(request);
    if (verb == http::verb::post && target == "/monitor/states")
      return {http::status::ok, {{"choice", request.value("choice", "ipv4_neighbors")},
                                 {request.value("choice", "ipv4_neighbors"), json::array()},
                                 {"warnings", {"linerate runs no protocols: it has no neighbours to report"}}}};
    return refused({fmt::format("{} {} is not served by linerate", std::string(http::to_string(verb)), target)},
                   http::status::not_found);
  }

  // A new session after the data plane went away (or restarted): what the old one set
  // up (streams, captures, the run) ended with it, so the config goes too and a client
  // posts it again. Throws ConnectionError while the data plane is still away.
  void reconnect() {
    client_.reconnect();
    std::fprintf(stderr, "linerate otg: reconnected to the data plane; POST /config again\n");
    config_.reset();
    running_ = false;
    ended_.reset();
    own_run_.reset();
    held_.clear();
    captures_.clear();
  }

  Answer set_config(const json& request) {
    if (running_)
      return refused({"config: traffic is running: stop it (control/state) before a new config"}, http::status::conflict);
    OtgConfig config = read_otg_config(request, run_.port_speeds());
    try {
      load_streams(config);
      stop_captures();
    } catch (const ctl::RpcCallError& e) {
      // The data plane's own checks against its ports (a frame too small for its headers,
      // a rate above the port's): the flows are refused, stream[i] being flows[i].
      if (e.code() == static_cast<int>(api::RpcCode::kInvalidParams)) return refused({fmt::format("flows: {}", e.what())});
      throw;
    }
    ended_.reset();
    held_.clear();
    set_flow_control(config);
    config_ = std::move(config);
    return warnings(config_->warnings);
  }

  // The flows as the data plane's streams. Flows asking for timestamps need each frame's
  // receive time: the run counts a timeline (10 ms bins: a minute in 6,000), which keeps
  // the first and last to the cycle; the data plane's own run settings come back after.
  void load_streams(const OtgConfig& config) {
    const api::RunSpec now = run_.load(config.streams, "config", own_run_);
    if (!own_run_) own_run_ = now;  // the data plane's, before this server changed it
    if (config.timestamped_flows.empty() || now.timeline_bin_ns != 0) return;
    api::RunSpec timed = now;
    timed.timeline_bin_ns = 10'000'000;
    run_.load(config.streams, "config", timed);
  }

  // layer1's flow control on each port: a port whose profile has pfc_honour reacts in
  // software already; another gets its NIC's PFC or PAUSE set, and where the NIC (or
  // virtual device) cannot, the config is taken with a warning saying so.
  void set_flow_control(OtgConfig& config) {
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
                              "set: {}", s.path, s.port, what, e.what())
                : fmt::format("{}: {} could not be set on {}: {}; its streams do not pause on {} frames (give the port "
                              "pfc_honour in the data plane's profile for a software reaction)",
                              s.path, what, s.port, e.what(), what));
      }
    }
  }

  // The data plane's port an OTG port name stands for, or none (no config, or no such port).
  const std::string* location_of(const std::string& name) const {
    if (!config_) return nullptr;
    const auto it = config_->ports.find(name);
    return it == config_->ports.end() ? nullptr : &it->second;
  }

  // The config's captures, by OTG port name: `linerate capture` underneath, into a file
  // of this server's directory.
  Answer set_capture_state(const json& request) {
    const json port = request.value("port", json::object());
    if (port.value("choice", "") == "link") return set_link_state(port.value("link", json::object()));
    if (port.value("choice", "") != "capture")
      return refused({fmt::format("control/state: port.{} is not supported by linerate (capture, link)",
                                  port.value("choice", ""))});
    const json capture = port.value("capture", json::object());
    std::vector<std::string> names = capture.value("port_names", std::vector<std::string>{});
    if (names.empty() && config_)
      for (const auto& [name, setting] : config_->captures) names.push_back(name);
    const std::string state = capture.value("state", "");
    if (state != "start" && state != "stop")
      return refused({fmt::format("port.capture.state: '{}' is not start or stop", state)});
    for (const std::string& name : names) {
      const std::string* location = location_of(name);
      if (location == nullptr)
        return refused({fmt::format("port.capture.port_names: '{}' is not one of the config's ports", name)});
      stop_capture(name);
      if (state == "stop") continue;
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

  // port.link: the config's ports (or those named) brought up or down.
  Answer set_link_state(const json& link) {
    const std::string state = link.value("state", "");
    if (state != "up" && state != "down") return refused({fmt::format("port.link.state: '{}' is not up or down", state)});
    std::vector<std::string> names = link.value("port_names", std::vector<std::string>{});
    if (names.empty() && config_)
      for (const auto& [name, location] : config_->ports) names.push_back(name);
    for (const std::string& name : names) {
      const std::string* location = location_of(name);
      if (location == nullptr)
        return refused({fmt::format("port.link.port_names: '{}' is not one of the config's ports", name)});
      ctl::PortClient(client_).set_link_up(*location, state == "up");
    }
    return warnings({});
  }

  // Beyond OTG: linerate's own per-stream results (duplicates, out of order, late, latency
  // percentiles, ECN codepoints, timelines) and per-port reports, in the run report's names.
  Answer linerate_flows() {
    if (running_ && run_.status().tx_finished) finish();
    json out = json::array();
    for (const api::StreamReport& s : ended_ ? ended_->streams : run_.stream_stats()) out.push_back(api::to_json(s));
    return {http::status::ok, {{"flows", out}}};
  }

  Answer linerate_ports() {
    json out = json::array();
    for (const api::PortReport& p : ended_ ? ended_->ports : run_.port_stats()) out.push_back(api::to_json(p));
    return {http::status::ok, {{"ports", out}}};
  }

  // POST /monitor/capture: the port's capture file (pcapng), its capture ended first.
  Answer capture_file(const json& request) {
    const std::string name = request.value("port_name", "");
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

  // Ends the capture running on an OTG port, if one does; its file stays for /monitor/capture.
  void stop_capture(const std::string& name) {
    if (const auto it = captures_.find(name); it != captures_.end()) {
      run_.stop_capture(it->second);
      captures_.erase(it);
    }
  }

  void stop_captures() {
    for (const auto& [name, id] : captures_) run_.stop_capture(id);
    captures_.clear();
  }

  Answer set_state(const json& request) {
    const std::string choice = request.value("choice", "");
    if (choice == "protocol") return warnings({"linerate runs no protocols: nothing to start or stop"});
    if (choice == "port") return set_capture_state(request);
    if (choice != "traffic") return refused({fmt::format("control/state: '{}' is not supported by linerate yet", choice)});
    const json transmit = request.value("traffic", json::object()).value("flow_transmit", json::object());
    const std::string state = transmit.value("state", "");
    std::vector<std::string> flows = transmit.value("flow_names", std::vector<std::string>{});
    if (state == "stop") {
      if (running_) finish();
      return warnings({});
    }
    if (state != "start" && state != "pause" && state != "resume")
      return refused({fmt::format("traffic.flow_transmit.state: '{}' is not start, stop, pause or resume", state)});
    if (auto unknown = unknown_flow(flows)) return *unknown;
    if (state == "start") {
      if (running_) finish();  // a start is a new run, as on a hardware tester
      run_.start(flows);
      running_ = true;
      ended_.reset();
      held_.clear();
      return warnings({});
    }
    if (!running_)
      return refused({fmt::format("traffic.flow_transmit: no traffic is running to {}", state)}, http::status::conflict);
    if (flows.empty())
      for (const api::StreamSpec& s : config_->streams) flows.push_back(s.name);
    for (const std::string& flow : flows) {
      run_.hold(flow, state == "pause");
      if (state == "pause") held_.insert(flow);
      else held_.erase(flow);
    }
    return warnings({});
  }

  // A flow name the config does not have, refused here with its place (the data plane's
  // own refusal would name a stream); a state change needs a config in any case.
  std::optional<Answer> unknown_flow(const std::vector<std::string>& flows) const {
    if (!config_) return refused({"control/state: no config: POST /config first"}, http::status::conflict);
    for (size_t i = 0; i < flows.size(); ++i)
      if (std::none_of(config_->streams.begin(), config_->streams.end(),
                       [&](const api::StreamSpec& s) { return s.name == flows[i]; }))
        return refused({fmt::format("traffic.flow_transmit.flow_names[{}]: '{}' is not one of the config's flows", i,
                                    flows[i])});
    return std::nullopt;
  }

  // The run ends once every flow has sent all it was to send: the drain runs, and the
  // counts are the report's, exact.
  void finish() {
    ended_ = run_.stop().report;
    running_ = false;
    held_.clear();
  }

  Answer metrics(const json& request) {
    if (running_ && run_.status().tx_finished) finish();
    const std::string transmit = running_ ? "started" : "stopped";
    const std::string choice = request.value("choice", "port");
    std::map<std::string, std::string> names;  // the data plane's port -> the config's
    if (config_)
      for (const auto& [name, location] : config_->ports) names[location] = name;
    if (choice == "flow") {
      const std::vector<api::StreamReport> streams = ended_ ? ended_->streams : run_.stream_stats();
      const auto wanted = request.value("flow", json::object()).value("flow_names", std::vector<std::string>{});
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
    if (choice == "port") {
      const auto wanted = request.value("port", json::object()).value("port_names", std::vector<std::string>{});
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
    return refused({fmt::format("monitor/metrics: '{}' metrics are not served by linerate (flow, port)", choice)});
  }

  RateSampler sampler_;                        ///< flows' and ports' rates between metric requests

  ctl::DataplaneClient client_;
  ctl::RunClient run_;
  std::optional<OtgConfig> config_;
  bool running_ = false;
  std::optional<api::RunReport> ended_;
  std::optional<api::RunSpec> own_run_;        ///< the data plane's run settings before the first config
  std::set<std::string> held_;                 ///< flows paused (control/state pause) in the running traffic
  std::string capture_dir_;
  std::map<std::string, uint32_t> captures_;   ///< OTG port name -> the running capture's id
  std::map<std::string, std::string> files_;   ///< OTG port name -> its last capture's file
};

// What every connection shares; it outlives them all (serve()'s io_context runs inside its life).
struct Server {
  Api& api;
  ctl::ConnectionGate& gate;
  ctl::RequestDeadlines deadlines;
  asio::ssl::context* tls;  ///< none: plain HTTP
};

// One HTTP connection, kept alive: requests answered in turn. Over TLS the handshake
// comes first (within the idle timeout) and a close notify last. Holds its place in the
// server's gate while it lives.
template <class Stream>
class Connection : public std::enable_shared_from_this<Connection<Stream>> {
 public:
  template <class... Args>
  Connection(Server& server, ctl::ConnectionGate::Ticket ticket, Args&&... args)
      : stream_(std::forward<Args>(args)...), server_(server), ticket_(std::move(ticket)) {}

  void start() {
    if constexpr (kTls) {
      beast::get_lowest_layer(stream_).expires_after(server_.deadlines.idle);
      stream_.async_handshake(asio::ssl::stream_base::server, [self = this->shared_from_this()](beast::error_code ec) {
        if (!ec) self->read();
      });
    } else {
      read();
    }
  }

 private:
  static constexpr bool kTls = !std::is_same_v<Stream, beast::tcp_stream>;

  void read() {
    ctl::async_read_request(stream_, buffer_, parser_, kRequestLimits, server_.deadlines,
                            [self = this->shared_from_this()](beast::error_code ec) { self->on_request(ec); });
  }

  // A timeout (no request, or its header not all there, within the idle timeout; its body
  // not within kBodyDeadline) leaves nothing to answer: Beast closed the socket.
  void on_request(beast::error_code ec) {
    if (!ec) answer();
    else if (ec == http::error::body_limit) refuse_body();
    else if (ec == http::error::header_limit)
      send(refused({fmt::format("the request's header exceeds linerate's limit of {} bytes", kMaxHeaderBytes)},
                   http::status::request_header_fields_too_large),
           11, false);
    else if (ec == http::error::end_of_stream) close();
  }

  void answer() {
    const http::request<http::string_body>& request = parser_->get();
    send(server_.api.handle(request.method(), std::string(request.target()), request.body()), request.version(),
         request.keep_alive());
  }

  // A body over the limit: answered 413 from its header (or once the chunks pass the
  // limit), unread, and the connection closed (the rest of the body is not read).
  void refuse_body() {
    const auto length = parser_->content_length();
    send(refused({fmt::format("the body{} exceeds linerate's limit of {} bytes",
                              length ? fmt::format(" of {} bytes", *length) : std::string(), kMaxBodyBytes)},
                 http::status::payload_too_large),
         parser_->get().version(), false);
  }

  void send(const Answer& a, unsigned version, bool keep_alive) {
    response_ = {};
    response_.version(version);
    response_.keep_alive(keep_alive);
    response_.result(a.status);
    response_.set(http::field::content_type, a.bytes ? "application/octet-stream" : "application/json");
    response_.body() = a.bytes ? *a.bytes : a.body.dump();
    response_.prepare_payload();
    beast::get_lowest_layer(stream_).expires_after(kBodyDeadline);  // a capture file to a slow client
    http::async_write(stream_, response_, [self = this->shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return;
      if (self->response_.keep_alive()) self->read();
      else self->close();
    });
  }

  void close() {
    if constexpr (kTls) {
      beast::get_lowest_layer(stream_).expires_after(server_.deadlines.idle);  // the peer's close notify
      stream_.async_shutdown([self = this->shared_from_this()](beast::error_code) {});
    } else {
      beast::error_code ignored;
      stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    }
  }

  Stream stream_;
  Server& server_;
  ctl::ConnectionGate::Ticket ticket_;
  beast::flat_buffer buffer_;
  std::optional<ctl::RequestParser> parser_;  ///< a new one for each request
  http::response<http::string_body> response_;
};

using TlsStream = asio::ssl::stream<beast::tcp_stream>;

// A connection just accepted: served while the gate has room, else answered 503 in
// OTG's error body ("linerate holds at most N connections at once; M are open"), or,
// past the refusals' bound too, closed at once.
void admit(Server& server, tcp::socket socket) {
  ctl::ConnectionGate::Entry entry = server.gate.enter();
  switch (entry.verdict) {
    case ctl::ConnectionGate::Verdict::kServe:
      if (server.tls != nullptr) {
        std::make_shared<Connection<TlsStream>>(server, std::move(entry.ticket), std::move(socket), *server.tls)
            ->start();
      } else {
        std::make_shared<Connection<beast::tcp_stream>>(server, std::move(entry.ticket), std::move(socket))->start();
      }
      return;
    case ctl::ConnectionGate::Verdict::kRefuse: {
      auto response = ctl::over_cap_response(
          "application/json", refused({server.gate.refusal_text()}, http::status::service_unavailable).body.dump());
      if (server.tls != nullptr) {
        ctl::refuse_over_cap(TlsStream(std::move(socket), *server.tls), std::move(entry), std::move(response));
      } else {
        ctl::refuse_over_cap(beast::tcp_stream(std::move(socket)), std::move(entry), std::move(response));
      }
      return;
    }
    case ctl::ConnectionGate::Verdict::kDrop: return;  // `socket` closes as it goes
  }
}

// Accepts connections for ever.
void accept_loop(tcp::acceptor& acceptor, Server& server) {
  acceptor.async_accept([&acceptor, &server](beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted) return;
    if (!ec) admit(server, std::move(socket));
    accept_loop(acceptor, server);
  });
}

}  // namespace

int serve(const ServeOptions& options) {
  if (const std::string error = ctl::reserve_descriptors(options.max_connections); !error.empty()) {
    std::fprintf(stderr, "linerate: %s\n", error.c_str());
    return 2;
  }
  // Before the io_context: the connections its destructor ends give their tickets back.
  ctl::ConnectionGate gate(options.max_connections);
  asio::io_context io;
  tcp::acceptor acceptor(io);
  if (const int code = ctl::open_listener(acceptor, options.listen, "127.0.0.1:8443"); code != 0) return code;
  // The captures' files, for /monitor/capture; gone when the server ends.
  char dir_template[] = "/tmp/linerate-otg-XXXXXX";
  if (::mkdtemp(dir_template) == nullptr) {
    std::fprintf(stderr, "linerate: cannot create a directory for the captures: %s\n", std::strerror(errno));
    return 1;
  }
  struct RemoveDir {
    std::string path;
    ~RemoveDir() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  } remove_dir{dir_template};
  ctl::TlsContext tls;
  if (!options.plain_http) {
    tls = ctl::make_tls_context(options.tls_cert, options.tls_key, options.client_ca);
    if (!tls.context) {
      std::fprintf(stderr, "linerate: %s\n", tls.error.c_str());
      return tls.bad_file ? 2 : 1;
    }
  }
  Api api(options.socket, remove_dir.path);
  const tcp::endpoint bound = acceptor.local_endpoint();
  warn_if_exposed(bound, options);  // before the line a client waits for
  say_listening(bound, options, tls.certificate, kApiSpecVersion);
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const beast::error_code&, int) { io.stop(); });
  const std::chrono::seconds idle(options.idle_timeout_s);
  Server server{api, gate, {idle, kBodyDeadline}, tls.context ? &*tls.context : nullptr};
  accept_loop(acceptor, server);
  io.run();
  return 0;
}

}  // namespace lr::otg
