#include "control/otg/otg_devices.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <initializer_list>
#include <utility>

#include "lib/hosts/address_text.hpp"
#include "lib/hosts/host_expansion.hpp"
#include "lib/profile/device_spec_json.hpp"
#include "lib/profile/quantity.hpp"

namespace lr::otg {

using nlohmann::json;

namespace {

constexpr const char* kHostsDo =
    "its emulated hosts answer ARP, neighbour discovery and ping and resolve their gateways";

// The protocols of the model's Device, as a refusal names them.
constexpr std::array<std::pair<const char*, const char*>, 10> kProtocols{{
    {"isis", "IS-IS"},
    {"bgp", "BGP"},
    {"vxlan", "VXLAN"},
    {"rsvp", "RSVP"},
    {"dhcp_server", "DHCP"},
    {"ospfv2", "OSPFv2"},
    {"ospfv3", "OSPFv3"},
    {"macsec", "MACsec"},
    {"rocev2", "RoCEv2 peers"},
    {"bmp", "BMP"},
}};

// Set, as OTG reads it: null and an empty list are not.
bool is_set(const json& v) { return !v.is_null() && !(v.is_array() && v.empty()); }

// Each set key of `object` outside `known` refused as not in the model's `what`.
void check_keys(const json& object, const std::string& at, std::initializer_list<const char*> known, const char* what,
                Problems& p) {
  for (const auto& [key, value] : object.items()) {
    if (!is_set(value)) continue;
    bool found = false;
    for (const char* k : known) found = found || key == k;
    if (!found) p.refuse(at + "." + key, fmt::format("not a field of {} in the OTG model (1.60.0)", what));
  }
}

// The string at `key`, refused when missing (`needed` says what for) or not a string.
std::optional<std::string> text_at(const json& object, const char* key, const std::string& at, const char* needed,
                                   Problems& p) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    if (*needed != '\0') p.refuse(at + "." + key, fmt::format("missing ({})", needed));
    return std::nullopt;
  }
  if (it->is_string()) return it->get<std::string>();
  p.refuse(at + "." + key, fmt::format("{}, not a string", kind_said(*it)));
  return std::nullopt;
}

// A whole number at `key` in [lo, hi], `fallback` when absent.
std::optional<uint64_t> number_at(const json& object, const char* key, uint64_t lo, uint64_t hi, uint64_t fallback,
                                  const std::string& at, Problems& p) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) return fallback;
  const auto n = whole_number(*it);
  if (n && *n >= lo && *n <= hi) return n;
  p.refuse(at + "." + key, fmt::format("expected {}-{}, found {}", lo, hi, it->dump()));
  return std::nullopt;
}

// An IP version's words: its list on the ethernet and how its hosts find a gateway's MAC.
struct Version {
  const char* list;      ///< "ipv4_addresses"
  uint64_t max_prefix;   ///< 32
  uint64_t prefix;       ///< the model's default
  const char* resolves;  ///< "ARP"
};

constexpr Version kIpv4{"ipv4_addresses", 32, 24, "ARP"};
constexpr Version kIpv6{"ipv6_addresses", 128, 64, "neighbour discovery"};

