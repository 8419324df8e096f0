#include "control/otg/otg_config.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include "dataplane/profile/load_toml.hpp"
#include "dataplane/profile/quantity.hpp"
#include "dataplane/profile/stream_spec_json.hpp"

namespace lr::otg {

using nlohmann::json;

namespace {

// The problems found so far; reading goes on past one, so a client sees them all.
struct Problems {
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
  void refuse(const std::string& path, const std::string& why) { errors.push_back(path + ": " + why); }
};

// snappi sends 64-bit integers as strings ("pps": "1000"); both forms are numbers here.
std::optional<uint64_t> whole_number(const json& v) {
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_integer() && v.get<int64_t>() >= 0) return static_cast<uint64_t>(v.get<int64_t>());
  if (!v.is_string()) return std::nullopt;
  const std::string s = v.get<std::string>();
  uint64_t out = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return out;
}

std::optional<double> number(const json& v) {
  if (v.is_number()) return v.get<double>();
  if (const auto n = whole_number(v)) return static_cast<double>(*n);
  return std::nullopt;
}

// The choice an OTG object makes, and the object under it.
// The string at `key` of `object`, or `fallback` when there is none (or not a string).
std::string string_at(const json& object, const char* key, const char* fallback) {
  return object.is_object() && object.value(key, json()).is_string() ? object[key].get<std::string>() : fallback;
}

std::string choice_of(const json& object, const char* fallback) { return string_at(object, "choice", fallback); }

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
    if (values.size() == 1) return set(values[0]);
    return p.refuse(at + ".values", "a list of values is not supported by linerate: use increment, decrement or random");
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

// One flow into the stream's keys, or its problems.
json read_flow(const json& flow, size_t i, const std::map<std::string, std::string>& ports, Problems& p) {
  const std::string path = fmt::format("flows[{}]", i);
  json stream = json::object();
  stream["name"] = flow.value("name", json(""));
  const json tx_rx = flow.value("tx_rx", json::object());
  if (choice_of(tx_rx, "port") != "port") {
    p.refuse(path + ".tx_rx", "device endpoints are not supported by linerate yet: use port");
    return stream;
  }
  const json endpoint = tx_rx.value("port", json::object());
  const auto located = [&](const json& name, const std::string& at) -> std::optional<std::string> {
    const auto it = name.is_string() ? ports.find(name.get<std::string>()) : ports.end();
    if (it != ports.end()) return it->second;
    p.refuse(at, fmt::format("{} is not one of the config's ports", name.dump()));
    return std::nullopt;
  };
  if (auto tx = located(endpoint.value("tx_name", json()), path + ".tx_rx.port.tx_name")) stream["tx_port"] = *tx;
  json rx_names = endpoint.value("rx_names", json::array());
  if (rx_names.empty() && endpoint.contains("rx_name")) rx_names = json::array({endpoint["rx_name"]});
  if (rx_names.size() > 1)
    p.refuse(path + ".tx_rx.port.rx_names", "linerate measures a flow on one receiving port: name one");
  else if (rx_names.size() == 1)
    if (auto rx = located(rx_names[0], path + ".tx_rx.port.rx_names[0]")) stream["rx_port"] = *rx;
  const json packet = flow.value("packet", json::array());
  bool udp = false;
  for (size_t h = 0; h < packet.size(); ++h) {
    const std::string at = fmt::format("{}.packet[{}]", path, h);
    const std::string kind = choice_of(packet[h], "");
    const json header = packet[h].value(kind, json::object());
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
    else if (kind == "udp") {
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
  const json size = flow.value("size", json::object());
  const std::string size_choice = choice_of(size, "fixed");
  if (stream.contains("kind")) {
    if (size_choice != "fixed" || whole_number(size.value("fixed", json(64))) != 64u)
      p.warnings.push_back(path + ".size: MAC Control frames are 64 bytes");
  } else if (size_choice == "fixed") {
    if (auto n = whole_number(size.value("fixed", json(64)))) stream["frame_size"] = *n;
    else p.refuse(path + ".size.fixed", "expected a whole number of bytes");
  } else if (size_choice == "increment" || size_choice == "random") {
    const json& r = size.value(size_choice, json::object());
    stream["frame_size"] = {{"min", r.value(size_choice == "random" ? "min" : "start", json(64))},
                            {"max", r.value(size_choice == "random" ? "max" : "end", json(1518))},
                            {"order", size_choice}};
  } else {
    p.refuse(path + ".size", fmt::format("'{}' is not supported by linerate yet", size_choice));
  }
  const json rate = flow.value("rate", json::object());
  const std::string rate_choice = choice_of(rate, "pps");
  static const std::map<std::string, std::pair<double, const char*>> kRates{
      {"pps", {1, "pps"}}, {"bps", {1, "bps"}}, {"kbps", {1e3, "bps"}}, {"mbps", {1e6, "bps"}},
      {"gbps", {1e9, "bps"}}, {"percentage", {1, "%"}}};
  if (const auto unit = kRates.find(rate_choice); unit == kRates.end()) {
    p.refuse(path + ".rate", fmt::format("'{}' is not a rate linerate knows", rate_choice));
  } else if (const auto v = number(rate.value(rate_choice, json(rate_choice == "percentage" ? 100 : 1000)))) {
    // OTG's bit rates are L1 here, as linerate's own "5Gbps" (frames, preamble and gap).
    stream["rate"] = fmt::format("{}{}", *v * unit->second.first, unit->second.second);
  } else {
    p.refuse(path + ".rate." + rate_choice, "expected a number");
  }
  const json duration = flow.value("duration", json::object());
  const std::string duration_choice = choice_of(duration, "continuous");
  const json& d = duration.value(duration_choice, json::object());
  if (duration_choice == "fixed_packets") {
    if (auto n = whole_number(d.value("packets", json(1)))) stream["count"] = *n;
  } else if (duration_choice == "fixed_seconds") {
    if (auto s = number(d.value("seconds", json(1)))) stream["duration"] = fmt::format("{}ns", std::llround(*s * 1e9));
  } else if (duration_choice != "continuous") {
    p.refuse(path + ".duration", fmt::format("'{}' is not supported by linerate yet", duration_choice));
  }
  const json delay = d.value("delay", json::object());
  const std::string delay_choice = choice_of(delay, "bytes");
  if (const auto n = number(delay.value(delay_choice, json(0))); n && *n > 0) {
    if (delay_choice == "nanoseconds") stream["start_after"] = fmt::format("{}ns", std::llround(*n));
    else if (delay_choice == "microseconds") stream["start_after"] = fmt::format("{}ns", std::llround(*n * 1e3));
    else p.refuse(path + ".duration." + duration_choice + ".delay", "a delay in bytes is not supported by linerate: "
                                                                   "give nanoseconds or microseconds");
  }
  return stream;
}

}  // namespace

OtgConfig read_otg_config(const json& body, const std::vector<std::string>& dataplane_ports) {
  Problems p;
  OtgConfig config;
  config.body = body;
  if (!body.is_object()) throw ConfigRefused({"config: expected an object"});
  for (const char* unsupported : {"devices", "lags"})
    if (body.contains(unsupported) && !body[unsupported].empty())
      p.refuse(unsupported, "not supported by linerate yet: it runs no protocols (ports and flows only)");
  if (body.contains("layer1") && !body["layer1"].empty())
    p.warnings.push_back("layer1: not applied: the ports keep the speed, FEC, pause and PFC the data plane set them "
                         "up with (its profile, or linerate link / fec / pfc)");
  const json captures = body.value("captures", json::array());
  for (size_t i = 0; i < captures.size(); ++i) {
    for (const json& name : captures[i].value("port_names", json::array()))
      if (name.is_string()) config.capture_ports.push_back(name.get<std::string>());
    if (captures[i].value("format", "pcap") != "pcapng")
      p.warnings.push_back(fmt::format("captures[{}].format: linerate writes pcapng (Wireshark, tshark and scapy read "
                                       "it), both directions", i));
    if (!captures[i].value("filters", json::array()).empty())
      p.warnings.push_back(fmt::format("captures[{}].filters: not applied: every frame is captured", i));
  }
  const json ports = body.value("ports", json::array());
  for (size_t i = 0; i < ports.size(); ++i) {
    const std::string at = fmt::format("ports[{}]", i);
    const std::string location = string_at(ports[i], "location", "");
    if (std::find(dataplane_ports.begin(), dataplane_ports.end(), location) == dataplane_ports.end())
      p.refuse(at + ".location", fmt::format("'{}' is not a port of the data plane (it has {})", location,
                                             fmt::join(dataplane_ports, ", ")));
    config.ports[string_at(ports[i], "name", "")] = location;
  }
  const json flows = body.value("flows", json::array());
  json streams = json::array();
  for (size_t i = 0; i < flows.size(); ++i) streams.push_back(read_flow(flows[i], i, config.ports, p));
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
