#pragma once
// An Open Traffic Generator config (open-traffic-generator/models 1.60.0: the JSON body
// of POST /config, as snappi sends it) into the typed contract: each flow becomes a stream
// in the form stream.load takes (its [[stream]] keys), read by the stream's own reader,
// so there is no second stream model; its devices become the data plane's emulated hosts
// (otg_devices.hpp), and a flow between them a stream from one host to another
// (otg_device_flow.hpp). What linerate cannot do is refused naming the
// config's JSON path ("flows[2].packet[3]: gtpv1 is not supported by linerate"); what
// it does approximately is taken with a warning.

#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "control/otg/otg_devices.hpp"
#include "lib/api/port_spec.hpp"
#include "lib/api/stream_spec.hpp"

namespace lr::otg {

/// The config's problems, every one with its JSON path: the HTTP 400's "errors".
class ConfigRefused : public std::runtime_error {
 public:
  explicit ConfigRefused(std::vector<std::string> errors)
      : std::runtime_error(errors.empty() ? "refused" : errors.front()), errors_(std::move(errors)) {}
  const std::vector<std::string>& errors() const noexcept { return errors_; }

 private:
  std::vector<std::string> errors_;
};

/// A port's flow control from the config's layer1: PFC on these priorities, or 802.3x PAUSE.
struct FlowControlSetting {
  std::string port;                     ///< the data plane's port
  std::string path;                     ///< "layer1[0].flow_control", for what the port answers
  std::vector<unsigned> pfc_priorities; ///< PFC on these (ieee_802_1qbb)
  bool pause = false;                   ///< 802.3x PAUSE (ieee_802_3x)
};

/// A port's capture from the config's captures: its filters as one libpcap expression.
struct CaptureSetting {
  std::string filter;       ///< "" : every frame
  uint32_t snaplen = 1518;  ///< packet_size, or the default
};

// NOLINTBEGIN(bugprone-exception-escape): clang-tidy 16 reports this aggregate's implicit members; they throw only
// std::bad_alloc, as any copy of a container does
struct OtgConfig {
  nlohmann::json body;                          ///< as posted: GET /config answers it
  std::map<std::string, std::string> ports;     ///< OTG port name -> the data plane's port (its location)
  std::vector<api::StreamSpec> streams;         ///< one per flow, named as the flow
  OtgDevices devices;                           ///< the emulated hosts device.load is sent (none: [])
  std::map<std::string, CaptureSetting> captures;  ///< OTG port name -> its capture
  std::vector<FlowControlSetting> flow_control; ///< from layer1, for the server to set on the ports
  std::set<std::string> timestamped_flows;      ///< flows whose metrics.timestamps is on
  std::vector<std::string> warnings;
};
// NOLINTEND(bugprone-exception-escape)

/// The config's ports on data planes named by location ("ENGINE;PORT", as ixia-c spells
/// a port of a traffic engine), each as a port spec named by its location; none: every
/// port is the served data plane's. Throws ConfigRefused where some ports name a data
/// plane and some do not.
std::vector<api::PortSpec> located_ports(const nlohmann::json& body);

/// Reads `body` against the data plane's ports (name -> speed in bit/s, 0 when not
/// known: rates in percent and gaps in bytes need it). Throws ConfigRefused.
OtgConfig read_otg_config(const nlohmann::json& body, const std::map<std::string, uint64_t>& dataplane_ports);

}  // namespace lr::otg