// The first address of an ethernet's list (a host has one of each version), its address,
// gateway and prefix parsed by `parse` into `out`; its name is `name`.
template <class Addr, class Parse>
void read_address(const json& list, const std::string& at, const Version& v, Parse parse, Addr& out, std::string& name,
                  Problems& p) {
  if (!list.is_array()) return p.refuse(at, fmt::format("{}, not a list", kind_said(list)));
  if (list.size() > 1)
    p.refuse(fmt::format("{}[1]", at),
             fmt::format("a second address is not supported by linerate: its emulated host has "
                         "one of each IP version (give another ethernet, with its own MAC)"));
  const json& a = list[0];
  const std::string here = at + "[0]";
  if (!a.is_object()) return p.refuse(here, fmt::format("{}, not an object", kind_said(a)));
  check_keys(a, here, {"name", "address", "gateway", "prefix", "gateway_mac"}, "an address", p);
  name = text_at(a, "name", here, "its name, which flows give", p).value_or("");
  const auto parsed = [&](const char* key, const char* needed) -> std::optional<decltype(out.address)> {
    const auto text = text_at(a, key, here, needed, p);
    if (!text) return std::nullopt;
    const auto value = parse(*text);
    if (!value) p.refuse(here + "." + key, fmt::format("'{}' is not an IP address of this version", *text));
    return value;
  };
  if (const auto address = parsed("address", "the host's address")) out.address = *address;
  out.gateway = parsed("gateway", "");
  if (const auto prefix = number_at(a, "prefix", 1, v.max_prefix, v.prefix, here, p))
    out.prefix = static_cast<uint8_t>(*prefix);
  if (a.contains("gateway_mac") && choice_of(a["gateway_mac"], "auto") != "auto")
    p.refuse(here + ".gateway_mac", fmt::format("a fixed gateway MAC is not supported by linerate: its hosts resolve "
                                                "their gateway with {}",
                                                v.resolves));
}

// vlans: none (untagged) or one 802.1Q tag.
std::optional<uint16_t> read_vlans(const json& vlans, const std::string& at, Problems& p) {
  if (!is_set(vlans)) return std::nullopt;
  if (!vlans.is_array()) {
    p.refuse(at, fmt::format("{}, not a list", kind_said(vlans)));
    return std::nullopt;
  }
  if (vlans.size() > 1)
    p.refuse(
        at, fmt::format("{} VLANs (QinQ) are not supported by linerate: its hosts carry one 802.1Q tag", vlans.size()));
  const json& v = vlans[0];
  const std::string here = at + "[0]";
  if (!v.is_object()) {
    p.refuse(here, fmt::format("{}, not an object", kind_said(v)));
    return std::nullopt;
  }
  check_keys(v, here, {"name", "id", "priority", "tpid"}, "a VLAN", p);
  if (const std::string tpid = string_at(v, "tpid", "x8100"); tpid != "x8100")
    p.refuse(here + ".tpid", fmt::format("'{}' is not supported by linerate: its hosts tag with 0x8100", tpid));
  if (const auto pcp = number_at(v, "priority", 0, 7, 0, here, p); pcp && *pcp != 0)
    p.warnings.push_back(here +
                         ".priority: not applied: the hosts' own frames (ARP, neighbour discovery) carry "
                         "priority 0; a flow's priority is its vlan header's");
  const auto id = number_at(v, "id", 1, 4094, 1, here, p);
  return id ? std::optional<uint16_t>(static_cast<uint16_t>(*id)) : std::nullopt;
}

// connection: the port the ethernet is on, the data plane's name of it.
std::optional<std::string> read_connection(const json& e, const std::string& at,
                                           const std::map<std::string, std::string>& ports, Problems& p) {
  const std::string here = at + ".connection";
  const json connection = e.value("connection", json());
  if (!connection.is_object()) {
    p.refuse(here, connection.is_null() ? std::string("missing (connection.port_name: the port it is on)")
                                        : fmt::format("{}, not an object", kind_said(connection)));
    return std::nullopt;
  }
  if (const std::string choice = choice_of(connection, "port_name"); choice != "port_name") {
    p.refuse(here + ".choice",
             fmt::format("'{}' is not supported by linerate: an ethernet is on one of the config's ports", choice));
    return std::nullopt;
  }
  const auto name = text_at(connection, "port_name", here, "the port it is on", p);
  if (!name) return std::nullopt;
  if (const auto it = ports.find(*name); it != ports.end()) return it->second;
  p.refuse(here + ".port_name", fmt::format("'{}' is not one of the config's ports", *name));
  return std::nullopt;
}

// Where in the ethernet a hosts::HostsError's key is: "ipv4" -> ".ipv4_addresses[0]".
std::string key_path(const std::string& ethernet, const std::string& key) {
  if (key == "ipv4" || key == "ipv6") return fmt::format("{}.{}_addresses[0]", ethernet, key);
  if (key == "vlan") return ethernet + ".vlans[0].id";
  return ethernet + "." + key;
}

