#include "lib/frames/stream_builder.hpp"

#include <fmt/format.h>

#include <cstring>
#include <numeric>

#include "lib/common/check.hpp"
#include "lib/common/line_rate.hpp"
#include "lib/wire/checksum.hpp"
#include "lib/wire/mac_control.hpp"
#include "lib/wire/roce.hpp"
#include "lib/wire/signature.hpp"

namespace lr::plan {

using wire::SizeEntry;
using wire::store_be16;
using wire::store_be32;
using wire::TxStreamPlan;
using wire::VaryPlan;

namespace {

constexpr uint8_t kIpProtoUdp = 17;
constexpr uint8_t kIpProtoTcp = 6;
constexpr uint16_t kTcpHeaderBytes = 20;

uint8_t ip_protocol(const api::StreamSpec& s) { return s.tcp ? kIpProtoTcp : kIpProtoUdp; }

// The L4 source and destination ports: the TCP header's or the UDP header's.
std::pair<uint16_t, uint16_t> l4_ports(const api::StreamSpec& s) {
  return s.tcp ? std::pair{s.tcp->src, s.tcp->dst} : std::pair{s.udp.src, s.udp.dst};
}

uint64_t mac_value(const api::MacAddr& mac) {
  uint64_t v = 0;
  for (uint8_t byte : mac) v = v << 8 | byte;
  return v;
}

// Header bytes for the largest frame; lengths are filled per size entry.
void write_headers(const api::StreamSpec& s, TxStreamPlan& plan) {
  uint8_t* f = plan.template_bytes.data();
  std::memcpy(f, s.eth_dst.data(), 6);
  std::memcpy(f + 6, s.eth_src.data(), 6);
  uint16_t off = 12;
  if (s.vlan) {
    store_be16(f + off, 0x8100);
    store_be16(f + off + 2, static_cast<uint16_t>(s.vlan->pcp << 13 | s.vlan->id));
    off += 4;
  }
  const uint16_t l3 = static_cast<uint16_t>(off + 2);
  if (!plan.ipv6) {
    store_be16(f + off, 0x0800);
    uint8_t* ip = f + l3;
    ip[0] = 0x45;
    ip[1] = static_cast<uint8_t>(s.ipv4.dscp << 2 | s.ipv4.ecn);
    store_be16(ip + 4, 0);         // identification
    store_be16(ip + 6, 0x4000);    // DF: benchmark frames must never be fragmented
    ip[8] = s.ipv4.ttl;
    ip[9] = ip_protocol(s);
    store_be32(ip + 12, s.ipv4.src);
    store_be32(ip + 16, s.ipv4.dst);
  } else {
    store_be16(f + off, 0x86DD);
    uint8_t* ip = f + l3;
    const uint32_t tclass = static_cast<uint32_t>(s.ipv6.dscp << 2 | s.ipv6.ecn);
    store_be32(ip, 6u << 28 | tclass << 20 | s.ipv6.flow_label);
    ip[6] = ip_protocol(s);
    ip[7] = s.ipv6.hop_limit;
    std::memcpy(ip + 8, s.ipv6.src.data(), 16);
    std::memcpy(ip + 24, s.ipv6.dst.data(), 16);
  }
  uint8_t* l4 = f + plan.l4_offset;
  store_be16(l4, l4_ports(s).first);
  store_be16(l4 + 2, l4_ports(s).second);
  if (s.tcp) {
    store_be32(l4 + 4, s.tcp->seq);
    store_be32(l4 + 8, s.tcp->ack);
    l4[12] = (kTcpHeaderBytes / 4) << 4;  // data offset: no options
    l4[13] = s.tcp->flags;
    store_be16(l4 + 14, s.tcp->window);
  }
}

// RoCEv2 after the UDP header: the BTH and the opcode's RETH or DETH. The PSN, the ICRC
// and, over IPv6, the UDP checksum are per frame; over IPv4 the UDP checksum is 0, as
// RoCE NICs send it (the ICRC covers the packet; IPv6 forbids a zero UDP checksum). The
// RETH's DMA length is the payload, signature included.
void write_roce_headers(const api::StreamSpec& s, const api::RoceSpec& roce, TxStreamPlan& plan) {
  uint8_t* bth = plan.template_bytes.data() + plan.l4_offset + 8;
  bth[0] = roce.opcode;
  bth[1] = 0;  // SE, M, pad count 0 (the payload is whole words), transport version 0
  store_be16(bth + 2, roce.pkey);
  store_be32(bth + 4, roce.dest_qp);  // the reserved byte 0, then the 24-bit QP
  store_be32(bth + 8, roce.psn);      // AckReq 0, then the 24-bit PSN
  uint8_t* ext = bth + wire::kBthBytes;
  const uint16_t payload = profile::roce_payload_bytes(s, s.frame.sizes.front());
  if (roce.extended_bytes() == wire::kRethBytes) {
    store_be32(ext, static_cast<uint32_t>(roce.va >> 32));
    store_be32(ext + 4, static_cast<uint32_t>(roce.va));
    store_be32(ext + 8, roce.rkey);
    store_be32(ext + 12, payload);
  } else if (roce.extended_bytes() == wire::kDethBytes) {
    store_be32(ext, roce.qkey);
    store_be32(ext + 4, roce.src_qp);  // the reserved byte 0, then the 24-bit QP
  }
  plan.roce = true;
  plan.roce_headers_end = static_cast<uint16_t>(plan.l4_offset + 8 + wire::kBthBytes + roce.extended_bytes());
  plan.roce_first_psn = roce.psn;
  plan.header_bytes = plan.roce_headers_end;
  plan.icrc_zero_skip.resize(1024);
  const uint16_t data_len = static_cast<uint16_t>(s.frame.sizes.front() - kFcsBytes);
  const auto zeros = static_cast<uint32_t>(data_len - wire::kIcrcBytes - wire::kSignatureBytes - plan.roce_headers_end);
  wire::crc32_zero_skip_table(zeros, plan.icrc_zero_skip.data());
  plan.icrc_mask.resize(plan.roce_headers_end - plan.l3_offset);
  wire::roce_icrc_mask({plan.l3_offset, plan.roce_headers_end, data_len, wire::kSignatureBytes, plan.ipv6},
                       plan.icrc_mask.data());
}

VaryPlan make_vary(const api::VarySpec& cfg, const api::StreamSpec& s, const TxStreamPlan& plan) {
  using api::VaryField;
  VaryPlan v;
  switch (cfg.op) {
    case api::VaryOp::kIncrement: v.order = wire::IndexOrder::kUp; break;
    case api::VaryOp::kDecrement: v.order = wire::IndexOrder::kDown; break;
    case api::VaryOp::kRandom: v.order = wire::IndexOrder::kHashed; break;
    case api::VaryOp::kList: v.order = wire::IndexOrder::kListed; break;
  }
  v.count = cfg.count;
  v.step = cfg.step;
  const uint16_t l3 = plan.l3_offset;
  const uint16_t l4 = plan.l4_offset;
  switch (cfg.field) {
    case VaryField::kEthDst:
      v.width = 6, v.offset = 0, v.base = mac_value(s.eth_dst);
      break;
    case VaryField::kEthSrc:
      v.width = 6, v.offset = 6, v.base = mac_value(s.eth_src);
      break;
    case VaryField::kVlanId:
      LR_CHECK(s.vlan);  // the profile refuses a VLAN vary without a VLAN
      v.width = 2, v.offset = 14, v.base = s.vlan->id;
      v.value_mask = 0x0FFF;
      v.fixed_bits = static_cast<uint16_t>(s.vlan->pcp << 13);
      break;
    case VaryField::kIpSrc:
    case VaryField::kIpDst: {
      const bool src = cfg.field == VaryField::kIpSrc;
      v.width = 4;
      v.in_udp_csum = true;
      v.in_phdr = true;
      if (!plan.ipv6) {
        v.in_ip_csum = true;
        v.offset = static_cast<uint16_t>(l3 + (src ? 12 : 16));
        v.base = src ? s.ipv4.src : s.ipv4.dst;
      } else {
        // The low 32 bits of the address vary; the rest stays in the template.
        v.offset = static_cast<uint16_t>(l3 + (src ? 8 : 24) + 12);
        const auto& addr = src ? s.ipv6.src : s.ipv6.dst;
        v.base = wire::load_be32(addr.data() + 12);
      }
      break;
    }
    case VaryField::kUdpSrc:
    case VaryField::kUdpDst:
      v.width = 2, v.in_udp_csum = true;
      v.offset = static_cast<uint16_t>(l4 + (cfg.field == VaryField::kUdpSrc ? 0 : 2));
      v.base = cfg.field == VaryField::kUdpSrc ? l4_ports(s).first : l4_ports(s).second;
      break;
  }
  return v;
}

SizeEntry make_size_entry(const TxStreamPlan& plan, uint16_t frame_bytes) {
  SizeEntry e;
  e.data_len = static_cast<uint16_t>(frame_bytes - kFcsBytes);
  e.udp_len = static_cast<uint16_t>(e.data_len - plan.l4_offset);
  e.ip_len = plan.ipv6 ? e.udp_len : static_cast<uint16_t>(e.data_len - plan.l3_offset);

  // Bases over a copy of the headers with lengths set and checksums, varying fields
  // and the signature zero; the payload is zero and adds nothing.
  std::vector<uint8_t> h(plan.template_bytes.begin(), plan.template_bytes.begin() + plan.header_bytes);
  const uint16_t l3 = plan.l3_offset;
  const uint16_t l4 = plan.l4_offset;
  const uint8_t proto = plan.tcp ? kIpProtoTcp : kIpProtoUdp;  // the L4 length is the pseudo-header's either way
  store_be16(h.data() + l3 + (plan.ipv6 ? 4 : 2), e.ip_len);
  e.l4_word = plan.tcp ? wire::load_be16(plan.template_bytes.data() + l4 + 4) : e.udp_len;
  store_be16(h.data() + l4 + 4, e.l4_word);
  if (!plan.ipv6) store_be16(h.data() + l3 + 10, 0);
  store_be16(h.data() + l4 + plan.l4_csum_offset, 0);
  for (const VaryPlan& v : plan.vary) std::memset(h.data() + v.offset, 0, v.width);

  if (!plan.ipv6) {
    e.ip_base_sum = wire::csum_partial(h.data() + l3, 20);
    // Pseudo-header: source, destination, zero + protocol, UDP length.
    e.phdr_base_sum = wire::csum_partial(h.data() + l3 + 12, 8) + proto + e.udp_len;
  } else {
    e.phdr_base_sum = wire::csum_partial(h.data() + l3 + 8, 32) + proto + e.udp_len;
  }
  e.udp_base_sum = e.phdr_base_sum;
  e.udp_base_sum += wire::csum_partial(h.data() + l4, plan.tcp ? kTcpHeaderBytes : 8);
  if (plan.roce) {  // the BTH and its extended header, but for the PSN (per frame)
    std::memset(h.data() + l4 + 8 + wire::kBthPsnOffset, 0, 3);
    e.udp_base_sum += wire::csum_partial(h.data() + l4 + 8, plan.roce_headers_end - l4 - 8u);
  }
  return e;
}

// A MAC Control frame (IEEE 802.3 Annex 31B / 802.1Qbb): destination, source,
// EtherType 0x8808, opcode, then PFC's class-enable vector and eight quanta or PAUSE's
// one quanta, zero-padded to 60 bytes; the signature goes in the padding's last 14 bytes,
// which a receiver of MAC Control frames ignores.
void fill_mac_control_plan(const api::StreamSpec& s, TxStreamPlan& plan) {
  const api::MacControlSpec& mc = s.mac_control;
  const bool pfc = s.kind == api::StreamKind::kPfc;
  plan.mac_control = true;
  plan.header_bytes = profile::header_bytes(s);
  plan.template_bytes.assign(kMinFrameBytes - kFcsBytes, 0);
  uint8_t* f = plan.template_bytes.data();
  std::memcpy(f, s.eth_dst.data(), 6);
  std::memcpy(f + 6, s.eth_src.data(), 6);
  store_be16(f + 12, wire::kMacControlEtherType);
  store_be16(f + 14, mc.opcode != 0 ? mc.opcode : pfc ? wire::kOpcodePfc : wire::kOpcodePause);
  if (pfc) {
    store_be16(f + 16, static_cast<uint16_t>((mc.reserved_bits ? 0xFF00 : 0) | mc.class_enable));
    for (unsigned p = 0; p < 8; ++p) store_be16(f + 18 + 2 * p, mc.quanta[p]);
  } else {
    store_be16(f + 16, mc.quanta[0]);
  }
  SizeEntry size;
  size.data_len = static_cast<uint16_t>(plan.template_bytes.size());
  plan.sizes.push_back(size);
}

}  // namespace

std::vector<uint16_t> imix_schedule(const std::vector<uint32_t>& weights) {
  // Reduce by the common divisor so 70:40:10 cycles as 7:4:1.
  uint32_t divisor = 0;
  for (uint32_t w : weights) divisor = std::gcd(divisor, w);
  std::vector<int64_t> reduced;
  int64_t total = 0;
  for (uint32_t w : weights) {
    reduced.push_back(w / divisor);
    total += w / divisor;
  }
  std::vector<int64_t> current(weights.size(), 0);
  std::vector<uint16_t> order;
  order.reserve(static_cast<size_t>(total));
  for (int64_t slot = 0; slot < total; ++slot) {
    size_t best = 0;
    for (size_t i = 0; i < reduced.size(); ++i) {
      current[i] += reduced[i];
      if (current[i] > current[best]) best = i;
    }
    current[best] -= total;
    order.push_back(static_cast<uint16_t>(best));
  }
  return order;
}

wire::TxStreamPlan build_stream_plan(const api::StreamSpec& s, uint16_t stream_id) {
  TxStreamPlan plan;
  plan.stream_id = stream_id;
  plan.n_lanes = s.lanes;
  if (s.kind != api::StreamKind::kUdp) {
    // Filled in place: TxStreamPlan declares its copies and so has no move constructor, and
    // a by-value parameter (std::move'd in) was copied twice.
    fill_mac_control_plan(s, plan);
    return plan;
  }
  plan.ipv6 = s.ip_version == api::IpVersion::kV6;
  plan.l3_offset = s.vlan ? 18 : 14;
  plan.l4_offset = static_cast<uint16_t>(plan.l3_offset + (plan.ipv6 ? 40 : 20));
  plan.tcp = s.tcp.has_value();
  plan.l4_csum_offset = plan.tcp ? 16 : 6;
  plan.header_bytes = static_cast<uint16_t>(plan.l4_offset + (plan.tcp ? kTcpHeaderBytes : 8));
  plan.template_bytes.assign(s.frame.largest() - kFcsBytes, 0);
  write_headers(s, plan);
  if (s.roce) write_roce_headers(s, *s.roce, plan);  // one frame size (the profile checks)
  for (const api::VarySpec& cfg : s.vary) {
    plan.vary.push_back(make_vary(cfg, s, plan));
    if (cfg.op != api::VaryOp::kList) continue;
    plan.vary.back().values_at = static_cast<uint32_t>(plan.vary_values.size());
    plan.vary.back().count = static_cast<uint32_t>(cfg.values.size());
    plan.vary_values.insert(plan.vary_values.end(), cfg.values.begin(), cfg.values.end());
  }

  switch (s.frame.kind) {
    case api::FrameSizeKind::kFixed:
      plan.sizes.push_back(make_size_entry(plan, s.frame.sizes.front()));
      break;
    case api::FrameSizeKind::kImix:
      for (uint16_t size : s.frame.sizes) plan.sizes.push_back(make_size_entry(plan, size));
      for (uint16_t index : imix_schedule(s.frame.weights)) plan.size_schedule.push_back(index);
      break;
    case api::FrameSizeKind::kRange:
      for (uint32_t size = s.frame.min; size <= s.frame.max; ++size)
        plan.sizes.push_back(make_size_entry(plan, static_cast<uint16_t>(size)));
      if (s.frame.order == api::RangeOrder::kRandom) {
        plan.random_size = true;
      } else {
        plan.size_schedule.resize(plan.sizes.size());
        std::iota(plan.size_schedule.begin(), plan.size_schedule.end(), uint16_t{0});
      }
      break;
  }
  plan.multi_size = plan.sizes.size() > 1;

  // The template carries the largest size's lengths; a fixed-size stream never
  // rewrites them.
  SizeEntry biggest = plan.sizes.front();
  for (const SizeEntry& e : plan.sizes)
    if (e.data_len > biggest.data_len) biggest = e;
  store_be16(plan.template_bytes.data() + plan.l3_offset + (plan.ipv6 ? 4 : 2), biggest.ip_len);
  store_be16(plan.template_bytes.data() + plan.l4_offset + 4, biggest.l4_word);
  return plan;
}

std::string describe_roce(const api::RoceSpec& roce) {
  const wire::RoceOpcode* op = wire::find_roce_opcode(roce.opcode);
  const std::string_view opcode = op != nullptr ? op->name : "?";
  std::string text = fmt::format("{} to QP {}, P_Key {:#06x}, PSN from {}", opcode, roce.dest_qp, roce.pkey, roce.psn);
  if (roce.extended_bytes() == wire::kRethBytes) text += fmt::format(", R_Key {:#x} at {:#x}", roce.rkey, roce.va);
  if (roce.extended_bytes() == wire::kDethBytes) text += fmt::format(", Q_Key {:#x} from QP {}", roce.qkey, roce.src_qp);
  return text;
}

std::string roce_port_warning(const api::StreamSpec& stream) {
  if (stream.kind != api::StreamKind::kUdp || stream.roce) return "";
  const char* which = stream.udp.dst == wire::kRoceV2Port   ? "destination"
                      : stream.udp.src == wire::kRoceV2Port ? "source"
                                                            : nullptr;
  if (which == nullptr) return "";
  return fmt::format("stream '{}' uses UDP {} port 4791 (RoCEv2) without an InfiniBand BTH: Wireshark and RoCE-aware "
                     "devices will read its frames as malformed RoCEv2; give the stream a roce table to send RoCEv2 "
                     "(BTH and ICRC), or another port",
                     stream.name, which);
}

}  // namespace lr::plan
