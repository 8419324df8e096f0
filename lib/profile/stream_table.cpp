#include "lib/profile/stream_table.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <limits>

#include "lib/common/line_rate.hpp"
#include "lib/profile/quantity.hpp"
#include "lib/wire/checksum.hpp"
#include "lib/wire/mac_control.hpp"
#include "lib/wire/roce.hpp"
#include "lib/wire/tcp.hpp"

namespace lr::profile {

using api::BurstSpec;
using api::FrameSizeKind;
using api::FrameSizeSpec;
using api::IpVersion;
using api::Ipv6Addr;
using api::MacAddr;
using api::MacControlSpec;
using api::RangeOrder;
using api::RateKind;
using api::RoceSpec;
using api::StreamKind;
using api::StreamSpec;
using api::TcpSpec;
using api::VaryField;
using api::VaryOp;
using api::VarySpec;
using api::kMaxVaryValues;
using api::VlanSpec;

namespace {

void read_frame_size(TableReader& in, StreamSpec& stream) {
  const toml::node* node = in.find("frame_size");
  const toml::node* weights = in.find("frame_weights");
  if (node == nullptr) {
    if (weights != nullptr) in.fail(weights, "frame_weights", "needs frame_size to be a list of sizes");
    return;
  }
  FrameSizeSpec& frame = stream.frame;
  if (node->is_integer()) {
    frame.kind = FrameSizeKind::kFixed;
    frame.sizes = {in.integer_of<uint16_t>(node, "frame_size", 1, 9600)};
  } else if (const toml::array* array = node->as_array()) {
    if (array->empty()) in.fail(node, "frame_size", "the list of frame sizes is empty");
    frame.kind = FrameSizeKind::kImix;
    frame.sizes.clear();
    for (const toml::node& item : *array) frame.sizes.push_back(in.integer_of<uint16_t>(&item, "frame_size", 1, 9600));
    if (weights != nullptr) {
      const toml::array* wa = weights->as_array();
      if (wa == nullptr) in.fail(weights, "frame_weights", "expected an array of integers");
      if (wa->size() != frame.sizes.size())
        in.fail(weights, "frame_weights",
                fmt::format("has {} weights for {} frame sizes", wa->size(), frame.sizes.size()));
      for (const toml::node& item : *wa) frame.weights.push_back(in.integer_of<uint32_t>(&item, "frame_weights", 1, 1000000));
    } else {
      frame.weights.assign(frame.sizes.size(), 1);
    }
  } else if (const toml::table* table = node->as_table()) {
    TableReader range(*table, in.prefix() + "frame_size.", in.file());
    frame.kind = FrameSizeKind::kRange;
    auto min = range.integer<uint16_t>("min", 1, 9600);
    auto max = range.integer<uint16_t>("max", 1, 9600);
    if (!min || !max) range.fail(node, "", "a frame size range needs both min and max");
    if (*min > *max) range.fail(node, "", fmt::format("min {} is above max {}", *min, *max));
    frame.min = *min;
    frame.max = *max;
    if (auto order = range.string("order")) {
      if (*order == "random") frame.order = RangeOrder::kRandom;
      else if (*order == "increment") frame.order = RangeOrder::kIncrement;
      else range.fail(range.find("order"), "order", fmt::format("'{}' is not random or increment", *order));
    }
    range.finish();
    if (weights != nullptr) in.fail(weights, "frame_weights", "only applies to a list of frame sizes");
  } else {
    in.fail(node, "frame_size",
            fmt::format("expected an integer, a list of sizes or {{min, max}}, found {}", type_name(*node)));
  }
}

// `values` of a list: addresses as text (an IPv6 address differing from the header's
// in its low 32 bits only), VLAN ids and UDP ports as integers.
std::vector<uint64_t> read_vary_values(TableReader& in, VaryField field, const StreamSpec& stream) {
  const toml::node* node = in.find("values");
  const toml::array* array = node != nullptr ? node->as_array() : nullptr;
  if (array == nullptr || array->empty() || array->size() > kMaxVaryValues)
    in.fail(node, "values", fmt::format("expected a list of 1 to {} values", kMaxVaryValues));
  const bool mac = field == VaryField::kEthSrc || field == VaryField::kEthDst;
  const bool ip = field == VaryField::kIpSrc || field == VaryField::kIpDst;
  std::vector<uint64_t> out;
  for (const toml::node& item : *array) {
    if (!mac && !ip) {
      out.push_back(in.integer_of<uint16_t>(&item, "values", 0, field == VaryField::kVlanId ? 4095 : 65535));
      continue;
    }
    const std::optional<std::string_view> text = item.value<std::string_view>();
    if (!text) in.fail(&item, "values", fmt::format("expected addresses as strings, found {}", type_name(item)));
    if (mac) {
      const auto m = parse_mac(*text);
      if (!m) in.fail(&item, "values", fmt::format("'{}' is not a MAC address", *text));
      uint64_t value = 0;
      for (uint8_t b : *m) value = value << 8 | b;
      out.push_back(value);
    } else if (stream.ip_version == IpVersion::kV4) {
      const auto a = parse_ipv4(*text);
      if (!a) in.fail(&item, "values", fmt::format("'{}' is not an IPv4 address", *text));
      out.push_back(*a);
    } else {
      const auto a = parse_ipv6(*text);
      const Ipv6Addr& header = field == VaryField::kIpSrc ? stream.ipv6.src : stream.ipv6.dst;
      if (!a) in.fail(&item, "values", fmt::format("'{}' is not an IPv6 address", *text));
      if (!std::equal(a->begin(), a->begin() + 12, header.begin()))
        in.fail(&item, "values", fmt::format("'{}' differs from the header's address above its low 32 bits", *text));
      out.push_back(wire::load_be32(a->data() + 12));
    }
  }
  return out;
}

VarySpec read_vary(TableReader& in, const StreamSpec& stream) {
  VarySpec vary;
  const std::string field = in.required_string("field");
  const bool v4 = stream.ip_version == IpVersion::kV4;
  if (field == "eth.src") vary.field = VaryField::kEthSrc;
  else if (field == "eth.dst") vary.field = VaryField::kEthDst;
  else if (field == "vlan.id") vary.field = VaryField::kVlanId;
  else if (field == (v4 ? "ipv4.src" : "ipv6.src")) vary.field = VaryField::kIpSrc;
  else if (field == (v4 ? "ipv4.dst" : "ipv6.dst")) vary.field = VaryField::kIpDst;
  else if (field == (stream.tcp ? "tcp.src" : "udp.src")) vary.field = VaryField::kUdpSrc;
  else if (field == (stream.tcp ? "tcp.dst" : "udp.dst")) vary.field = VaryField::kUdpDst;
  else
    in.fail(in.find("field"), "field",
            fmt::format("'{}' cannot vary; use eth.src, eth.dst, vlan.id, {}.src, {}.dst, {}.src or {}.dst", field,
                        v4 ? "ipv4" : "ipv6", v4 ? "ipv4" : "ipv6", stream.tcp ? "tcp" : "udp",
                        stream.tcp ? "tcp" : "udp"));
  if (vary.field == VaryField::kVlanId && !stream.vlan)
    in.fail(in.find("field"), "field", "vlan.id varies but the stream has no vlan table");
  const std::string op = in.string("op").value_or(in.find("values") != nullptr ? "list" : "increment");
  if (op == "increment") vary.op = VaryOp::kIncrement;
  else if (op == "decrement") vary.op = VaryOp::kDecrement;
  else if (op == "random") vary.op = VaryOp::kRandom;
  else if (op == "list") vary.op = VaryOp::kList;
  else in.fail(in.find("op"), "op", fmt::format("'{}' is not increment, decrement, random or list", op));
  const bool narrow = vary.field == VaryField::kVlanId || vary.field == VaryField::kUdpSrc ||
                      vary.field == VaryField::kUdpDst;
  if (vary.op == VaryOp::kList) {
    for (const char* key : {"count", "step"})
      if (const toml::node* node = in.find(key)) in.fail(node, key, "a list of values has no count or step");
    vary.values = read_vary_values(in, vary.field, stream);
    vary.count = static_cast<uint32_t>(vary.values.size());
    in.finish();
    return vary;
  }
  if (const toml::node* node = in.find("values"))
    in.fail(node, "values", fmt::format("values are a list's (op = \"list\"), not {}'s", op));
  const int64_t max_count = vary.field == VaryField::kVlanId ? 4096 : narrow ? 65536 : (int64_t{1} << 32) - 1;
  vary.count = in.integer<uint32_t>("count", 1, max_count).value_or(1);
  vary.step = in.integer<uint32_t>("step", 1, narrow ? 65535 : (int64_t{1} << 31)).value_or(1);
  in.finish();
  return vary;
}

// kind = "pfc" | "pause": a MAC Control stream. Its frames are 64 bytes, untagged,
// without IP or UDP, so those headers' keys are refused; the MAC Control keys are
// refused on a UDP stream.
void read_mac_control(TableReader& in, StreamSpec& stream) {
  constexpr std::array<const char*, 6> kControlKeys{"priorities", "quanta", "class_enable", "reserved_bits", "opcode",
                                                    "refresh"};
  const auto kind = in.string("kind");
  if (!kind || *kind == "udp") {
    for (const char* key : kControlKeys)
      if (const toml::node* node = in.find(key))
        in.fail(node, key, "applies to MAC Control streams only (kind = \"pfc\" or \"pause\")");
    return;
  }
  if (*kind == "pfc") stream.kind = StreamKind::kPfc;
  else if (*kind == "pause") stream.kind = StreamKind::kPause;
  else in.fail(in.find("kind"), "kind", fmt::format("'{}' is not udp, pfc or pause", *kind));
  const bool pfc = stream.kind == StreamKind::kPfc;
  for (const char* key : {"vlan", "ipv4", "ipv6", "udp", "tcp", "vary", "roce"})
    if (const toml::node* node = in.find(key))
      in.fail(node, key, fmt::format("a {} stream sends MAC Control frames, which have no VLAN, IP or UDP header",
                                     *kind));
  if (const toml::node* node = in.find("frame_size"); node != nullptr && node->value<int64_t>() != 64)
    in.fail(node, "frame_size", "MAC Control frames are 64 bytes (leave frame_size out)");
  MacControlSpec& mc = stream.mac_control;
  // Priorities as a bit vector, from an array of distinct 0-7.
  const auto priority_bits = [&](const char* key) -> std::optional<uint8_t> {
    const toml::node* node = in.find(key);
    if (node == nullptr) return std::nullopt;
    const toml::array* array = node->as_array();
    if (array == nullptr) in.fail(node, key, "expected a list of priorities 0-7, e.g. [3, 4]");
    uint8_t bits = 0;
    for (const toml::node& item : *array) {
      const auto p = in.integer_of<uint8_t>(&item, key, 0, 7);
      if ((bits >> p) & 1) in.fail(&item, key, fmt::format("priority {} is listed twice", p));
      bits = static_cast<uint8_t>(bits | 1u << p);
    }
    return bits;
  };
  const toml::node* priorities = in.find("priorities");
  if (!pfc) {
    for (const char* key : {"priorities", "class_enable", "reserved_bits"})
      if (const toml::node* node = in.find(key))
        in.fail(node, key, "PAUSE (802.3x) pauses the whole link; this key is for kind = \"pfc\"");
  } else if (priorities == nullptr) {
    in.fail(nullptr, "priorities", "a PFC stream names the priorities it pauses, e.g. priorities = [3]");
  }
  const uint8_t paused = pfc ? *priority_bits("priorities") : 1;
  if (pfc && paused == 0) in.fail(priorities, "priorities", "the list is empty");
  uint16_t each = 65535;
  bool per_priority = false;
  if (const toml::node* node = in.find("quanta")) {
    if (node->is_integer()) {
      each = in.integer_of<uint16_t>(node, "quanta", 0, 65535);
    } else if (const toml::array* array = node->as_array(); array != nullptr && pfc) {
      if (array->size() != 8)
        in.fail(node, "quanta", fmt::format("a list of quanta has one per priority 0-7: 8 values, not {}", array->size()));
      for (size_t p = 0; p < 8; ++p) mc.quanta[p] = in.integer_of<uint16_t>(array->get(p), "quanta", 0, 65535);
      per_priority = true;
    } else {
      in.fail(node, "quanta", pfc ? "expected quanta 0-65535, or a list of 8 (one per priority)" : "expected quanta 0-65535");
    }
  }
  if (!per_priority)
    for (unsigned p = 0; p < 8; ++p)
      if ((paused >> p) & 1) mc.quanta[p] = each;
  mc.class_enable = pfc ? paused : 0;
  // Robustness cases: enable bits other than the priorities', the reserved high byte of
  // the vector set, another opcode than the kind's (a PFC layout sent as PAUSE, ...).
  if (auto bits = priority_bits("class_enable")) mc.class_enable = *bits;
  if (auto v = in.boolean("reserved_bits")) mc.reserved_bits = *v;
  if (auto v = in.integer<uint16_t>("opcode", 0, 65535)) mc.opcode = *v;
  if (auto refresh = in.string("refresh")) {
    if (*refresh != "auto")
      in.fail(in.find("refresh"), "refresh", fmt::format("'{}' is not auto (or give rate instead)", *refresh));
    if (const toml::node* rate = in.find("rate"))
      in.fail(rate, "rate", "give rate or refresh = \"auto\", not both");
    if (mc.max_quanta() == 0)
      in.fail(in.find("refresh"), "refresh", "every quanta is 0 (XON): there is no pause to hold; give a rate");
    mc.refresh_auto = true;
  }
}

// roce = { opcode, dest_qp, psn, pkey, ... }: the stream sends RoCEv2 packets, one
// whole message per frame, so every frame has the same size (the message's).
RoceSpec read_roce(TableReader& in) {
  RoceSpec roce;
  const wire::RoceOpcode* opcode = &wire::kRoceOpcodes[0];
  if (auto name = in.string("opcode")) {
    opcode = wire::find_roce_opcode(*name);
    if (opcode == nullptr) {
      std::string names;
      for (const wire::RoceOpcode& op : wire::kRoceOpcodes) names += (names.empty() ? "" : ", ") + std::string(op.name);
      in.fail(in.find("opcode"), "opcode", fmt::format("'{}' is not a single-packet opcode linerate sends ({})", *name, names));
    }
  }
  roce.opcode = opcode->code;
  constexpr int64_t k24Bits = 0xFFFFFF;
  if (auto v = in.integer<uint32_t>("dest_qp", 0, k24Bits)) roce.dest_qp = *v;
  if (auto v = in.integer<uint32_t>("psn", 0, k24Bits)) roce.psn = *v;
  if (auto v = in.integer<uint16_t>("pkey", 0, 0xFFFF)) roce.pkey = *v;
  const bool reth = opcode->extended_bytes == wire::kRethBytes;
  const bool deth = opcode->extended_bytes == wire::kDethBytes;
  for (const char* key : {"va", "rkey"})
    if (!reth && in.find(key) != nullptr)
      in.fail(in.find(key), key, fmt::format("belongs to the RETH of an RDMA WRITE; opcode '{}' has none", opcode->name));
  for (const char* key : {"qkey", "src_qp"})
    if (!deth && in.find(key) != nullptr)
      in.fail(in.find(key), key, fmt::format("belongs to the DETH of a UD opcode; opcode '{}' has none", opcode->name));
  if (auto v = in.integer<uint64_t>("va", 0, INT64_MAX)) roce.va = *v;
  if (auto v = in.integer<uint32_t>("rkey", 0, UINT32_MAX)) roce.rkey = *v;
  if (auto v = in.integer<uint32_t>("qkey", 0, UINT32_MAX)) roce.qkey = *v;
  if (auto v = in.integer<uint32_t>("src_qp", 0, k24Bits)) roce.src_qp = *v;
  in.finish();
  return roce;
}

// The TCP header's fields; flags as names ("syn", "ack", ...).
TcpSpec read_tcp(TableReader& in) {
  TcpSpec tcp;
  if (auto a = in.integer<uint16_t>("src", 0, 65535)) tcp.src = *a;
  if (auto a = in.integer<uint16_t>("dst", 0, 65535)) tcp.dst = *a;
  if (auto a = in.integer<uint32_t>("seq", 0, UINT32_MAX)) tcp.seq = *a;
  if (auto a = in.integer<uint32_t>("ack", 0, UINT32_MAX)) tcp.ack = *a;
  if (auto a = in.integer<uint16_t>("window", 0, 65535)) tcp.window = *a;
  if (const toml::node* node = in.find("flags")) {
    const toml::array* names = node->as_array();
    if (names == nullptr) in.fail(node, "flags", "expected a list of flags, e.g. [\"psh\", \"ack\"]");
    tcp.flags = 0;
    for (const toml::node& item : *names) {
      const auto name = item.value<std::string_view>();
      const auto* flag = name ? std::find(wire::kTcpFlagNames.begin(), wire::kTcpFlagNames.end(), *name)
                              : wire::kTcpFlagNames.end();
      if (flag == wire::kTcpFlagNames.end())
        in.fail(&item, "flags", fmt::format("{} is not a TCP flag ({})", name ? "'" + std::string(*name) + "'" : "this",
                                            fmt::join(wire::kTcpFlagNames, ", ")));
      tcp.flags = static_cast<uint8_t>(tcp.flags | 1u << (flag - wire::kTcpFlagNames.begin()));
    }
  }
  in.finish();
  return tcp;
}

// A RoCEv2 stream's UDP destination is 4791, and its frames are of one size whose
// payload is whole 4-byte words (the BTH's pad count is 0).
void check_roce_frames(TableReader& in, StreamSpec& stream, const toml::table* udp) {
  if (udp != nullptr)
    if (const toml::node* dst = udp->get("dst"); dst != nullptr && dst->value<int64_t>() != wire::kRoceV2Port)
      in.fail(in.find("udp"), "udp.dst", "a RoCEv2 stream goes to UDP port 4791 (leave udp.dst out)");
  stream.udp.dst = wire::kRoceV2Port;
  const toml::node* size = in.find("frame_size");
  if (size == nullptr) {
    stream.frame.sizes = {min_frame_bytes(stream)};  // the smallest RoCEv2 frame this stream can send
    return;
  }
  if (stream.frame.kind != FrameSizeKind::kFixed)
    in.fail(size, "frame_size", "a RoCEv2 stream sends one message size: give one frame size");
  // Below its smallest frame: refused with the other streams' sizes, in validate.
  if (const std::string problem = roce_frame_size_problem(stream, stream.frame.sizes.front()); !problem.empty())
    in.fail(size, "frame_size", problem);
}

// count, duration, start_after, burst, lanes, catch_up, late: how much and when.
void read_stream_timing(TableReader& in, StreamSpec& stream) {
  if (auto v = in.integer<uint64_t>("count", 1, INT64_MAX)) stream.count = *v;
  if (auto v = in.parsed<uint64_t>("duration", parse_duration_ns, kDurationHelp)) {
    if (*v == 0) in.fail(in.find("duration"), "duration", "must be above zero (leave it out to run until stopped)");
    stream.duration_ns = *v;
  }
  if (stream.count != 0 && stream.duration_ns != 0)
    in.fail(in.find("duration"), "duration", "give count or duration, not both");
  if (auto v = in.parsed<uint64_t>("start_after", parse_duration_ns, kDurationHelp)) {
    // An unpaced lane sends whenever its queue has room: only a pacer holds it back.
    if (stream.rate.kind == RateKind::kMax)
      in.fail(in.find("start_after"), "start_after", "a stream at rate 'max' starts with the run: give it a rate");
    stream.start_after_ns = *v;
  }
  if (const toml::table* burst = in.subtable("burst")) {
    TableReader b(*burst, in.prefix() + "burst.", in.file());
    BurstSpec cfg;
    cfg.packets = b.integer<uint32_t>("packets", 1, 1 << 24).value_or(0);
    cfg.interval_ns = b.parsed<uint64_t>("interval", parse_duration_ns, kDurationHelp).value_or(0);
    if (cfg.packets == 0 || cfg.interval_ns == 0) b.fail(nullptr, "", "a burst needs packets and interval");
    b.finish();
    stream.burst = cfg;
  }
  if (auto v = in.integer<uint16_t>("lanes", 1, 64)) stream.lanes = *v;
  if (auto v = in.boolean("catch_up")) stream.catch_up = *v;
  if (auto v = in.parsed<uint64_t>("late", parse_duration_ns, kDurationHelp)) stream.late_ns = *v;
  if (auto v = in.boolean("receive_only")) stream.receive_only = *v;
  // Two clocks' offsets from UTC apart: any difference of two int64 nanosecond counts within a century.
  if (auto v = in.integer<int64_t>("latency_shift_ns", -(int64_t{1} << 62), int64_t{1} << 62))
    stream.latency_shift_ns = *v;
}

// eth.src or eth.dst = "auto": the emulated host's MAC, or its next hop's (checked against
// the [[device]] hosts once the profile is whole: stream_hosts.hpp). A MAC Control frame
// comes from the port itself, not from a host, so it takes none.
bool read_auto_mac(TableReader& e, const char* key, const StreamSpec& stream) {
  const toml::node* node = e.find(key);
  if (node == nullptr || node->value<std::string_view>() != "auto") return false;
  if (stream.kind != StreamKind::kUdp)
    e.fail(node, key,
           fmt::format("'auto' is an emulated host's MAC (a [[device]]), for IP streams; a {} stream's MAC Control "
                       "frames come from the port: give a MAC address",
                       stream.kind == StreamKind::kPfc ? "pfc" : "pause"));
  return true;
}

// eth = { src, dst } (a MAC Control stream goes to 01:80:c2:00:00:01 unless it says), vlan = { id, pcp }.
void read_eth_and_vlan(TableReader& in, StreamSpec& stream) {
  if (const toml::table* eth = in.subtable("eth")) {
    TableReader e(*eth, in.prefix() + "eth.", in.file());
    const char* mac_help = stream.kind == StreamKind::kUdp
                               ? "a MAC address: write e.g. '02:00:00:00:00:01', or 'auto' (an emulated host's)"
                               : "a MAC address: write e.g. '02:00:00:00:00:01'";
    stream.eth_src_auto = read_auto_mac(e, "src", stream);
    stream.eth_dst_auto = read_auto_mac(e, "dst", stream);
    if (!stream.eth_src_auto)
      if (auto v = e.parsed<MacAddr>("src", parse_mac, mac_help)) stream.eth_src = *v;
    if (!stream.eth_dst_auto) {
      if (auto v = e.parsed<MacAddr>("dst", parse_mac, mac_help)) stream.eth_dst = *v;
      else if (stream.kind != StreamKind::kUdp) stream.eth_dst = wire::kMacControlDst;
    }
    e.finish();
  } else if (stream.kind != StreamKind::kUdp) {
    stream.eth_dst = wire::kMacControlDst;
  }
  if (const toml::table* vlan = in.subtable("vlan")) {
    TableReader v(*vlan, in.prefix() + "vlan.", in.file());
    VlanSpec cfg;
    cfg.id = v.integer<uint16_t>("id", 0, 4095).value_or(0);
    cfg.pcp = v.integer<uint8_t>("pcp", 0, 7).value_or(0);
    v.finish();
    stream.vlan = cfg;
  }
}

// The keys both IP versions have: addresses, DSCP, ECN and the hop count (ttl / hop_limit).
template <class Ip, class Parse>
void read_ip_keys(TableReader& v, Ip& ip, Parse parse, const char* address, const char* hops_key, uint8_t& hops) {
  using Addr = std::remove_cvref_t<decltype(ip.src)>;
  if (auto a = v.template parsed<Addr>("src", parse, address)) ip.src = *a;
  if (auto a = v.template parsed<Addr>("dst", parse, address)) ip.dst = *a;
  if (auto a = v.integer<uint8_t>("dscp", 0, 63)) ip.dscp = *a;
  if (auto a = v.integer<uint8_t>("ecn", 0, 3)) ip.ecn = *a;
  if (auto a = v.integer<uint8_t>(hops_key, 1, 255)) hops = *a;
}

// ipv4 = { ... } or ipv6 = { ... }, not both.
void read_ip_header(TableReader& in, StreamSpec& stream) {
  const toml::table* ipv4 = in.subtable("ipv4");
  const toml::table* ipv6 = in.subtable("ipv6");
  if (ipv4 != nullptr && ipv6 != nullptr) in.fail(in.find("ipv6"), "ipv6", "a stream is IPv4 or IPv6, not both");
  if (ipv4 != nullptr) {
    TableReader v(*ipv4, in.prefix() + "ipv4.", in.file());
    read_ip_keys(v, stream.ipv4, parse_ipv4, "an IPv4 address", "ttl", stream.ipv4.ttl);
    v.finish();
  }
  if (ipv6 != nullptr) {
    stream.ip_version = IpVersion::kV6;
    TableReader v(*ipv6, in.prefix() + "ipv6.", in.file());
    read_ip_keys(v, stream.ipv6, parse_ipv6, "an IPv6 address", "hop_limit", stream.ipv6.hop_limit);
    if (auto a = v.integer<uint32_t>("flow_label", 0, 0xFFFFF)) stream.ipv6.flow_label = *a;
    v.finish();
  }
}

// udp = { ... }, tcp = { ... } (not both) and roce = { ... } (over UDP).
void read_l4_header(TableReader& in, StreamSpec& stream) {
  const toml::table* udp = in.subtable("udp");
  if (udp != nullptr) {
    TableReader u(*udp, in.prefix() + "udp.", in.file());
    if (auto a = u.integer<uint16_t>("src", 0, 65535)) stream.udp.src = *a;
    if (auto a = u.integer<uint16_t>("dst", 0, 65535)) stream.udp.dst = *a;
    u.finish();
  }
  if (const toml::table* tcp = in.subtable("tcp")) {
    if (udp != nullptr) in.fail(in.find("tcp"), "tcp", "a stream's L4 header is TCP or UDP: give tcp or udp, not both");
    if (in.find("roce") != nullptr) in.fail(in.find("tcp"), "tcp", "RoCEv2 rides on UDP (leave tcp out)");
    TableReader t(*tcp, in.prefix() + "tcp.", in.file());
    stream.tcp = read_tcp(t);
  }
  if (const toml::table* roce = in.subtable("roce")) {
    TableReader r(*roce, in.prefix() + "roce.", in.file());
    stream.roce = read_roce(r);
    check_roce_frames(in, stream, udp);
  }
}

// vary = [{ field, ... }, ...]: one entry per field.
void read_vary_list(TableReader& in, StreamSpec& stream) {
  const toml::node* node = in.find("vary");
  if (node == nullptr) return;
  const toml::array* array = node->as_array();
  if (array == nullptr) in.fail(node, "vary", "expected an array of tables, e.g. vary = [{ field = \"udp.src\", count = 100 }]");
  for (const toml::node& item : *array) {
    if (!item.is_table()) in.fail(&item, "vary", "each entry must be a table");
    TableReader v(*item.as_table(), in.prefix() + "vary.", in.file());
    const VarySpec vary = read_vary(v, stream);
    // A MAC the data plane fills in at each start has no base value to vary from.
    const bool src = vary.field == VaryField::kEthSrc;
    if ((src && stream.eth_src_auto) || (vary.field == VaryField::kEthDst && stream.eth_dst_auto))
      v.fail(v.find("field"), "field",
             fmt::format("{0} is 'auto' (the {1}), which cannot vary: give {0} a MAC address to vary it",
                         src ? "eth.src" : "eth.dst",
                         src ? "emulated host's MAC" : "MAC the host's next hop resolved to"));
    // One entry per field: a second would overwrite the first's bytes in every frame.
    for (const VarySpec& earlier : stream.vary)
      if (earlier.field == vary.field)
        v.fail(v.find("field"), "field", "this field already varies in an earlier entry of this stream");
    stream.vary.push_back(vary);
  }
}

}  // namespace

StreamSpec read_stream(TableReader& in) {
  StreamSpec stream;
  stream.loc = loc_of(in.table());
  stream.name = in.required_string("name");
  stream.tx_port = in.required_string("tx_port");
  stream.rx_port = in.string("rx_port");
  if (auto text = in.string("rate")) {
    const auto rate = parse_rate(*text);
    if (!rate) in.fail(in.find("rate"), "rate", rate_refusal(*text));
    stream.rate = *rate;
  }
  read_mac_control(in, stream);
  if (stream.kind == StreamKind::kUdp) read_frame_size(in, stream);
  read_stream_timing(in, stream);
  read_eth_and_vlan(in, stream);
  read_ip_header(in, stream);
  read_l4_header(in, stream);
  read_vary_list(in, stream);
  if (stream.receive_only && !stream.rx_port)
    in.fail(in.find("receive_only"), "receive_only", "a stream this data plane only receives needs its rx_port");
  if (stream.latency_shift_ns && !stream.receive_only)
    in.fail(in.find("latency_shift_ns"), "latency_shift_ns",
            "only a stream this data plane only receives (receive_only) is stamped by another clock");
  if (stream.receive_only && (stream.eth_src_auto || stream.eth_dst_auto))
    in.fail(in.find("receive_only"), "receive_only",
            "a stream this data plane only receives resolves no addresses: give eth.src and eth.dst, not \"auto\"");
  stream.key_locs = in.key_locs();
  in.finish();
  return stream;
}

}  // namespace lr::profile