// hosts::expand_device's message without its "host 0: " (an ethernet is one host).
std::string without_host_index(const std::string& message) {
  return message.starts_with("host 0: ") ? message.substr(8) : message;
}

class Reader {
 public:
  Reader(const std::map<std::string, std::string>& ports, Problems& p) : ports_(ports), p_(p) {}

  void device(const json& d, const std::string& at) {
    if (!d.is_object()) return p_.refuse(at, fmt::format("{}, not an object", kind_said(d)));
    for (const auto& [key, name] : kProtocols)
      if (d.contains(key) && is_set(d[key]))
        p_.refuse(at + "." + key, fmt::format("linerate runs no {}: {}", name, kHostsDo));
    for (const char* loopback : {"ipv4_loopbacks", "ipv6_loopbacks"})
      if (d.contains(loopback) && is_set(d[loopback]))
        p_.refuse(at + "." + loopback,
                  "not supported by linerate: a loopback is reached through a route, and "
                  "linerate runs no routing protocol");
    check_keys(d, at,
               {"name", "ethernets", "ipv4_loopbacks", "ipv6_loopbacks", "isis", "bgp", "vxlan", "rsvp", "dhcp_server",
                "ospfv2", "macsec", "ospfv3", "rocev2", "bmp"},
               "a device", p_);
    const json ethernets = d.value("ethernets", json::array());
    if (!ethernets.is_array()) return p_.refuse(at + ".ethernets", fmt::format("{}, not a list", kind_said(ethernets)));
    const size_t first = out_.ethernets.size();
    for (size_t e = 0; e < ethernets.size(); ++e) ethernet(ethernets[e], fmt::format("{}.ethernets[{}]", at, e));
    // A device of one ethernet stands for it in flows (scripts name devices, as older models did).
    if (out_.ethernets.size() == first + 1 && d.contains("name") && d["name"].is_string())
      name(d["name"].get<std::string>(), at, {OtgEndpoint::Kind::kEthernet, first});
  }

  // The hosts of every ethernet read, refused where two share a MAC or an address.
  OtgDevices finish() {
    if (unchecked_) return std::move(out_);  // a host that is not whole is not compared
    if (const auto distinct = hosts::check_distinct(hosts_); !distinct) {
      const size_t second = distinct.error().host;
      p_.refuse(key_path(out_.ethernets[second].path, distinct.error().key), distinct.error().message);
    }
    return std::move(out_);
  }

 private:
  void ethernet(const json& e, const std::string& at) {
    if (!e.is_object()) return p_.refuse(at, fmt::format("{}, not an object", kind_said(e)));
    check_keys(e, at,
               {"name", "mac", "mtu", "vlans", "connection", "ipv4_addresses", "ipv6_addresses", "dhcpv4_interfaces",
                "dhcpv6_interfaces"},
               "an ethernet", p_);
    for (const char* dhcp : {"dhcpv4_interfaces", "dhcpv6_interfaces"})
      if (e.contains(dhcp) && is_set(e[dhcp]))
        p_.refuse(at + "." + dhcp, fmt::format("linerate runs no DHCP: {}", kHostsDo));
    const size_t errors = p_.errors.size();
    api::DeviceSpec d;
    OtgEthernet out;
    out.path = at;
    d.name = out.name = text_at(e, "name", at, "its name, which flows and neighbour states give", p_).value_or("");
    if (const auto mac = text_at(e, "mac", at, "the host's MAC", p_)) {
      if (const auto parsed = profile::parse_mac(*mac)) d.first.mac = *parsed;
      else p_.refuse(at + ".mac", fmt::format("'{}' is not a MAC address", *mac));
    }
    if (const auto mtu = number_at(e, "mtu", 64, 65535, 1500, at, p_); mtu && *mtu != 1500)
      p_.warnings.push_back(at + ".mtu: not applied: the port keeps its MTU (the profile's mtu)");
    d.first.vlan = out.vlan = read_vlans(e.value("vlans", json()), at + ".vlans", p_);
    d.first.port = out.port = read_connection(e, at, ports_, p_).value_or("");
    std::string ipv4_name, ipv6_name;
    if (e.contains("ipv4_addresses") && is_set(e["ipv4_addresses"]))
      read_address(e["ipv4_addresses"], at + ".ipv4_addresses", kIpv4, profile::parse_ipv4, d.first.ipv4.emplace(),
                   ipv4_name, p_);
    if (e.contains("ipv6_addresses") && is_set(e["ipv6_addresses"]))
      read_address(e["ipv6_addresses"], at + ".ipv6_addresses", kIpv6, profile::parse_ipv6, d.first.ipv6.emplace(),
                   ipv6_name, p_);
    // Its names are known whatever its problems, so that flows naming it are not refused too.
    const size_t index = out_.ethernets.size();
    name(out.name, at, {OtgEndpoint::Kind::kEthernet, index});
    if (d.first.ipv4) {
      out.ipv4 = hosts::ipv4_text(d.first.ipv4->address);
      name(ipv4_name, at + ".ipv4_addresses[0]", {OtgEndpoint::Kind::kIpv4, index});
    }
    if (d.first.ipv6) {
      out.ipv6 = hosts::ipv6_text(d.first.ipv6->address);
      name(ipv6_name, at + ".ipv6_addresses[0]", {OtgEndpoint::Kind::kIpv6, index});
    }
    out_.ethernets.push_back(std::move(out));
    hosts_.push_back(d.first);
    unchecked_ = unchecked_ || p_.errors.size() != errors;
    if (p_.errors.size() != errors) return;
    const auto expanded = hosts::expand_device(d);
    unchecked_ = unchecked_ || !expanded;
    if (!expanded) return p_.refuse(key_path(at, expanded.error().key), without_host_index(expanded.error().message));
    hosts_.back() = expanded->front();
    out_.load.push_back(profile::to_json(d));
  }

