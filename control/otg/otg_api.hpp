#pragma once
// The OTG API (`linerate otg serve`): the requests' routes, the config as the data plane's
// streams, the run the flows are in, their metrics and captures. The HTTP side
// (otg_server.cpp) hands each request here and sends the answer.
//
// A config's ports are the served data plane's (location: its port's name), or ports of
// several data planes named by location ("ENGINE;PORT", ENGINE a HOST:PORT or a
// --locations name): the flows then run over them all as one run (ctl::EngineFleet), its
// metrics joined exactly, and each data plane's run ends by itself should this server go
// silent (its lease, renewed here while traffic runs).

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/beast/http/verb.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "control/client/dataplane_client.hpp"
#include "control/client/dataplane_watch.hpp"
#include "control/client/engine_fleet.hpp"
#include "control/client/location_map.hpp"
#include "control/client/run_target.hpp"
#include "control/otg/otg_config.hpp"
#include "control/otg/otg_metrics.hpp"
#include "control/otg/otg_requests.hpp"

namespace lr::otg {

/// The OTG models' version linerate serves.
inline constexpr const char* kApiSpecVersion = "1.60.0";

// An answer: the status and its JSON body (OTG clients want a body every time).
struct Answer {
  Answer(boost::beast::http::status s = boost::beast::http::status::ok, nlohmann::json b = nlohmann::json::object())
      : status(s), body(std::move(b)) {}
  boost::beast::http::status status;
  nlohmann::json body;
  std::optional<std::string> bytes;  ///< a capture file: sent as application/octet-stream instead
};

/// OTG's error body for `errors` (kind: validation below 500, else internal).
Answer refused(const std::vector<std::string>& errors,
               boost::beast::http::status status = boost::beast::http::status::bad_request);

/// The data planes an Api drives.
struct Dataplanes {
  Dataplanes() = default;
  /// The served data plane only.
  Dataplanes(ctl::DataplaneAddress s) : served(std::move(s)) {}  // NOLINT(google-explicit-constructor)
  ctl::DataplaneAddress served;  ///< the served data plane; its TLS files and lease reach the others too
  ctl::LocationMap names;        ///< --locations: data planes by name
  bool served_optional = false;  ///< start without it: configs by location need none
};

// The OTG state: the config, the data planes its ports are on, and the run the flows are in.
class Api {
 public:
  // Served once, a data plane that goes away never ends the server: requests are answered
  // 503 with the reason meanwhile, and a timer on `io` tries it again with backoff.
  // Throws ConnectionError where the served data plane is not reached (unless optional).
  Api(const Dataplanes& dataplanes, std::string capture_dir, boost::asio::io_context& io);

  // Removes the capture files it made on the data planes' hosts.
  ~Api();
  Api(const Api&) = delete;
  Api& operator=(const Api&) = delete;

  Answer handle(boost::beast::http::verb verb, const std::string& target, const std::string& body);

 private:
  Answer route(boost::beast::http::verb verb, const std::string& target, const std::string& body);

  // While the data plane is away a request tries it at once (a connect on a local socket
  // costs microseconds), beside the timer's tries: a client that restarted it is served
  // at its next request. Not said per try; its return is said once, by the watch.
  void reconnect();

  // What the old session set up (streams, captures, the run) ended with it, so the
  // config goes too and a client posts it again.
  void forget_session();

  Answer away() const;

  Answer set_config(const nlohmann::json& request);

  // The data planes of the config's ports: the served one, or those `located` names
  // (opened anew, each told who drives it). Returns the refusal where one is away.
  std::optional<Answer> choose_dataplanes(const std::vector<api::PortSpec>& located);

  // A data plane of the fleet went away: the run is stopped on the others, and what was
  // measured kept for the metrics; the answer says so (503).
  Answer fleet_lost(const std::string& what);

  // While traffic runs over several data planes, every one is asked how it goes at least
  // once a quarter of its lease (at most a second apart): none ends its run while this
  // server lives, however quiet its clients are, and a loss is found without a request.
  void keep_leases();

  // The devices as the data plane's emulated hosts (device.load; none: every host removed),
  // before the streams, which the data plane checks against them. A data plane without
  // emulated hosts (no device.load) is sent nothing when there are none to load. Throws
  // ConfigRefused when the data plane refuses them, naming the config's paths.
  void load_devices(const OtgDevices& devices);

  // protocol.all: start loads the config's devices again (announced, gateways resolved
  // anew), stop removes them.
  Answer set_protocol_state(const ProtocolStateRequest& request);

