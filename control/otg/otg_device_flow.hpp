#pragma once
// A flow between devices (tx_rx.choice "device", models 1.60.0 Flow.Router) as a stream:
// its names (an ethernet, or an IPv4 or IPv6 address object of one) give the stream's
// ports (each ethernet's), its IP source and destination where the packet leaves them
// auto, the transmitting ethernet's VLAN where the packet has no vlan header, and eth.src
// and eth.dst "auto" (the data plane writes the host's MAC and the MAC its next hop
// resolved to) where the packet's ethernet header sets no fixed value. One name on each
// side: a flow is one stream, measured as one (several names are refused: write a flow
// per pair).

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "control/otg/otg_devices.hpp"
#include "control/otg/otg_json.hpp"

namespace lr::otg {

/// The two ends of a device flow.
struct DeviceFlow {
  OtgEndpoint tx;
  OtgEndpoint rx;
  std::string tx_name;  ///< as the flow gives them
  std::string rx_name;
};

/// Reads tx_rx.device at `path` ("flows[0].tx_rx.device") into `stream`'s tx_port and
/// rx_port; none, with the problems in `p`, when it names what the devices lack.
std::optional<DeviceFlow> read_device_endpoints(const nlohmann::json& device, const std::string& path,
                                                const OtgDevices& devices, nlohmann::json& stream, Problems& p);

/// Once the flow's `packet` is read into `stream` (its keys at `flow_path`, "flows[0]"):
/// what the packet left to the endpoints, filled in from them.
void fill_from_endpoints(const DeviceFlow& flow, const nlohmann::json& packet, const std::string& flow_path,
                         const OtgDevices& devices, nlohmann::json& stream, Problems& p);

}  // namespace lr::otg