  // A name flows may give; OTG's names are unique in the whole config.
  void name(const std::string& name, const std::string& at, OtgEndpoint endpoint) {
    if (name.empty()) return;  // refused as missing
    const auto [it, added] = named_.emplace(name, at);
    if (!added)
      return p_.refuse(at + ".name",
                       fmt::format("'{}' is the name of {} too (OTG names are unique)", name, it->second));
    out_.endpoints[name] = endpoint;
  }

  const std::map<std::string, std::string>& ports_;
  Problems& p_;
  OtgDevices out_;
  std::vector<api::HostSpec> hosts_;          ///< one per ethernet, in order
  std::map<std::string, std::string> named_;  ///< name -> the path of what has it
  bool unchecked_ = false;                    ///< an ethernet was refused: its host is not whole
};

}  // namespace

OtgDevices read_otg_devices(const json& devices, const std::map<std::string, std::string>& ports, Problems& p) {
  if (!is_set(devices)) return {};
  if (!devices.is_array()) {
    p.refuse("devices", fmt::format("{}, not a list", kind_said(devices)));
    return {};
  }
  Reader reader(ports, p);
  for (size_t i = 0; i < devices.size(); ++i) reader.device(devices[i], fmt::format("devices[{}]", i));
  return reader.finish();
}

std::string device_load_refusal(const std::string& message, const OtgDevices& devices) {
  std::vector<std::string> said;
  for (size_t at = message.find("devices["); at != std::string::npos; at = message.find("devices[", at + 1)) {
    size_t i = 0;
    const char* end = message.c_str() + message.size();
    const auto [after, ec] = std::from_chars(message.c_str() + at + 8, end, i);
    if (ec != std::errc() || after == end || *after != ']' || i >= devices.ethernets.size()) continue;
    const OtgEthernet& e = devices.ethernets[i];
    std::string note = fmt::format("devices[{}] is {} '{}'", i, e.path, e.name);
    if (std::find(said.begin(), said.end(), note) == said.end()) said.push_back(std::move(note));
  }
  if (said.empty()) return "devices: " + message;
  return fmt::format("devices: {} ({})", message, fmt::join(said, "; "));
}

std::string ethernet_of_host(const std::string& host) {
  const size_t bracket = host.rfind('[');
  return bracket == std::string::npos ? host : host.substr(0, bracket);
}

}  // namespace lr::otg