  // POST /monitor/states: the hosts' neighbours (neighbors.list) in OTG's states.
  Answer neighbor_states_answer(const nlohmann::json& body);

  // The flows as the data plane's streams. Flows asking for timestamps need each frame's
  // receive time: the run counts a timeline (10 ms bins: a minute in 6,000), which keeps
  // the first and last to the cycle; the data plane's own run settings come back after.
  void load_streams(const OtgConfig& config);

  // layer1's flow control on each port: a port whose profile has pfc_honour reacts in
  // software already; another gets its NIC's PFC or PAUSE set, and where the NIC (or
  // virtual device) cannot, the config is taken with a warning saying so.
  void set_flow_control(OtgConfig& config);

  // The data plane's port an OTG port name stands for, or none (no config, or no such port).
  const std::string* location_of(const std::string& name) const;

  // The config's captures, by OTG port name: `linerate capture` underneath, into a file
  // of this server's directory.
  Answer set_capture_state(const PortCaptureRequest& request);

  // port.link: the config's ports (or those named) brought up or down.
  Answer set_link_state(const PortLinkRequest& request);

  // Beyond OTG: linerate's own per-stream results (duplicates, out of order, late, latency
  // percentiles, ECN codepoints, timelines) and per-port reports, in the run report's names.
  Answer linerate_flows();

  Answer linerate_ports();

  // POST /monitor/capture: the port's capture file (pcapng), its capture ended first.
  Answer capture_file(const nlohmann::json& body);

  // Whether captures are written in this server's directory: by the served data plane on
  // this host (its Unix socket), not by one over the network (--engine, or by location).
  bool captures_here() const;
  // Where a capture of the port at `location` is written: a path in this server's directory
  // (captures_here); else a file name, which the data plane writes in its capture directory
  // (--capture-dir) on its host, read back over its connection.
  std::string capture_file_path(const std::string& location) const;

  // Ends the capture running on an OTG port, if one does; its file stays for /monitor/capture.
  void stop_capture(const std::string& name);

  void stop_captures();

  // Each capture's file removed from its data plane's host (capture.remove), as far as each
  // is still reachable; files_ forgotten.
  void remove_capture_files() noexcept;

  Answer set_state(const nlohmann::json& body);

  // traffic.flow_transmit: a start is a new run; pause and resume hold and release flows of
  // the running one.
  Answer set_transmit_state(const FlowTransmitRequest& request);

  // A flow name the config does not have, refused here with its place (the data plane's
  // own refusal would name a stream); a state change needs a config in any case.
  std::optional<Answer> unknown_flow(const std::vector<std::string>& flows) const;

  // The run ends once every flow has sent all it was to send: the drain runs, and the
  // counts are the report's, exact.
  void finish();

  Answer metrics(const nlohmann::json& body);

  // The flows' rows (those named, or all), each as the run's counts say.
  Answer flow_metrics(const std::vector<std::string>& wanted, const std::string& transmit,
                      const std::map<std::string, std::string>& names);

  // The config's ports' rows (those named, or all), by the data plane's port.
  Answer port_metrics(const std::vector<std::string>& wanted, const std::string& transmit,
                      const std::map<std::string, std::string>& names);

  RateSampler sampler_;                        ///< flows' and ports' rates between metric requests

  ctl::DataplaneAddress options_;  ///< the served data plane, and the TLS files and lease for others
  ctl::LocationMap names_;
  ctl::DataplaneClient client_;  ///< the served data plane
  ctl::DataplaneTarget served_;
  std::unique_ptr<ctl::EngineFleet> fleet_;  ///< the config's data planes, where its ports are by location
  ctl::RunTarget* target_ = &served_;  ///< what the config's ports are on: served_ or *fleet_
  std::optional<OtgConfig> config_;
  bool running_ = false;
  std::optional<api::RunReport> ended_;
  std::optional<api::RunSpec> own_run_;        ///< the data plane's run settings before the first config
  std::set<std::string> held_;                 ///< flows paused (control/state pause) in the running traffic
  std::string capture_dir_;
  struct CaptureOnPort {
    uint32_t id = 0;  ///< on the data plane of
    std::string location;  ///< the port's location in the config
  };
  std::map<std::string, CaptureOnPort> captures_;  ///< OTG port name -> the capture running on it
  std::map<std::string, CaptureOnPort> files_;  ///< OTG port name -> its last capture, read by capture.read
  ctl::DataplaneWatch watch_;  ///< whether the data plane serves; says its losses
  ctl::BackgroundRetry retry_;  ///< its tries while away (after watch_: it uses it)
  boost::asio::steady_timer lease_timer_;
};

}  // namespace lr::otg
