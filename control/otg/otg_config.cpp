#include "control/otg/otg_config.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <ranges>

#include "control/otg/otg_capture_filter.hpp"
#include "control/otg/otg_device_flow.hpp"
#include "control/otg/otg_fields.hpp"
#include "control/otg/otg_flow_timing.hpp"
#include "control/otg/otg_json.hpp"
#include "lib/profile/load_toml.hpp"
#include "lib/profile/quantity.hpp"
#include "lib/profile/stream_spec_json.hpp"

namespace lr::otg {

using nlohmann::json;

namespace {

// An address step as an integer: "0.0.0.1" -> 1, "00:00:00:00:01:00" -> 256, "::100" -> 256
// (an IPv6 step fits the low 32 bits).
std::optional<uint64_t> address_step(const json& v, bool mac) {
  if (auto n = whole_number(v)) return n;
  if (!v.is_string()) return std::nullopt;
  const std::string s = v.get<std::string>();
  if (s.find(':') != std::string::npos && !mac) {
    const auto ip = profile::parse_ipv6(s);
    if (!ip || std::any_of(ip->begin(), ip->begin() + 12, [](uint8_t b) { return b != 0; })) return std::nullopt;
    return uint64_t{(*ip)[12]} << 24 | uint64_t{(*ip)[13]} << 16 | uint64_t{(*ip)[14]} << 8 | (*ip)[15];
  }
  if (mac) {
    const auto m = profile::parse_mac(s);
    if (!m) return std::nullopt;
    uint64_t out = 0;
    for (uint8_t b : *m) out = out << 8 | b;
    return out;
  }
  const auto ip = profile::parse_ipv4(s);
  return ip ? std::optional<uint64_t>(*ip) : std::nullopt;
}

// How a header field is to be read and varied.
struct Field {
  const char* otg;          ///< its name in the OTG header
  const char* table;        ///< the stream's table it goes to ("udp")
  const char* key;          ///< its key there ("src")
  const char* vary = "";    ///< the stream's vary field, if it can vary ("udp.src")
  bool address = false;     ///< a MAC or IPv4 address: values are strings
  bool mac = false;
  bool random = false;      ///< random is a pattern the stream can do
};

// A field's pattern into the stream's keys: a value, or a start and a vary entry.
void read_field(const json& header, const Field& f, const std::string& path, json& stream, Problems& p) {
  const auto it = header.find(f.otg);
  if (it == header.end() || it->is_null()) return;
  const std::string at = path + "." + f.otg;
  const json& pattern = *it;
  const std::string choice = choice_of(pattern, "value");
  const auto set = [&](const json& value) {
    if (f.address) {
      if (!value.is_string()) return p.refuse(at, "expected an address as a string");
      stream[f.table][f.key] = value;
    } else if (const auto n = whole_number(value)) {
      stream[f.table][f.key] = *n;
    } else {
      p.refuse(at, fmt::format("expected a whole number, found {}", value.dump()));
    }
  };
  if (choice == "auto") return;  // linerate's default
  if (choice == "value") return set(pattern.value("value", json()));
  if (choice == "values") {
    const json values = pattern.value("values", json::array());
    if (values.empty()) return p.refuse(at + ".values", "names no value");
    set(values[0]);
    if (values.size() == 1) return;
    if (*f.vary == '\0') return p.refuse(at + ".values", "a list of values is not supported on this field by linerate");
    json list = json::array();
    for (size_t i = 0; i < values.size(); ++i) {
      const auto n = whole_number(values[i]);
      if (!f.address && !n)
        return p.refuse(fmt::format("{}.values[{}]", at, i), fmt::format("expected a whole number, found {}", values[i].dump()));
      list.push_back(f.address ? values[i] : json(*n));
    }
    stream["vary"].push_back({{"field", f.vary}, {"values", list}});
    return;
  }
  if (choice == "increment" || choice == "decrement" || (choice == "random" && f.random)) {
    if (*f.vary == '\0') return p.refuse(at, fmt::format("{} is not supported on this field by linerate", choice));
    const json& spec = pattern.value(choice, json::object());
    const json start = choice == "random" ? spec.value("min", json()) : spec.value("start", json());
    if (!start.is_null()) set(start);
    json vary{{"field", f.vary}, {"op", choice}};
    if (choice == "random") {
      const auto lo = whole_number(spec.value("min", json(0)));
      const auto hi = whole_number(spec.value("max", json(65535)));
      if (!lo || !hi || *hi < *lo) return p.refuse(at + ".random", "expected min <= max");
      vary["count"] = *hi - *lo + 1;
    } else {
      const auto count = whole_number(spec.value("count", json(1)));
      const auto step = address_step(spec.value("step", json(1)), f.mac);
      if (!count || !step) return p.refuse(at + "." + choice, "expected a whole count and step");
      vary["count"] = *count;
      vary["step"] = *step;
    }
    stream["vary"].push_back(vary);
    return;
  }
  p.refuse(at, fmt::format("the pattern '{}' is not supported by linerate", choice));
}

void read_ethernet(const json& h, const std::string& path, json& stream, Problems& p) {
  read_field(h, {"src", "eth", "src", "eth.src", true, true}, path, stream, p);
  read_field(h, {"dst", "eth", "dst", "eth.dst", true, true}, path, stream, p);
  if (h.contains("pfc_queue") && choice_of(h["pfc_queue"], "auto") != "auto")
    p.warnings.push_back(path + ".pfc_queue: linerate's frames carry their priority in the VLAN PCP or DSCP; "
                                "pfc_queue is not used");
}

void read_ipv4(const json& h, const std::string& path, json& stream, Problems& p) {
  read_field(h, {"src", "ipv4", "src", "ipv4.src", true}, path, stream, p);
  read_field(h, {"dst", "ipv4", "dst", "ipv4.dst", true}, path, stream, p);
  read_field(h, {"time_to_live", "ipv4", "ttl"}, path, stream, p);
  const json priority = h.value("priority", json());
  const std::string choice = choice_of(priority, "raw");
  if (priority.is_null()) return;
  if (choice == "dscp") {
    const json& dscp = priority.value("dscp", json::object());
    read_field(dscp, {"phb", "ipv4", "dscp"}, path + ".priority.dscp", stream, p);
    read_field(dscp, {"ecn", "ipv4", "ecn"}, path + ".priority.dscp", stream, p);
  } else if (choice == "raw") {
    const json raw = priority.value("raw", json::object());
    const auto tos = whole_number(raw.value("value", json(0)));
    if (choice_of(raw, "value") != "value" || !tos || *tos > 255)
      return p.refuse(path + ".priority.raw", "expected a single value 0-255");
    stream["ipv4"]["dscp"] = *tos >> 2;
    stream["ipv4"]["ecn"] = *tos & 3;
  } else {
    p.refuse(path + ".priority", fmt::format("'{}' is not supported by linerate: use dscp or raw", choice));
  }
}

json bit_list(uint64_t bits) {
  json out = json::array();
  for (unsigned b = 0; b < 8; ++b)
    if ((bits >> b) & 1) out.push_back(b);
  return out;
}

// A pfcpause or ethernetpause header: the flow is a MAC Control stream (kind pfc or
// pause), 64-byte frames to 01:80:C2:00:00:01, whose quanta and class-enable vector are
// the header's.
void read_mac_control(const std::string& kind, const json& h, const std::string& path, json& stream, Problems& p) {
  json read = json::object();
  const auto field = [&](const char* name) {
    read_field(h, {name, "mc", name}, path, read, p);
    return read.contains("mc") && read["mc"].contains(name) ? whole_number(read["mc"][name]) : std::nullopt;
  };
  for (const char* fixed : {"dst", "src", "ether_type"})
    if (h.contains(fixed) && choice_of(h[fixed], "auto") != "auto")
      p.warnings.push_back(path + "." + fixed + ": linerate's MAC Control frames go to 01:80:C2:00:00:01 from the "
                                                "port's address with EtherType 0x8808; not used");
  if (const auto op = field("control_op_code"); op && *op != (kind == "pfcpause" ? 0x0101u : 0x0001u))
    stream["opcode"] = *op;
  if (kind == "ethernetpause") {
    stream["kind"] = "pause";
    stream["quanta"] = field("time").value_or(0);
    return;
  }
  stream["kind"] = "pfc";
  json quanta = json::array();
  uint64_t nonzero = 0;
  for (unsigned c = 0; c < 8; ++c) {
    const uint64_t q = field(fmt::format("pause_class_{}", c).c_str()).value_or(0);
    if (q != 0) nonzero |= 1u << c;
    quanta.push_back(q);
  }
  const uint64_t enable = field("class_enable_vector").value_or(nonzero);
  if ((enable & 0xFF) == 0) return p.refuse(path + ".class_enable_vector", "names no priority to pause (bits 0-7)");
  stream["priorities"] = bit_list(enable);
  stream["class_enable"] = bit_list(enable);
  if (enable > 0xFF) stream["reserved_bits"] = true;
  stream["quanta"] = quanta;
}

void read_ipv6(const json& h, const std::string& path, json& stream, Problems& p) {
  stream["ipv6"] = json::object();
  read_field(h, {"src", "ipv6", "src", "ipv6.src", true}, path, stream, p);
  read_field(h, {"dst", "ipv6", "dst", "ipv6.dst", true}, path, stream, p);
  read_field(h, {"hop_limit", "ipv6", "hop_limit"}, path, stream, p);
  read_field(h, {"flow_label", "ipv6", "flow_label"}, path, stream, p);
  json tc = json::object();
  read_field(h, {"traffic_class", "tc", "v"}, path, tc, p);
  if (const auto v = tc.contains("tc") ? whole_number(tc["tc"]["v"]) : std::nullopt) {
    if (*v > 255) return p.refuse(path + ".traffic_class", "expected 0-255");
    stream["ipv6"]["dscp"] = *v >> 2;
    stream["ipv6"]["ecn"] = *v & 3;
  }
}

// The speed of the flow's transmitting port, 0 when not known.
uint64_t speed_of(const json& stream, const std::map<std::string, uint64_t>& speeds) {
  const auto it = speeds.find(stream.value("tx_port", ""));
  return it == speeds.end() ? 0 : it->second;
}

// A TCP header: linerate's stateless segment (one sequence number, the flags set in
// every frame).
void read_tcp(const json& h, const std::string& path, json& stream, Problems& p) {
  stream["tcp"] = json::object();
  read_field(h, {"src_port", "tcp", "src", "tcp.src", false, false, true}, path, stream, p);
  read_field(h, {"dst_port", "tcp", "dst", "tcp.dst", false, false, true}, path, stream, p);
  read_field(h, {"seq_num", "tcp", "seq"}, path, stream, p);
  read_field(h, {"ack_num", "tcp", "ack"}, path, stream, p);
  read_field(h, {"window", "tcp", "window"}, path, stream, p);
  // A one-bit field's value, when it is other than `usual`.
  const auto unusual = [&](const char* key, uint64_t usual) -> std::optional<uint64_t> {
    json read = json::object();
    read_field(h, {key, "x", "v"}, path, read, p);
    const auto v = read.contains("x") ? whole_number(read["x"]["v"]) : std::nullopt;
    return v && *v != usual ? v : std::nullopt;
  };
  json flags = json::array();
  static constexpr std::array<std::pair<const char*, const char*>, 8> kFlags{
      {{"ctl_fin", "fin"}, {"ctl_syn", "syn"}, {"ctl_rst", "rst"}, {"ctl_psh", "psh"}, {"ctl_ack", "ack"},
       {"ctl_urg", "urg"}, {"ecn_echo", "ece"}, {"ecn_cwr", "cwr"}}};
  for (const auto& [otg, name] : kFlags)
    if (unusual(otg, 0)) flags.push_back(name);
  stream["tcp"]["flags"] = flags;
  if (unusual("data_offset", 5)) p.warnings.push_back(path + ".data_offset: linerate's TCP header has no options (5)");
  if (unusual("ecn_ns", 0)) p.warnings.push_back(path + ".ecn_ns: not set (linerate writes the 8 flags from CWR to FIN)");
  if (h.contains("checksum") && choice_of(h["checksum"], "generated") != "generated")
    p.warnings.push_back(path + ".checksum: linerate writes the right checksum");
}

// tx_rx.port: the stream's tx_port and rx_port, the config's ports' locations.
void read_port_endpoints(const json& endpoint, const std::string& path, const std::map<std::string, std::string>& ports,
                         json& stream, Problems& p) {
  const auto located = [&](const json& name, const std::string& at) -> std::optional<std::string> {
    const auto it = name.is_string() ? ports.find(name.get<std::string>()) : ports.end();
    if (it != ports.end()) return it->second;
    p.refuse(at, fmt::format("{} is not one of the config's ports", name.dump()));
    return std::nullopt;
  };
  if (auto tx = located(endpoint.value("tx_name", json()), path + ".tx_name")) stream["tx_port"] = *tx;
  json rx_names = endpoint.value("rx_names", json::array());
  if (rx_names.empty() && endpoint.contains("rx_name")) rx_names = json::array({endpoint["rx_name"]});
  if (rx_names.size() > 1) p.refuse(path + ".rx_names", "linerate measures a flow on one receiving port: name one");
  else if (rx_names.size() == 1)
    if (auto rx = located(rx_names[0], path + ".rx_names[0]")) stream["rx_port"] = *rx;
}

// The flow's headers into the stream's keys.
void read_packet(const json& packet, const std::string& path, json& stream, Problems& p) {
  bool udp = false;
  const bool tcp = std::any_of(packet.begin(), packet.end(), [](const json& h) { return choice_of(h, "") == "tcp"; });
  for (size_t h = 0; h < packet.size(); ++h) {
    const std::string at = fmt::format("{}.packet[{}]", path, h);
    const std::string kind = choice_of(packet[h], "");
    const json header = packet[h].value(kind, json::object());
    check_header_fields(kind, header, at + "." + kind, tcp ? 6 : 17, p);
    if ((kind == "pfcpause" || kind == "ethernetpause") && h == 0 && packet.size() == 1) {
      read_mac_control(kind, header, at + "." + kind, stream, p);
      udp = true;  // a MAC Control frame: nothing to add
    } else if (kind == "ethernet" && h == 0) read_ethernet(header, at + ".ethernet", stream, p);
    else if (kind == "vlan" && !stream.contains("vlan")) {
      stream["vlan"] = json::object();
      read_field(header, {"id", "vlan", "id", "vlan.id"}, at + ".vlan", stream, p);
      read_field(header, {"priority", "vlan", "pcp"}, at + ".vlan", stream, p);
    } else if (kind == "ipv4" && !stream.contains("ipv6")) read_ipv4(header, at + ".ipv4", stream, p);
    else if (kind == "ipv6" && !stream.contains("ipv4")) read_ipv6(header, at + ".ipv6", stream, p);
    else if (kind == "tcp" && !udp) {
      udp = true;  // an L4 header
      read_tcp(header, at + ".tcp", stream, p);
    } else if (kind == "udp" && !udp) {
      udp = true;
      read_field(header, {"src_port", "udp", "src", "udp.src", false, false, true}, at + ".udp", stream, p);
      read_field(header, {"dst_port", "udp", "dst", "udp.dst", false, false, true}, at + ".udp", stream, p);
    } else {
      p.refuse(at, fmt::format("{} is not supported by linerate{}", kind.empty() ? "a header without a choice" : kind,
                               kind == "ethernet" || kind == "vlan" ? " in this place" : ""));
    }
  }
  if (!udp && !packet.empty())
    p.warnings.push_back(path + ".packet: linerate's frames are UDP (its signature rides in the payload): a UDP "
                                "header was added");
}

// One flow into the stream's keys, or its problems.
json read_flow(const json& flow, size_t i, const OtgConfig& config, const std::map<std::string, uint64_t>& speeds,
               Problems& p) {
  const std::string path = fmt::format("flows[{}]", i);
  json stream = json::object();
  stream["name"] = flow.value("name", json(""));
  const json tx_rx = flow.value("tx_rx", json::object());
  const std::string choice = choice_of(tx_rx, "port");
  std::optional<DeviceFlow> device;
  if (choice == "port") {
    read_port_endpoints(tx_rx.value("port", json::object()), path + ".tx_rx.port", config.ports, stream, p);
  } else if (choice == "device") {
    device =
        read_device_endpoints(tx_rx.value("device", json::object()), path + ".tx_rx.device", config.devices, stream, p);
    if (!device) return stream;
  } else {
    p.refuse(path + ".tx_rx.choice", fmt::format("'{}' is not port or device", choice));
    return stream;
  }
  check_flow_keys(flow, path, p);
  const json packet = flow.value("packet", json::array());
  read_packet(packet, path, stream, p);
  if (device) fill_from_endpoints(*device, packet, path, config.devices, stream, p);
  read_size(flow.value("size", json::object()), path, stream, p);
  const double pps = read_rate(flow.value("rate", json::object()), path, speed_of(stream, speeds), stream, p);
  read_duration(flow.value("duration", json::object()), path, pps, speed_of(stream, speeds), stream, p);
  return stream;
}

// A layer1 entry: its flow control becomes each port's PFC or PAUSE setting; what
// linerate does not set on a port (speed, MTU, media, autonegotiation) is a warning
// where it differs from what the port has.
void read_layer1(const json& l1, const std::string& at, const std::map<std::string, uint64_t>& speeds,
                 OtgConfig& config, Problems& p) {
  std::vector<std::string> locations;
  const json names = l1.value("port_names", json::array());
  for (size_t n = 0; n < names.size(); ++n) {
    const auto it = names[n].is_string() ? config.ports.find(names[n].get<std::string>()) : config.ports.end();
    if (it == config.ports.end())
      p.refuse(fmt::format("{}.port_names[{}]", at, n), fmt::format("{} is not one of the config's ports", names[n].dump()));
    else locations.push_back(it->second);
  }
  if (const std::string speed = string_at(l1, "speed", ""); !speed.empty()) {
    // "speed_40_gbps", "speed_100_fd_mbps": the number and its unit.
    const size_t digits = speed.find_first_of("0123456789");
    const uint64_t value = digits == std::string::npos ? 0 : std::strtoull(speed.c_str() + digits, nullptr, 10);
    const uint64_t bps = value * (speed.ends_with("gbps") ? 1'000'000'000ull : 1'000'000ull);
    for (const std::string& port : locations) {
      // A location the data plane lacks is refused at its ports[i] (found by the otg_request fuzz target: at()
      // threw std::out_of_range, which nothing above catches).
      const auto known = speeds.find(port);
      if (known != speeds.end() && known->second != bps)
        p.warnings.push_back(
            fmt::format("{}.speed: not applied: {} runs at {} Gbit/s as the data plane set it up "
                        "(linerate does not change a port's speed)",
                        at, port, static_cast<double>(known->second) / 1e9));
    }
  }
  if (const auto mtu = whole_number(l1.value("mtu", json(1500))); mtu != 1500u)
    p.warnings.push_back(at + ".mtu: not applied: the port keeps its MTU (the profile's mtu)");
  for (const char* key : {"media", "auto_negotiate", "auto_negotiation", "ieee_media_defaults"})
    if (l1.contains(key) && !l1[key].is_null())
      p.warnings.push_back(fmt::format("{}.{}: not applied: the port keeps what the data plane set it up with", at, key));
  const json flow_control = l1.value("flow_control", json());
  if (flow_control.is_null()) return;
  FlowControlSetting setting;
  setting.path = at + ".flow_control";
  const std::string choice = choice_of(flow_control, "ieee_802_1qbb");
  if (choice == "ieee_802_1qbb") {
    // pfc_class_N maps priority N to a class; null leaves priority N without PFC.
    const json& qbb = flow_control.value("ieee_802_1qbb", json::object());
    for (unsigned priority = 0; priority < 8; ++priority) {
      const json c = qbb.value(fmt::format("pfc_class_{}", priority), json(priority));
      if (c.is_null()) continue;
      if (whole_number(c) != priority)
        p.warnings.push_back(fmt::format("{}.ieee_802_1qbb.pfc_class_{}: linerate pauses priority {} as class {} "
                                         "(classes are priorities)", setting.path, priority, priority, priority));
      setting.pfc_priorities.push_back(priority);
    }
    if (const auto delay = whole_number(qbb.value("pfc_delay", json(0))); delay != 0u)
      p.warnings.push_back(setting.path + ".ieee_802_1qbb.pfc_delay: not applied (the profile's pfc_reaction_delay "
                                          "delays a software reaction)");
  } else if (choice == "ieee_802_3x") {
    setting.pause = true;
  } else {
    return p.refuse(setting.path, fmt::format("'{}' is not a flow control linerate knows", choice));
  }
  for (const std::string& port : locations) {
    setting.port = port;
    config.flow_control.push_back(setting);
  }
}

// captures: each port's filter as one libpcap expression, and its snap length.
void read_captures(const json& captures, OtgConfig& config, Problems& p) {
  for (size_t i = 0; i < captures.size(); ++i) {
    CaptureSetting setting;
    try {
      setting.filter = capture_filter_expression(captures[i].value("filters", json::array()),
                                                 fmt::format("captures[{}].filters", i));
    } catch (const std::invalid_argument& e) {
      p.refuse(fmt::format("captures[{}].filters", i), e.what());
    }
    if (const json size = captures[i].value("packet_size", json()); !size.is_null()) {
      const auto n = whole_number(size);
      if (!n || *n < 64 || *n > 16384) p.refuse(fmt::format("captures[{}].packet_size", i), "expected 64-16384 bytes");
      else setting.snaplen = static_cast<uint32_t>(*n);
    }
    for (const json& name : captures[i].value("port_names", json::array()))
      if (name.is_string()) config.captures[name.get<std::string>()] = setting;
    if (captures[i].value("format", "pcap") != "pcapng")
      p.warnings.push_back(fmt::format("captures[{}].format: linerate writes pcapng (Wireshark, tshark and scapy read "
                                       "it), both directions", i));
  }
}

// devices: the data plane's emulated hosts, started with the config.
void read_devices(const json& body, OtgConfig& config, Problems& p) {
  config.devices = read_otg_devices(body.value("devices", json()), config.ports, p);
  const json options = body.value("options", json::object());
  const json protocol = options.is_object() ? options.value("protocol_options", json::object()) : json::object();
  if (!config.devices.ethernets.empty() && protocol.is_object() && protocol.value("auto_start_all", json()) == false)
    p.warnings.push_back(
        "options.protocol_options.auto_start_all: not applied: linerate starts the devices' hosts "
        "with the config (their flows are checked against them); control/state protocol stop "
        "ends them");
}

}  // namespace

std::vector<api::PortSpec> located_ports(const json& body) {
  const json ports = body.is_object() ? body.value("ports", json::array()) : json::array();
  if (!ports.is_array()) return {};  // refused at its path by read_otg_config
  std::vector<api::PortSpec> located;
  std::optional<size_t> served;  // the first port of the served data plane
  for (size_t i = 0; i < ports.size(); ++i) {
    const json* location = ports[i].is_object() && ports[i].contains("location") ? &ports[i]["location"] : nullptr;
    if (location == nullptr || !location->is_string()) continue;  // refused at its path by read_otg_config
    const std::string text = location->get<std::string>();
    if (text.find(';') == std::string::npos) {
      if (!served) served = i;
      continue;
    }
    api::PortSpec port;
    port.name = text;
    port.location = text;
    located.push_back(std::move(port));
  }
  if (!located.empty() && served)
    throw ConfigRefused(
        {fmt::format("ports[{}].location: '{}' is a port of the served data plane, beside ports of other data planes "
                     "(ENGINE;PORT): name every port by location, this host's data plane too (serving --listen)",
                     *served, ports[*served]["location"].get<std::string>())});
  return located;
}

OtgConfig read_otg_config(const json& body, const std::map<std::string, uint64_t>& dataplane_ports) {
  Problems p;
  OtgConfig config;
  config.body = body;
  if (!body.is_object()) throw ConfigRefused({"config: expected an object"});
  check_config_keys(body, p);
  if (body.contains("lags") && !body["lags"].empty())
    p.refuse("lags", "not supported by linerate: it runs no protocols (LACP)");
  read_captures(body.value("captures", json::array()), config, p);
  const json ports = body.value("ports", json::array());
  for (size_t i = 0; i < ports.size(); ++i) {
    const std::string at = fmt::format("ports[{}]", i);
    const std::string location = string_at(ports[i], "location", "");
    if (!dataplane_ports.contains(location))
      p.refuse(at + ".location", fmt::format("'{}' is not a port of the data plane (it has {})", location,
                                             fmt::join(std::views::keys(dataplane_ports), ", ")));
    config.ports[string_at(ports[i], "name", "")] = location;
  }
  const json layer1 = body.value("layer1", json::array());
  for (size_t i = 0; i < layer1.size(); ++i) read_layer1(layer1[i], fmt::format("layer1[{}]", i), dataplane_ports, config, p);
  read_devices(body, config, p);
  const json flows = body.value("flows", json::array());
  json streams = json::array();
  for (size_t i = 0; i < flows.size(); ++i) {
    streams.push_back(read_flow(flows[i], i, config, dataplane_ports, p));
    if (flows[i].value("metrics", json::object()).value("timestamps", false))
      config.timestamped_flows.insert(flows[i].value("name", ""));
  }
  if (p.errors.empty()) {
    for (size_t i = 0; i < streams.size(); ++i) {
      try {
        config.streams.push_back(profile::stream_spec_from_json(streams[i], "config", i));
      } catch (const profile::ConfigError& e) {
        p.refuse(fmt::format("flows[{}]", i), fmt::format("{} (as linerate's {})", e.reason(), e.key()));
      }
    }
  }
  if (!p.errors.empty()) throw ConfigRefused(std::move(p.errors));
  config.warnings = std::move(p.warnings);
  return config;
}

}  // namespace lr::otg
