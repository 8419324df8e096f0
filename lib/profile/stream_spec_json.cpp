#include "lib/profile/stream_spec_json.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <toml++/toml.h>

#include "lib/profile/json_table.hpp"
#include "lib/profile/load_toml.hpp"
#include "lib/profile/quantity.hpp"
#include "lib/profile/stream_table.hpp"
#include "lib/wire/checksum.hpp"
#include "lib/wire/roce.hpp"
#include "lib/wire/tcp.hpp"

namespace lr::profile {

using nlohmann::json;

namespace {

std::string mac_text(const api::MacAddr& mac) {
  return fmt::format("{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}", mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
}

std::string ipv4_text(uint32_t host_order) {
  return fmt::format("{}.{}.{}.{}", host_order >> 24, (host_order >> 16) & 0xFF, (host_order >> 8) & 0xFF,
                     host_order & 0xFF);
}

std::string ipv6_text(const api::Ipv6Addr& addr) {
  char text[INET6_ADDRSTRLEN] = {};
  inet_ntop(AF_INET6, addr.data(), text, sizeof text);
  return text;
}

const char* vary_field_name(api::VaryField field, const api::StreamSpec& s) {
  const bool v4 = s.ip_version == api::IpVersion::kV4;
  switch (field) {
    case api::VaryField::kEthSrc: return "eth.src";
    case api::VaryField::kEthDst: return "eth.dst";
    case api::VaryField::kVlanId: return "vlan.id";
    case api::VaryField::kIpSrc: return v4 ? "ipv4.src" : "ipv6.src";
    case api::VaryField::kIpDst: return v4 ? "ipv4.dst" : "ipv6.dst";
    case api::VaryField::kUdpSrc: return s.tcp ? "tcp.src" : "udp.src";
    case api::VaryField::kUdpDst: break;
  }
  return s.tcp ? "tcp.dst" : "udp.dst";
}

const char* vary_op_name(api::VaryOp op) {
  switch (op) {
    case api::VaryOp::kIncrement: return "increment";
    case api::VaryOp::kDecrement: return "decrement";
    case api::VaryOp::kList: return "list";
    case api::VaryOp::kRandom: break;
  }
  return "random";
}

// A list's values in the form the profile reads them: addresses as text (an IPv6 value
// is the header's address with its low 32 bits), VLAN ids and ports as integers.
json vary_values(const api::VarySpec& v, const api::StreamSpec& s) {
  json out = json::array();
  for (const uint64_t value : v.values) {
    switch (v.field) {
      case api::VaryField::kEthSrc:
      case api::VaryField::kEthDst: {
        api::MacAddr mac{};
        for (int i = 0; i < 6; ++i) mac[static_cast<size_t>(i)] = static_cast<uint8_t>(value >> (40 - 8 * i));
        out.push_back(mac_text(mac));
        break;
      }
      case api::VaryField::kIpSrc:
      case api::VaryField::kIpDst: {
        if (s.ip_version == api::IpVersion::kV4) {
          out.push_back(ipv4_text(static_cast<uint32_t>(value)));
          break;
        }
        api::Ipv6Addr addr = v.field == api::VaryField::kIpSrc ? s.ipv6.src : s.ipv6.dst;
        wire::store_be32(addr.data() + 12, static_cast<uint32_t>(value));
        out.push_back(ipv6_text(addr));
        break;
      }
      default: out.push_back(value);
    }
  }
  return out;
}

json frame_size(const api::FrameSizeSpec& frame) {
  switch (frame.kind) {
    case api::FrameSizeKind::kFixed: return frame.sizes.front();
    case api::FrameSizeKind::kImix: return frame.sizes;
    case api::FrameSizeKind::kRange: break;
  }
  return {{"min", frame.min},
          {"max", frame.max},
          {"order", frame.order == api::RangeOrder::kIncrement ? "increment" : "random"}};
}

// The MAC Control keys that give `mc` exactly: every quanta, and the class-enable vector
// as it is (a robustness case may enable other priorities than it pauses).
void write_mac_control(const api::StreamSpec& s, json& out) {
  const api::MacControlSpec& mc = s.mac_control;
  if (s.kind == api::StreamKind::kPfc) {
    out["kind"] = "pfc";
    out["priorities"] = priority_list(mc.class_enable != 0 ? mc.class_enable : 1);
    out["class_enable"] = priority_list(mc.class_enable);
    out["quanta"] = mc.quanta;
    out["reserved_bits"] = mc.reserved_bits;
  } else {
    out["kind"] = "pause";
    out["quanta"] = mc.quanta[0];
  }
  if (mc.opcode != 0) out["opcode"] = mc.opcode;
  if (mc.refresh_auto) {
    out["refresh"] = "auto";
    out.erase("rate");
  }
}

void write_headers(const api::StreamSpec& s, json& out) {
  if (s.vlan) out["vlan"] = {{"id", s.vlan->id}, {"pcp", s.vlan->pcp}};
  if (s.ip_version == api::IpVersion::kV4) {
    out["ipv4"] = {{"src", ipv4_text(s.ipv4.src)}, {"dst", ipv4_text(s.ipv4.dst)}, {"dscp", s.ipv4.dscp},
                   {"ecn", s.ipv4.ecn},            {"ttl", s.ipv4.ttl}};
  } else {
    out["ipv6"] = {{"src", ipv6_text(s.ipv6.src)}, {"dst", ipv6_text(s.ipv6.dst)},
                   {"dscp", s.ipv6.dscp},          {"ecn", s.ipv6.ecn},
                   {"hop_limit", s.ipv6.hop_limit}, {"flow_label", s.ipv6.flow_label}};
  }
  if (s.tcp) {
    json flags = json::array();
    for (size_t bit = 0; bit < wire::kTcpFlagNames.size(); ++bit)
      if ((s.tcp->flags >> bit) & 1) flags.push_back(wire::kTcpFlagNames[bit]);
    out["tcp"] = {{"src", s.tcp->src}, {"dst", s.tcp->dst}, {"seq", s.tcp->seq}, {"ack", s.tcp->ack},
                  {"flags", flags}, {"window", s.tcp->window}};
  } else {
    out["udp"] = {{"src", s.udp.src}, {"dst", s.udp.dst}};
  }
  if (s.roce) {
    const api::RoceSpec& r = *s.roce;
    const wire::RoceOpcode* op = wire::find_roce_opcode(r.opcode);
    json roce = {{"opcode", op != nullptr ? std::string(op->name) : fmt::format("{:#04x}", r.opcode)},
                 {"dest_qp", r.dest_qp},
                 {"psn", r.psn},
                 {"pkey", r.pkey}};
    if (r.extended_bytes() == wire::kRethBytes) {
      roce["va"] = r.va;
      roce["rkey"] = r.rkey;
    } else if (r.extended_bytes() == wire::kDethBytes) {
      roce["qkey"] = r.qkey;
      roce["src_qp"] = r.src_qp;
    }
    out["roce"] = roce;
  }
  if (!s.vary.empty()) {
    json vary = json::array();
    for (const api::VarySpec& v : s.vary)
      vary.push_back(v.op == api::VaryOp::kList
                         ? json{{"field", vary_field_name(v.field, s)}, {"values", vary_values(v, s)}}
                         : json{{"field", vary_field_name(v.field, s)},
                                {"op", vary_op_name(v.op)},
                                {"count", v.count},
                                {"step", v.step}});
    out["vary"] = vary;
  }
}

json source_of(const api::StreamSpec& s) {
  json keys = json::object();
  for (const auto& [key, loc] : s.key_locs) keys[key] = {loc.line, loc.column};
  return {{"file", s.file}, {"line", s.loc.line}, {"column", s.loc.column}, {"keys", keys}};
}

api::SourceLoc source_loc(const json& pair) {
  if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_unsigned() || !pair[1].is_number_unsigned())
    return {};
  return {pair[0].get<uint32_t>(), pair[1].get<uint32_t>()};
}

// "source" as to_json wrote it; what is not in that shape is refused, since errors would
// otherwise name lines that are not there.
void read_source(const json& source, api::StreamSpec& s, const std::string& where, const std::string& prefix) {
  const std::string key = prefix + "source";
  if (!source.is_object() || !source.value("file", json()).is_string() || !source.value("keys", json()).is_object())
    throw ConfigError(where, {}, key, "expected {file, line, column, keys: {key: [line, column]}} as stream.list writes it");
  s.file = source["file"].get<std::string>();
  s.loc = source_loc(json::array({source.value("line", json(0)), source.value("column", json(0))}));
  s.key_locs.clear();
  for (const auto& [name, pair] : source["keys"].items()) s.key_locs[name] = source_loc(pair);
}

}  // namespace

json to_json(const api::StreamSpec& s) {
  json out = {{"name", s.name},
              {"tx_port", s.tx_port},
              {"kind", "udp"},
              {"rate", rate_text(s.rate)},
              {"lanes", s.lanes},
              {"late", duration_text(s.late_ns)},
              {"eth",
               {{"src", s.eth_src_auto ? "auto" : mac_text(s.eth_src)},
                {"dst", s.eth_dst_auto ? "auto" : mac_text(s.eth_dst)}}}};
  if (s.rx_port) out["rx_port"] = *s.rx_port;
  if (s.count != 0) out["count"] = s.count;
  if (s.duration_ns != 0) out["duration"] = duration_text(s.duration_ns);
  if (s.start_after_ns != 0) out["start_after"] = duration_text(s.start_after_ns);
  if (!s.catch_up) out["catch_up"] = false;
  if (s.receive_only) out["receive_only"] = true;
  if (s.latency_shift_ns) out["latency_shift_ns"] = *s.latency_shift_ns;
  if (s.burst) out["burst"] = {{"packets", s.burst->packets}, {"interval", duration_text(s.burst->interval_ns)}};
  if (s.kind == api::StreamKind::kUdp) {
    out["frame_size"] = frame_size(s.frame);
    if (s.frame.kind == api::FrameSizeKind::kImix) out["frame_weights"] = s.frame.weights;
    write_headers(s, out);
  } else {
    write_mac_control(s, out);
  }
  if (!s.file.empty() && s.loc.line != 0) out["source"] = source_of(s);
  return out;
}

json to_json(const std::vector<api::StreamSpec>& streams) {
  json out = json::array();
  for (const api::StreamSpec& s : streams) out.push_back(to_json(s));
  return out;
}

api::StreamSpec stream_spec_from_json(const json& stream, const std::string& where, size_t index) {
  const std::string key = fmt::format("streams[{}]", index);
  json keys = stream;
  if (keys.is_object()) keys.erase("source");
  api::StreamSpec spec = read_json_section(keys, where, key, "a [[stream]] table's keys", read_stream);
  spec.file = where;
  if (const auto source = stream.find("source"); source != stream.end()) read_source(*source, spec, where, key + ".");
  return spec;
}

std::vector<api::StreamSpec> streams_from_json(const json& streams, const std::string& where, const Profile& running) {
  if (!streams.is_array())
    throw ConfigError(where, {}, "streams", fmt::format("expected an array of stream objects, found {}", streams.type_name()));
  std::vector<api::StreamSpec> out;
  for (size_t i = 0; i < streams.size(); ++i) out.push_back(stream_spec_from_json(streams[i], where, i));
  validate_streams(out, where, running);
  return out;
}

}  // namespace lr::profile
