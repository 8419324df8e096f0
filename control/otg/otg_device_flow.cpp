#include "control/otg/otg_device_flow.hpp"

#include <fmt/format.h>

namespace lr::otg {

using nlohmann::json;

namespace {

enum class Ip { kAny, kV4, kV6 };

Ip version_named(const OtgEndpoint& e) {
  switch (e.kind) {
    case OtgEndpoint::Kind::kIpv4: return Ip::kV4;
    case OtgEndpoint::Kind::kIpv6: return Ip::kV6;
    case OtgEndpoint::Kind::kEthernet: break;
  }
  return Ip::kAny;
}

const char* version_text(Ip v) { return v == Ip::kV6 ? "IPv6" : "IPv4"; }

// The one name of tx_names or rx_names, refused when there is none or several.
std::optional<std::string> one_name(const json& device, const char* key, const std::string& path, Problems& p) {
  const std::string at = path + "." + key;
  const json names = device.value(key, json::array());
  if (!names.is_array() || names.empty()) {
    p.refuse(at, "names no endpoint: give one ethernet, IPv4 or IPv6 address of the config's devices");
    return std::nullopt;
  }
  if (names.size() > 1) {
    p.refuse(at, fmt::format("names {} endpoints: linerate sends a flow between one pair (write a flow per pair)",
                             names.size()));
    return std::nullopt;
  }
  if (names[0].is_string()) return names[0].get<std::string>();
  p.refuse(at + "[0]", fmt::format("{}, not a name", kind_said(names[0])));
  return std::nullopt;
}

// The endpoint a name stands for.
std::optional<OtgEndpoint> endpoint(const std::string& name, const std::string& at, const OtgDevices& devices,
                                    Problems& p) {
  if (const auto it = devices.endpoints.find(name); it != devices.endpoints.end()) return it->second;
  p.refuse(at, fmt::format("'{}' is not an ethernet, IPv4 or IPv6 address of the config's devices (nor a device of "
                           "one ethernet)",
                           name));
  return std::nullopt;
}

// The place of the first header of `kind` in the packet, if it has one.
std::optional<size_t> header_of(const json& packet, const char* kind) {
  for (size_t h = 0; h < packet.size(); ++h)
    if (choice_of(packet[h], "") == kind) return h;
  return std::nullopt;
}

// The IP version of the flow: the one its names give, else its packet's IP header's, else
// IPv4 where the sending ethernet has an IPv4 address.
std::optional<Ip> flow_version(const DeviceFlow& flow, const json& packet, const std::string& flow_path,
                               const OtgDevices& devices, Problems& p) {
  const Ip tx = version_named(flow.tx), rx = version_named(flow.rx);
  if (tx != Ip::kAny && rx != Ip::kAny && tx != rx) {
    p.refuse(flow_path + ".tx_rx.device", fmt::format("tx_names[0] '{}' is an {} address and rx_names[0] '{}' an {} "
                                                      "one: a flow is IPv4 or IPv6",
                                                      flow.tx_name, version_text(tx), flow.rx_name, version_text(rx)));
    return std::nullopt;
  }
  const auto v4 = header_of(packet, "ipv4"), v6 = header_of(packet, "ipv6");
  Ip v = tx != Ip::kAny ? tx : rx;
  if (v == Ip::kAny) v = v6 ? Ip::kV6 : v4 ? Ip::kV4 : devices.ethernets[flow.tx.ethernet].ipv4 ? Ip::kV4 : Ip::kV6;
  const auto other = v == Ip::kV4 ? v6 : v4;
  if (!other) return v;
  p.refuse(fmt::format("{}.packet[{}]", flow_path, *other),
           fmt::format("an {} header in a flow between {} addresses (its tx_rx.device names)",
                       v == Ip::kV4 ? "ipv6" : "ipv4", version_text(v)));
  return std::nullopt;
}

// The address of version `v` of an endpoint's ethernet, refused at `at` when it has none.
std::optional<std::string> address_of(const OtgEndpoint& e, Ip v, const std::string& at, const OtgDevices& devices,
                                      Problems& p) {
  const OtgEthernet& ethernet = devices.ethernets[e.ethernet];
  const auto& address = v == Ip::kV4 ? ethernet.ipv4 : ethernet.ipv6;
  if (!address)
    p.refuse(at, fmt::format("ethernet '{}' has no {} address ({}_addresses)", ethernet.name, version_text(v),
                             v == Ip::kV4 ? "ipv4" : "ipv6"));
  return address;
}

// `table.key` of the stream set to `value` unless the packet set it.
void fill(json& stream, const char* table, const char* key, const json& value) {
  json& t = stream[table];
  if (!t.is_object() || !t.contains(key)) t[key] = value;
}

}  // namespace

std::optional<DeviceFlow> read_device_endpoints(const json& device, const std::string& path, const OtgDevices& devices,
                                                json& stream, Problems& p) {
  if (!device.is_object()) {
    p.refuse(path, fmt::format("{}, not an object", kind_said(device)));
    return std::nullopt;
  }
  for (const auto& [key, value] : device.items())
    if (key != "mode" && key != "tx_names" && key != "rx_names" && key != "bidirectional" && !value.is_null())
      p.refuse(path + "." + key, "not a field of a device endpoint in the OTG model (1.60.0)");
  if (device.value("bidirectional", json(false)) != false)
    p.refuse(path + ".bidirectional", "not supported by linerate: a flow goes one way (write a flow per direction)");
  const auto tx_name = one_name(device, "tx_names", path, p);
  const auto rx_name = one_name(device, "rx_names", path, p);
  if (!tx_name || !rx_name) return std::nullopt;
  const auto tx = endpoint(*tx_name, path + ".tx_names[0]", devices, p);
  const auto rx = endpoint(*rx_name, path + ".rx_names[0]", devices, p);
  if (!tx || !rx) return std::nullopt;
  if (tx->ethernet == rx->ethernet) {
    p.refuse(path, fmt::format("'{}' and '{}' are on one ethernet: a flow goes between two hosts", *tx_name, *rx_name));
    return std::nullopt;
  }
  stream["tx_port"] = devices.ethernets[tx->ethernet].port;
  stream["rx_port"] = devices.ethernets[rx->ethernet].port;
  return DeviceFlow{*tx, *rx, *tx_name, *rx_name};
}

void fill_from_endpoints(const DeviceFlow& flow, const json& packet, const std::string& flow_path,
                         const OtgDevices& devices, json& stream, Problems& p) {
  if (stream.contains("kind")) {
    p.refuse(flow_path + ".tx_rx.device",
             "a MAC Control flow (pfcpause, ethernetpause) goes from a port: use "
             "tx_rx.port");
    return;
  }
  const auto v = flow_version(flow, packet, flow_path, devices, p);
  if (!v) return;
  const std::string at = flow_path + ".tx_rx.device";
  const auto src = address_of(flow.tx, *v, at + ".tx_names[0]", devices, p);
  const auto dst = address_of(flow.rx, *v, at + ".rx_names[0]", devices, p);
  if (!src || !dst) return;
  const char* table = *v == Ip::kV4 ? "ipv4" : "ipv6";
  fill(stream, table, "src", *src);
  fill(stream, table, "dst", *dst);
  if (const auto vlan = devices.ethernets[flow.tx.ethernet].vlan; vlan && !stream.contains("vlan"))
    stream["vlan"] = {{"id", *vlan}};
  fill(stream, "eth", "src", "auto");
  fill(stream, "eth", "dst", "auto");
}

}  // namespace lr::otg
