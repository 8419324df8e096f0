#pragma once
// HOT PATH: worker lcores only. No alloc, throw, log, lock, syscall.
//
// Writes the per-frame bytes into a buffer that already holds the stream's template
// (written once, when the stream's mempool was populated): lengths (multi-size streams
// only), varying fields, checksums and the signature. Checksums are updated
// incrementally from the size entry's bases (RFC 1624), never recomputed over the frame.

#include <cstdint>
#include <cstring>

#include "lib/common/check.hpp"
#include "lib/wire/checksum.hpp"
#include "lib/wire/roce.hpp"
#include "lib/wire/signature.hpp"
#include "lib/wire/tx_stream_plan.hpp"

namespace lr::fast {

/// splitmix64: a stateless hash, so a frame's random fields depend on its sequence
/// alone and a frame the queue refused is rebuilt identically.
inline uint64_t mix64(uint64_t x) noexcept {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// An index in [0, n) from a hash by multiply-shift (Lemire, "Fast Random Integer
/// Generation in an Interval", 2019): the high 32 bits scaled to n, no division.
inline uint32_t hash_to_index(uint64_t hash, uint32_t n) noexcept {
  return static_cast<uint32_t>(((hash >> 32) * n) >> 32);
}

/// Where a lane stands for the frame with sequence `seq`: its place in the size
/// schedule and each varying field's k = seq mod count. The TX loop advances it frame by
/// frame with one compare per field, so no frame pays for a 64-bit division (20 to 40
/// cycles each on the CPUs we target); only `cursor_at` divides, on cold paths.
struct FrameCursor {
  uint64_t seq = 0;
  uint32_t size_pos = 0;                          ///< index into plan.size_schedule
  uint32_t vary_k[wire::kMaxVaryFields] = {};     ///< per plan.vary entry
};

/// The cursor of frame `seq` from scratch. Cold: at lane start and after a burst the
/// queue took only in part (its frames are rebuilt with the same sequence numbers).
inline FrameCursor cursor_at(const wire::TxStreamPlan& plan, uint64_t seq) noexcept {
  FrameCursor c;
  c.seq = seq;
  if (!plan.size_schedule.empty()) c.size_pos = static_cast<uint32_t>(seq % plan.size_schedule.size());
  for (size_t i = 0; i < plan.vary.size() && i < wire::kMaxVaryFields; ++i)
    c.vary_k[i] = static_cast<uint32_t>(seq % plan.vary[i].count);
  return c;
}

/// Moves `c` to the next frame: equal to cursor_at(plan, c.seq + 1).
[[gnu::always_inline]] inline void advance(const wire::TxStreamPlan& plan, FrameCursor& c) noexcept {
  ++c.seq;
  if (!plan.size_schedule.empty() && ++c.size_pos == plan.size_schedule.size()) c.size_pos = 0;
  const size_t n_vary = plan.vary.size();
  for (size_t i = 0; i < n_vary; ++i)
    if (++c.vary_k[i] == plan.vary[i].count) c.vary_k[i] = 0;
}

/// Index into plan.sizes of the frame at `c`.
inline uint32_t size_index(const wire::TxStreamPlan& plan, const FrameCursor& c, uint8_t lane) noexcept {
  if (!plan.multi_size) return 0;
  if (!plan.random_size) return plan.size_schedule[c.size_pos];
  return hash_to_index(mix64(c.seq ^ (uint64_t{lane} << 56) ^ 0x5EED), static_cast<uint32_t>(plan.sizes.size()));
}

/// Value of varying field `index` (`v`) for the frame with sequence `seq`, whose count
/// for the field is `k` (seq mod v.count).
inline uint64_t vary_value_at(const wire::TxStreamPlan& plan, const wire::VaryPlan& v, uint32_t k, uint64_t seq,
                              uint8_t lane, uint32_t index) noexcept {
  // Tests in the order of how common: the switch with a fourth case measured 3 % slower
  // (interleaved runs of the vary profile of scripts/bench.sh).
  if (v.order == wire::IndexOrder::kUp) [[likely]]
    return v.base + uint64_t{k} * v.step;
  if (v.order == wire::IndexOrder::kDown) return v.base - uint64_t{k} * v.step;  // wraps; the writer keeps the width
  if (v.order == wire::IndexOrder::kListed) return plan.vary_values[v.values_at + k];
  const uint64_t hash = mix64(seq ^ (uint64_t{lane} << 48) ^ (uint64_t{index} << 40));
  return v.base + uint64_t{hash_to_index(hash, v.count)} * v.step;
}

/// Value of varying field `index` for the frame at `c`.
inline uint64_t vary_value(const wire::TxStreamPlan& plan, const wire::VaryPlan& v, const FrameCursor& c, uint8_t lane,
                           uint32_t index) noexcept {
  return vary_value_at(plan, v, c.vary_k[index], c.seq, lane, index);
}

/// RoCEv2: the signature just before the ICRC, the IPv4 header checksum, the PSN of the
/// lane's frame `seq`, then the ICRC over all of that. The UDP checksum stays 0 over
/// IPv4; over IPv6 it is the size's base (BTH included, PSN not) with `udp_sum`'s
/// varying fields, the PSN, the signature and the ICRC added.
[[gnu::noinline]] inline void write_roce_trailer(uint8_t* frame, const wire::TxStreamPlan& plan,
                                                 const wire::SizeEntry& size, const wire::Signature& sig, uint64_t seq,
                                                 uint32_t ip_sum, uint32_t udp_sum) noexcept {
  using namespace lr::wire;
  const uint16_t l4 = plan.l4_offset;
  const auto sig_at = static_cast<uint16_t>(size.data_len - kIcrcBytes - kSignatureBytes);
  write_signature(frame + sig_at, sig);
  // The PSN with the byte before it (AckReq, 0) as one 4-byte store, which the CRC's
  // 4-byte loads (aligned to it from the IP header) read back without a stall.
  const auto psn_at = static_cast<uint16_t>(l4 + 8 + kBthPsnOffset);
  store_be32(frame + psn_at - 1, static_cast<uint32_t>((plan.roce_first_psn + seq) & 0xFFFFFF));
  const RoceIcrcLayout layout{plan.l3_offset, plan.roce_headers_end, size.data_len, kSignatureBytes, plan.ipv6};
  const uint32_t icrc = roce_icrc(frame, layout, plan.icrc_mask.data(), plan.icrc_zero_skip.data());
  store_icrc(frame, size.data_len, icrc);
  if (!plan.ipv6) {
    // After the CRC, which masks it: a 2-byte store under its 4-byte load would stall it.
    store_be16(frame + plan.l3_offset + 10, static_cast<uint16_t>(~csum_fold(ip_sum)));
    return;
  }
  const auto odd = [l4](uint16_t at) { return ((at - l4) & 1) != 0; };
  const auto icrc_at = static_cast<uint16_t>(size.data_len - kIcrcBytes);
  udp_sum += csum_partial(frame + psn_at, 3, odd(psn_at)) + csum_partial(frame + sig_at, kSignatureBytes, odd(sig_at)) +
             csum_partial(frame + icrc_at, kIcrcBytes, odd(icrc_at));
  uint16_t udp_csum = static_cast<uint16_t>(~csum_fold(udp_sum));
  if (udp_csum == 0) udp_csum = 0xFFFF;  // RFC 768: 0 means "no checksum"
  store_be16(frame + l4 + 6, udp_csum);
}

/// Varied field `v` of `kWidth` bytes (2: ports, VLAN TCI; 4: an IPv4 address or an IPv6
/// address's low word; 6: a MAC) set to `value` at `at`, its words added to the sums it is
/// in: without offload the IPv4 header's and the UDP one; with it, the pseudo-header's.
template <int kWidth, bool kHwChecksum>
[[gnu::always_inline]] inline void write_varied_field(uint8_t* at, const wire::VaryPlan& v, uint64_t value,
                                                      uint32_t& ip_sum, uint32_t& udp_sum) noexcept {
  using namespace lr::wire;
  if constexpr (kWidth == 2) {
    const auto word = static_cast<uint16_t>(v.fixed_bits | (value & v.value_mask));
    store_be16(at, word);
    if (!kHwChecksum && v.in_udp_csum) udp_sum += word;
  } else if constexpr (kWidth == 4) {
    const auto word = static_cast<uint32_t>(value);
    store_be32(at, word);
    if (!kHwChecksum && v.in_ip_csum) ip_sum += csum_words(word);
    if (kHwChecksum ? v.in_phdr : v.in_udp_csum) udp_sum += csum_words(word);
  } else {  // not in any checksum
    const uint64_t mac = value & 0xFFFFFFFFFFFFull;
    store_be16(at, static_cast<uint16_t>(mac >> 32));
    store_be32(at + 2, static_cast<uint32_t>(mac));
  }
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
[[gnu::always_inline]] inline void write_frame(uint8_t* frame, const wire::TxStreamPlan& plan,
                                               const wire::SizeEntry& size, uint16_t& last_sig_offset,
                                               const wire::Signature& sig, const FrameCursor& cursor) noexcept {
  using namespace lr::wire;  // the wire format's own helpers, one layer down
  LR_DASSERT(size.data_len >= plan.header_bytes + kSignatureBytes);
  LR_DASSERT(size.data_len <= plan.template_bytes.size());
  LR_DASSERT(kMultiSize == plan.multi_size || kMultiSize);
  if (plan.mac_control) {  // no IP, no UDP: the signature sits in the frame's padding
    write_signature(frame + size.data_len - kSignatureBytes, sig);
    return;
  }
  uint32_t ip_sum = size.ip_base_sum;
  uint32_t udp_sum = kHwChecksum ? size.phdr_base_sum : size.udp_base_sum;
  // Read before the first store: a store through `frame` (bytes) may alias the plan for
  // all the compiler knows, which would then be read again after each one.
  const uint16_t l3 = plan.l3_offset;
  const uint16_t l4 = plan.l4_offset;
  const uint16_t l4_csum_at = static_cast<uint16_t>(l4 + plan.l4_csum_offset);
  if (kMultiSize) {
    store_be16(frame + l3 + (plan.ipv6 ? 4 : 2), size.ip_len);
    store_be16(frame + l4 + 4, size.l4_word);
  }
  uint32_t index = 0;
  for (const VaryPlan& v : plan.vary) {
    const uint64_t value = vary_value(plan, v, cursor, sig.lane, index++);
    uint8_t* at = frame + v.offset;
    switch (v.width) {
      case 2: write_varied_field<2, kHwChecksum>(at, v, value, ip_sum, udp_sum); break;
      case 4: write_varied_field<4, kHwChecksum>(at, v, value, ip_sum, udp_sum); break;
      default: write_varied_field<6, kHwChecksum>(at, v, value, ip_sum, udp_sum); break;
    }
  }
  if (plan.roce) {  // one size, no checksum offload (the plan builder sees to both)
    write_roce_trailer(frame, plan, size, sig, cursor.seq, ip_sum, udp_sum);
    return;
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
    store_be16(frame + l4_csum_at, csum_fold(udp_sum));
    return;
  }
  udp_sum += signature_csum(words, ((sig_offset - l4) & 1) != 0);
  if (!plan.ipv6) store_be16(frame + l3 + 10, static_cast<uint16_t>(~csum_fold(ip_sum)));
  uint16_t udp_csum = static_cast<uint16_t>(~csum_fold(udp_sum));
  if (udp_csum == 0) udp_csum = 0xFFFF;  // RFC 768: 0 means "no checksum" (to TCP the same sum)
  store_be16(frame + l4_csum_at, udp_csum);
}

/// Whether every frame of the plan has the same size and headers: then each mbuf of
/// the stream's pool holds the whole frame from the start (when the pool is filled), and a
/// frame's own bytes are only its signature and, without checksum offload, the UDP
/// checksum. The common case (RFC 2544 at one size, one flow) and the fastest.
inline bool headers_fixed(const wire::TxStreamPlan& plan) noexcept {
  return !plan.multi_size && plan.vary.empty() && !plan.roce;  // RoCEv2: the PSN and the ICRC change too
}

/// Whether every frame of the plan has one size and the same headers but for its varied
/// fields, with checksums in software: then, as for fixed headers, each mbuf holds the
/// whole frame from the start, and per frame only the varied fields, the IPv4 checksum
/// (when an address varies), the signature and the UDP checksum are written
/// (write_varied_fields, then fixed_frame_bytes with their share).
inline bool one_size_varied(const wire::TxStreamPlan& plan) noexcept {
  return !plan.multi_size && !plan.vary.empty() && !plan.roce && !plan.mac_control && !plan.hw_checksum;
}

/// The most frame sizes a stream may have for a pool each (sized_frames).
inline constexpr size_t kMaxSizePools = 4;

/// Whether the plan's frames have a few sizes in a schedule (IMIX) and otherwise fixed headers, with
/// checksums in software: then each size has a pool of mbufs that hold its whole frame,
/// and per frame only the signature and the UDP checksum are written, as for fixed headers
/// (fixed_frame_bytes, each size's UDP sum added as the frame's `varied` share). The sizes
/// must put the signature at one parity in the datagram (fixed_frame_bytes' kSigOdd).
inline bool sized_frames(const wire::TxStreamPlan& plan) noexcept {
  if (!plan.multi_size || plan.random_size || !plan.vary.empty() || plan.roce || plan.mac_control || plan.hw_checksum ||
      plan.sizes.size() > kMaxSizePools)
    return false;
  for (const wire::SizeEntry& size : plan.sizes)
    if (((size.data_len ^ plan.sizes[0].data_len) & 1) != 0) return false;
  return true;
}

/// Bytes a TX buffer holds after its largest frame: a fixed-header frame's last signature
/// bytes are stored as 16 (store_fixed_frame), 4 of them past the frame's end.
inline constexpr uint16_t kTxTailroom = 4;

/// What the frames of one burst of a fixed-header stream share: the signature's bytes
/// 2-13 without the sequence number and check byte (as the three little-endian words a
/// frame's are stored as), and the sums those leave out. Bytes 0-1, the magic, are the
/// same in every frame: the pool's filling wrote them.
struct FixedBurst {
  uint32_t words[3] = {};      ///< signature bytes 2-5, 6-9 and 10-13, sequence and check zero
  uint32_t check_base = 0;     ///< the check byte's sum (mod 256) over everything but the sequence
  uint32_t udp_base = 0;       ///< UDP sum over everything but the sequence and the check, folded,
                               ///< as little-endian words (see fixed_frame_bytes)
  uint16_t words_offset = 0;   ///< where the words go: the signature's offset + 2
  uint16_t udp_csum_offset = 0;
  bool sig_odd = false;        ///< signature at an odd offset from the UDP header
};

/// A burst's shared bytes for the frames of `size` (one of plan.sizes).
inline FixedBurst fixed_burst(const wire::TxStreamPlan& plan, const wire::SizeEntry& size, uint8_t lane,
                              uint32_t tx_ns) noexcept {
  using namespace lr::wire;
  FixedBurst b;
  const auto sig_offset = static_cast<uint16_t>(size.data_len - kSignatureBytes);
  b.words_offset = static_cast<uint16_t>(sig_offset + 2);
  b.udp_csum_offset = static_cast<uint16_t>(plan.l4_offset + plan.l4_csum_offset);
  b.sig_odd = ((sig_offset - plan.l4_offset) & 1) != 0;
  // Frame 0's signature is the burst's with a zero sequence; its check byte, unmasked,
  // is the sum of the other bytes (mod 256, all a check byte keeps).
  const Signature first{plan.stream_id, lane, 0, tx_ns};
  const SignatureWords sig = encode_signature(first);
  const uint64_t hi = sig.hi & ((uint64_t{1} << 40) - 1);  // without the check byte (bits 40-47)
  b.words[0] = static_cast<uint32_t>(sig.lo >> 16);
  b.words[1] = static_cast<uint32_t>(sig.lo >> 48 | hi << 16);
  b.words[2] = static_cast<uint32_t>(hi >> 16);
  b.check_base = signature_check(first) ^ 0xA5u;
  const uint16_t base = csum_fold(size.udp_base_sum + signature_csum(SignatureWords{sig.lo, hi}, b.sig_odd));
  b.udp_base = static_cast<uint16_t>(base << 8 | base >> 8);
  return b;
}

inline FixedBurst fixed_burst(const wire::TxStreamPlan& plan, uint8_t lane, uint32_t tx_ns) noexcept {
  return fixed_burst(plan, plan.sizes[0], lane, tx_ns);
}

/// The bytes a fixed-header stream's frames get per frame, for up to kFixedFrames frames
/// of consecutive sequences: computed for all of them first, in a loop of 32-bit
/// arithmetic alone (which the compiler turns into vector instructions, four frames to
/// one), then stored frame by frame (store_fixed_frame). Computing and storing frame by
/// frame kept too many values live at once, and the loop spilled them to the stack every
/// frame; 64-bit words made the vectors two frames wide.
inline constexpr uint32_t kFixedFrames = 32;  // the TX burst
struct FixedFrameBytes {
  /// Per frame signature bytes 2-5 (sequence byte 0 last), 6-9 and 10-13 (check last),
  /// and 4 bytes the tailroom takes: one 16-byte store.
  uint32_t words[kFixedFrames][4];
  uint16_t l4_csum[kFixedFrames];  ///< the UDP checksum, in wire order (kUdpChecksum)
};

/// The signatures of frames `seq` .. `seq + n - 1` (n <= kFixedFrames) and, with
/// kUdpChecksum (false when the port computes it or the frame has no UDP), their UDP
/// checksums: equal to write_frame's bytes. The constant part of the UDP sum is summed
/// once per burst; per frame the sequence's and the check byte's share is added as the
/// 16-bit words they fall in (which half of a word each byte lands in: kSigOdd, the
/// signature's parity in the datagram). The sum is kept as little-endian words (a ones'
/// complement sum of byte-swapped words is the byte-swapped sum), so it is stored as it
/// is: no swap per frame.
/// `varied` (one_size_varied streams): each frame's varied fields' share of the UDP sum, as
/// a little-endian word (write_varied_fields), added to its sum.
template <bool kUdpChecksum, bool kSigOdd, bool kVaried>
inline void fixed_frame_bytes(const FixedBurst& b, uint32_t seq, uint32_t n, FixedFrameBytes& out,
                              const uint32_t* varied) noexcept {
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t q = seq + i;
    const uint32_t pairs = (q & 0x00FF00FFu) + ((q >> 8) & 0x00FF00FFu);
    const uint32_t check = ((b.check_base + (pairs & 0xFFFF) + (pairs >> 16)) ^ 0xA5u) & 0xFFu;
    out.words[i][0] = b.words[0] | q << 24;  // sequence bytes sit at signature offsets 5-8
    out.words[i][1] = b.words[1] | q >> 8;
    out.words[i][2] = b.words[2] | check << 24;  // the check at 13
    out.words[i][3] = 0;
    if constexpr (kUdpChecksum) {
      // Sequence bytes 0-3 at signature offsets 5-8, the check at 13: with the signature
      // at an odd place, offsets 5, 7 and 13 start a word (the low byte, little-endian).
      uint32_t sum = b.udp_base;
      if constexpr (kVaried) sum += varied[i];
      if constexpr (kSigOdd) {
        sum += (q & 0xFFFF) + (q >> 16) + check;
      } else {
        const uint32_t swapped = ((q & 0x00FF00FFu) << 8) | ((q >> 8) & 0x00FF00FFu);
        sum += (swapped & 0xFFFF) + (swapped >> 16) + (check << 8);
      }
      const uint32_t csum = ~uint32_t{wire::csum_fold(sum)} & 0xFFFF;
      out.l4_csum[i] = static_cast<uint16_t>(csum == 0 ? 0xFFFF : csum);  // RFC 768: 0 means "no checksum"
    }
  }
}

/// fixed_frame_bytes for `b`'s parity.
template <bool kUdpChecksum>
inline void fixed_frame_bytes(const FixedBurst& b, uint32_t seq, uint32_t n, FixedFrameBytes& out,
                              const uint32_t* varied = nullptr) noexcept {
  if (varied != nullptr) {
    if (b.sig_odd) fixed_frame_bytes<kUdpChecksum, true, true>(b, seq, n, out, varied);
    else fixed_frame_bytes<kUdpChecksum, false, true>(b, seq, n, out, varied);
  } else {
    if (b.sig_odd) fixed_frame_bytes<kUdpChecksum, true, false>(b, seq, n, out, nullptr);
    else fixed_frame_bytes<kUdpChecksum, false, false>(b, seq, n, out, nullptr);
  }
}

/// A one_size_varied stream's varied fields of `n` frames (n <= kFixedFrames) from the one
/// at `c` on, written into frames that hold the rest (the pool's filling wrote them whole),
/// with the IPv4 header checksum where an address in it varies; leaves `c` at the frame
/// after them. `varied[i]`: frame i's fields' share of the UDP sum as a little-endian word,
/// for fixed_frame_bytes (which writes the signature and the UDP checksum). Field by field,
/// then frame by frame: a field's values are counted up by its step into an array, stored,
/// then added to the sums, each in a loop of its own. The frames' bytes are stored through
/// uint8_t pointers, which may alias anything: a loop that stored them and read the plan or
/// `varied` had the compiler reload those every frame (perf annotate on the two-field
/// profile), so the plan's field is copied and the sums are loops without a store to a frame.
[[gnu::always_inline]] inline void write_varied_fields(uint8_t* const* frames, uint32_t n,
                                                       const wire::TxStreamPlan& plan, FrameCursor& c, uint8_t lane,
                                                       uint32_t* varied) noexcept {
  using namespace lr::wire;
  LR_DASSERT(one_size_varied(plan) && n <= kFixedFrames);
  uint32_t ip_sum[kFixedFrames];
  uint32_t udp_sum[kFixedFrames];
  uint64_t values[kFixedFrames];
  bool ip_varied = false;
  const uint32_t ip_base = plan.sizes[0].ip_base_sum;
  for (uint32_t i = 0; i < n; ++i) ip_sum[i] = ip_base, udp_sum[i] = 0;
  const auto n_fields = static_cast<uint32_t>(plan.vary.size());
  for (uint32_t f = 0; f < n_fields; ++f) {
    const VaryPlan v = plan.vary[f];  // a copy, for the loops below (see above)
    uint32_t k = c.vary_k[f];
    // The field's value for each frame in turn: counted up by its step (the common order),
    // else computed.
    if (v.order == IndexOrder::kUp && n < v.count - k) [[likely]] {  // no wrap in the burst (k < count): no branch
      const uint64_t first = v.base + uint64_t{k} * v.step;
      for (uint32_t i = 0; i < n; ++i) values[i] = first + uint64_t{i} * v.step;
      k += n;
    } else if (v.order == IndexOrder::kUp) {
      uint64_t up = v.base + uint64_t{k} * v.step;
      for (uint32_t i = 0; i < n; ++i) {
        values[i] = up;
        up += v.step;
        if (++k == v.count) {
          k = 0;
          up = v.base;
        }
      }
    } else {
      for (uint32_t i = 0; i < n; ++i) {
        values[i] = vary_value_at(plan, v, k, c.seq + i, lane, f);
        if (++k == v.count) k = 0;
      }
    }
    c.vary_k[f] = k;
    const uint16_t offset = v.offset;
    // The width chosen once a field, not per frame.
    if (v.width == 2) {
      const uint16_t fixed_bits = v.fixed_bits;
      const uint16_t value_mask = v.value_mask;
      for (uint32_t i = 0; i < n; ++i) values[i] = fixed_bits | (values[i] & value_mask);
      for (uint32_t i = 0; i < n; ++i) store_be16(frames[i] + offset, static_cast<uint16_t>(values[i]));
      if (v.in_udp_csum)
        for (uint32_t i = 0; i < n; ++i) udp_sum[i] += static_cast<uint32_t>(values[i]);
    } else if (v.width == 4) {
      for (uint32_t i = 0; i < n; ++i) store_be32(frames[i] + offset, static_cast<uint32_t>(values[i]));
      if (v.in_ip_csum) {
        ip_varied = true;
        for (uint32_t i = 0; i < n; ++i) ip_sum[i] += csum_words(static_cast<uint32_t>(values[i]));
      }
      if (v.in_udp_csum)
        for (uint32_t i = 0; i < n; ++i) udp_sum[i] += csum_words(static_cast<uint32_t>(values[i]));
    } else {  // a MAC: in no checksum
      for (uint32_t i = 0; i < n; ++i) {
        const uint64_t mac = values[i] & 0xFFFFFFFFFFFFull;
        store_be16(frames[i] + offset, static_cast<uint16_t>(mac >> 32));
        store_be32(frames[i] + offset + 2, static_cast<uint32_t>(mac));
      }
    }
  }
  c.seq += n;  // one size: no size schedule to step
  if (ip_varied) {
    const auto ip_csum_at = static_cast<uint16_t>(plan.l3_offset + 10);
    uint16_t ip_csum[kFixedFrames];
    for (uint32_t i = 0; i < n; ++i) ip_csum[i] = static_cast<uint16_t>(~csum_fold(ip_sum[i]));
    for (uint32_t i = 0; i < n; ++i) store_be16(frames[i] + ip_csum_at, ip_csum[i]);
  }
  for (uint32_t i = 0; i < n; ++i) {
    const uint16_t folded = csum_fold(udp_sum[i]);
    varied[i] = static_cast<uint16_t>(folded << 8 | folded >> 8);
  }
}

/// Writes frame `i` of `bytes` into a frame its pool's filling wrote whole, in a buffer
/// with kTxTailroom bytes after it.
template <bool kUdpChecksum>
[[gnu::always_inline]] inline void store_fixed_frame(uint8_t* frame, const FixedBurst& b, const FixedFrameBytes& bytes,
                                                     uint32_t i) noexcept {
  std::memcpy(frame + b.words_offset, bytes.words[i], 16);
  if constexpr (kUdpChecksum) std::memcpy(frame + b.udp_csum_offset, &bytes.l4_csum[i], 2);
}

}  // namespace lr::fast
