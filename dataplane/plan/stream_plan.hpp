#pragma once
// The immutable per-stream TX plan that plan_builder makes from a StreamCfg and the
// worker lcores read: template bytes, header offsets, per-frame-size checksum bases
// and field variations. Nothing here is parsed or converted on an lcore.

#include <cstdint>
#include <vector>

#include "dataplane/profile/profile.hpp"

namespace lr::plan {

/// One frame size of a stream, with its checksum bases. The bases are ones'-complement
/// sums (unfolded) of the IPv4 header and of the UDP pseudo-header + header + payload,
/// computed with the checksum fields, the varying fields and the signature all zero
/// and the payload zero, so per frame only the varying words and the signature are added.
struct SizeEntry {
  uint16_t data_len = 0;    ///< frame bytes without FCS
  uint16_t ip_len = 0;      ///< IPv4 total length, or IPv6 payload length
  uint16_t udp_len = 0;
  uint32_t ip_base_sum = 0;
  uint32_t udp_base_sum = 0;
  uint32_t phdr_base_sum = 0;  ///< UDP pseudo-header alone, for hardware checksum offload
};

/// One varying header field.
struct VaryPlan {
  profile::VaryField field = profile::VaryField::kIpSrc;
  profile::VaryOp op = profile::VaryOp::kIncrement;
  uint8_t width = 2;          ///< bytes written: 2 (ports, VLAN TCI), 4 (IPv4 / low IPv6 word), 6 (MAC)
  bool in_ip_csum = false;    ///< IPv4 address: also in the IPv4 header checksum
  bool in_udp_csum = false;   ///< addresses (pseudo-header) and ports
  bool in_phdr = false;       ///< addresses: in the UDP pseudo-header
  uint16_t offset = 0;        ///< from the frame start
  uint32_t count = 1;
  uint32_t step = 1;
  uint64_t base = 0;          ///< value in the template; for VLAN the 12-bit id
  uint16_t fixed_bits = 0;    ///< VLAN: PCP/DEI bits kept in the TCI
};

struct TxStreamPlan {
  uint16_t stream_id = 0;
  uint16_t n_lanes = 1;
  bool ipv6 = false;
  bool multi_size = false;     ///< lengths and checksum bases change per frame
  bool hw_checksum = false;    ///< the port computes IPv4 and UDP checksums (TX offload)
  uint16_t l3_offset = 14;
  uint16_t l4_offset = 34;
  uint16_t header_bytes = 42;
  std::vector<uint8_t> template_bytes;  ///< largest frame, without FCS
  std::vector<SizeEntry> sizes;         ///< kFixed: 1, kImix: one per size, kRange: max-min+1
  std::vector<uint16_t> size_schedule;  ///< index into sizes, cycled by sequence (IMIX weights)
  profile::RangeOrder range_order = profile::RangeOrder::kIncrement;
  std::vector<VaryPlan> vary;
};

}  // namespace lr::plan
