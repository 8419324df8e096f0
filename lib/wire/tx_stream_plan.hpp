#pragma once
// The immutable per-stream TX plan that the plan builder makes from a profile stream and
// the worker lcores read: template bytes, header offsets, per-frame-size checksum bases
// and varying fields, in the words of the wire (offsets, widths, masks), not of the
// profile. Nothing here is parsed or converted on an lcore. This folder (wire/) is the
// bottom layer: it includes nothing else of linerate.

#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <vector>

namespace lr::wire {

/// Varying fields per stream at most: each of the seven fields a profile can vary
/// (eth.src/dst, vlan.id, ip src/dst, udp src/dst) once. The TX lane keeps one cursor
/// per field in a fixed array that shares a cache line with the lane's other state.
inline constexpr uint32_t kMaxVaryFields = 7;

/// One frame size of a stream, with its checksum bases. The bases are ones'-complement
/// sums (unfolded) of the IPv4 header and of the UDP pseudo-header + header + payload,
/// computed with the checksum fields, the varying fields and the signature all zero
/// and the payload zero, so per frame only the varying words and the signature are added.
struct SizeEntry {
  uint16_t data_len = 0;    ///< frame bytes without FCS
  uint16_t ip_len = 0;      ///< IPv4 total length, or IPv6 payload length
  uint16_t udp_len = 0;     ///< the L4 header and payload (UDP's length; a TCP segment's in the pseudo-header)
  /// The 16 bits at l4_offset + 4, rewritten per frame when sizes change: UDP's length, or
  /// (TCP has no length field) the high half of the segment's fixed sequence number.
  uint16_t l4_word = 0;
  uint32_t ip_base_sum = 0;
  uint32_t udp_base_sum = 0;
  uint32_t phdr_base_sum = 0;  ///< UDP pseudo-header alone, for hardware checksum offload
};

/// How a field's value index k in [0, count) follows the lane's frame sequence.
enum class IndexOrder : uint8_t {
  kUp,      ///< k = seq mod count; value base + k * step
  kDown,    ///< k = seq mod count; value base - k * step
  kHashed,  ///< k from a hash of (seq, lane, field): the same frame always gets the same k
  kListed,  ///< k = seq mod count; value vary_values[values_at + k]
};

/// One varying header field.
struct VaryPlan {
  IndexOrder order = IndexOrder::kUp;
  uint8_t width = 2;          ///< bytes written: 2 (ports, VLAN TCI), 4 (IPv4 / low IPv6 word), 6 (MAC)
  bool in_ip_csum = false;    ///< IPv4 address: also in the IPv4 header checksum
  bool in_udp_csum = false;   ///< addresses (pseudo-header) and ports
  bool in_phdr = false;       ///< addresses: in the UDP pseudo-header
  uint16_t offset = 0;        ///< from the frame start
  uint16_t value_mask = 0xFFFF;  ///< 2-byte fields: bits the value owns (VLAN: the 12-bit id)
  uint16_t fixed_bits = 0;    ///< 2-byte fields: bits kept from the template (VLAN: PCP/DEI)
  uint32_t count = 1;
  uint32_t step = 1;
  uint64_t base = 0;          ///< value in the template; for VLAN the 12-bit id
  uint32_t values_at = 0;     ///< kListed: where its values start in the plan's vary_values
};

/// The arrays are std::pmr vectors so that the data plane can copy a plan into memory on
/// the NUMA node of the lcores that read it (a plan constructed with an allocator, then
/// assigned: polymorphic allocators stay with their container on assignment).
struct TxStreamPlan {
  using allocator_type = std::pmr::polymorphic_allocator<std::byte>;
  TxStreamPlan() = default;
  explicit TxStreamPlan(allocator_type memory)
      : template_bytes(memory), sizes(memory), size_schedule(memory), vary(memory), icrc_zero_skip(memory),
        icrc_mask(memory), vary_values(memory) {}
  TxStreamPlan(const TxStreamPlan&) = default;
  TxStreamPlan& operator=(const TxStreamPlan&) = default;

  uint16_t stream_id = 0;
  uint16_t n_lanes = 1;
  bool ipv6 = false;
  bool multi_size = false;     ///< lengths and checksum bases change per frame
  bool random_size = false;    ///< multi-size: size index hashed from the sequence, else size_schedule
  bool hw_checksum = false;    ///< the port computes IPv4 and UDP checksums (TX offload)
  bool mac_control = false;    ///< a MAC Control frame (PFC / PAUSE): no IP or UDP, only the signature changes
  bool roce = false;           ///< RoCEv2: per frame the PSN and the ICRC; the signature before the ICRC; UDP checksum 0
  uint16_t roce_headers_end = 0;  ///< roce: after the BTH and its extended header
  uint32_t roce_first_psn = 0;    ///< roce: frame k of a lane carries PSN first + k (mod 2^24)
  uint64_t ol_flags = 0;       ///< hw_checksum: the mbuf TX offload flags of every frame, else 0
  uint64_t tx_offload = 0;     ///< hw_checksum: the mbuf l2_len / l3_len / l4_len word
  uint16_t l3_offset = 14;
  uint16_t l4_offset = 34;
  uint16_t header_bytes = 42;
  uint16_t l4_csum_offset = 6; ///< the L4 checksum's place from l4_offset: UDP 6, TCP 16 (in the padding here)
  std::pmr::vector<uint8_t> template_bytes;  ///< largest frame, without FCS
  std::pmr::vector<SizeEntry> sizes;         ///< fixed: 1, IMIX: one per size, range: max-min+1
  std::pmr::vector<uint16_t> size_schedule;  ///< multi-size, not random: index into sizes, cycled by sequence
  std::pmr::vector<VaryPlan> vary;           ///< at most kMaxVaryFields
  std::pmr::vector<uint32_t> icrc_zero_skip; ///< roce: crc32_skip_zeros over the zero payload (1024 entries)
  std::pmr::vector<uint8_t> icrc_mask;       ///< roce: roce_icrc_mask, from l3_offset to roce_headers_end
  std::pmr::vector<uint64_t> vary_values;    ///< the kListed fields' values, one run after another
  bool tcp = false;  ///< a TCP header, not UDP (l4_csum_offset and the sizes' l4_word carry it to the writer)
};

}  // namespace lr::wire
