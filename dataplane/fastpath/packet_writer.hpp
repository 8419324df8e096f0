#pragma once
// HOT PATH: worker lcores only. No alloc, throw, log, lock, syscall.
//
// Writes the per-frame bytes into a buffer that already holds the stream's template
// (written once, when the stream's mempool was populated): lengths (multi-size streams
// only), varying fields, checksums and the signature. Checksums are updated
// incrementally from the size entry's bases (RFC 1624), never recomputed over the frame.

#include <cstdint>
#include <cstring>

#include "dataplane/common/check.hpp"
#include "dataplane/fastpath/checksum.hpp"
#include "dataplane/fastpath/signature.hpp"
#include "dataplane/plan/stream_plan.hpp"

namespace lr::fast {

/// splitmix64: a stateless hash, so a frame's random fields depend on its sequence
/// alone and a frame the queue refused is rebuilt identically.
inline uint64_t mix64(uint64_t x) noexcept {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// Index into plan.sizes of the frame with lane sequence `seq`.
inline uint32_t size_index(const plan::TxStreamPlan& plan, uint64_t seq, uint8_t lane) noexcept {
  if (!plan.multi_size) return 0;
  if (!plan.size_schedule.empty()) return plan.size_schedule[seq % plan.size_schedule.size()];
  if (plan.range_order == profile::RangeOrder::kIncrement) return static_cast<uint32_t>(seq % plan.sizes.size());
  return static_cast<uint32_t>(mix64(seq ^ (uint64_t{lane} << 56) ^ 0x5EED) % plan.sizes.size());
}

/// Value of a varying field for the frame with lane sequence `seq`.
inline uint64_t vary_value(const plan::VaryPlan& v, uint64_t seq, uint8_t lane, uint32_t index) noexcept {
  uint64_t k = 0;
  switch (v.op) {
    case profile::VaryOp::kIncrement: k = seq % v.count; break;
    case profile::VaryOp::kDecrement: k = 0 - (seq % v.count); break;  // base - n * step, wrapping
    case profile::VaryOp::kRandom: k = mix64(seq ^ (uint64_t{lane} << 48) ^ (uint64_t{index} << 40)) % v.count; break;
  }
  return v.base + k * v.step;  // wraps; the writer keeps the field's width
}

/// Writes varying fields, lengths, checksums and the signature of one frame.
/// `last_sig_offset` is the buffer's memory of where its previous signature was (0:
/// none), so a multi-size stream can clear it: the payload must stay zero for the
/// checksum bases to hold.
///
/// kHwChecksum: the port computes the checksums (TX offload). The IPv4 checksum field is
/// then 0 and the UDP one holds the folded pseudo-header sum, as DPDK's offload contract
/// asks (rte_ipv4_phdr_cksum), so per frame only the varying addresses are added.
/// kMultiSize: plan.multi_size; a fixed-size stream never moves its signature or lengths.
/// Both are template parameters so the TX loop picks the variant once per burst.
template <bool kHwChecksum = false, bool kMultiSize = true>
[[gnu::always_inline]] inline void write_frame(uint8_t* frame, const plan::TxStreamPlan& plan,
                                               const plan::SizeEntry& size, uint16_t& last_sig_offset,
                                               const Signature& sig, uint64_t seq) noexcept {
  LR_DASSERT(size.data_len >= plan.header_bytes + kSignatureBytes);
  LR_DASSERT(size.data_len <= plan.template_bytes.size());
  LR_DASSERT(kMultiSize == plan.multi_size || kMultiSize);
  uint32_t ip_sum = size.ip_base_sum;
  uint32_t udp_sum = kHwChecksum ? size.phdr_base_sum : size.udp_base_sum;
  const uint16_t l3 = plan.l3_offset;
  const uint16_t l4 = plan.l4_offset;
  if (kMultiSize) {
    store_be16(frame + l3 + (plan.ipv6 ? 4 : 2), size.ip_len);
    store_be16(frame + l4 + 4, size.udp_len);
  }
  uint32_t index = 0;
  for (const plan::VaryPlan& v : plan.vary) {
    const uint64_t value = vary_value(v, seq, sig.lane, index++);
    uint8_t* at = frame + v.offset;
    switch (v.width) {
      case 2: {
        const uint16_t word = v.field == profile::VaryField::kVlanId
                                  ? static_cast<uint16_t>(v.fixed_bits | (value & 0x0FFF))
                                  : static_cast<uint16_t>(value);
        store_be16(at, word);
        if (!kHwChecksum && v.in_udp_csum) udp_sum += word;
        break;
      }
      case 4: {
        const auto word = static_cast<uint32_t>(value);
        store_be32(at, word);
        if (!kHwChecksum && v.in_ip_csum) ip_sum += csum_words(word);
        if (kHwChecksum ? v.in_phdr : v.in_udp_csum) udp_sum += csum_words(word);
        break;
      }
      default: {  // 6: MAC, not in any checksum
        const uint64_t mac = value & 0xFFFFFFFFFFFFull;
        store_be16(at, static_cast<uint16_t>(mac >> 32));
        store_be32(at + 2, static_cast<uint32_t>(mac));
        break;
      }
    }
  }
  const uint16_t sig_offset = static_cast<uint16_t>(size.data_len - kSignatureBytes);
  if (kMultiSize && last_sig_offset != sig_offset) {
    if (last_sig_offset >= plan.header_bytes) std::memset(frame + last_sig_offset, 0, kSignatureBytes);
    last_sig_offset = sig_offset;
  }
  const SignatureWords words = encode_signature(sig);
  write_signature(frame + sig_offset, words);
  if constexpr (kHwChecksum) {
    if (!plan.ipv6) store_be16(frame + l3 + 10, 0);
    store_be16(frame + l4 + 6, csum_fold(udp_sum));
    return;
  }
  udp_sum += signature_csum(words, ((sig_offset - l4) & 1) != 0);
  if (!plan.ipv6) store_be16(frame + l3 + 10, static_cast<uint16_t>(~csum_fold(ip_sum)));
  uint16_t udp_csum = static_cast<uint16_t>(~csum_fold(udp_sum));
  if (udp_csum == 0) udp_csum = 0xFFFF;  // RFC 768: 0 means "no checksum"
  store_be16(frame + l4 + 6, udp_csum);
}

}  // namespace lr::fast
