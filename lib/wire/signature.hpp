#pragma once
// HOT PATH: worker lcores only. No alloc, throw, log, lock, syscall.
//
// The signature: a 14-byte trailer at the very end of each frame's data (before the
// FCS), found from the frame length so VLAN tags added or stripped on the way do not
// move it. 14 bytes is what a 64-byte frame with 802.1Q + IPv4 + UDP has left.
//
//   offset  size  field
//   0       2     magic 0x4C52 ("LR"), little endian
//   2       2     stream id
//   4       1     lane (TX queue of the stream)
//   5       4     sequence number, low 32 bits (extended to 64 at the receiver)
//   9       4     TX timestamp, low 32 bits of nanoseconds (latency < 4.29 s)
//   13      1     check: 8-bit sum of bytes 0..12, so stray payload rarely parses
//
// All fields little endian: both ends are linerate, and every target is little endian.

#include <cstdint>
#include <cstring>

namespace lr::wire {

inline constexpr uint16_t kSignatureBytes = 14;
inline constexpr uint16_t kSignatureMagic = 0x4C52;

struct Signature {
  uint16_t stream_id = 0;
  uint8_t lane = 0;
  uint32_t seq = 0;
  uint32_t tx_ns = 0;
};


/// Byte sum of 8 bytes without a loop (SWAR): pairs, then one multiply adds the lanes.
inline uint32_t byte_sum8(uint64_t v) noexcept {
  const uint64_t pairs = (v & 0x00FF00FF00FF00FFull) + ((v >> 8) & 0x00FF00FF00FF00FFull);
  return static_cast<uint32_t>((pairs * 0x0001000100010001ull) >> 48);
}

/// Check byte of a signature being written, from its fields in registers: reading the
/// just-written bytes back would stall on store-to-load forwarding (a wide load over
/// several narrower stores), a third of the TX loop's time when measured.
inline uint8_t signature_check(const Signature& sig) noexcept {
  constexpr uint32_t kMagicSum = (kSignatureMagic & 0xFF) + (kSignatureMagic >> 8);
  const uint32_t sum = kMagicSum + (sig.stream_id & 0xFF) + (sig.stream_id >> 8) + sig.lane +
                       byte_sum8(uint64_t{sig.seq} | uint64_t{sig.tx_ns} << 32);
  return static_cast<uint8_t>(sum ^ 0xA5);
}

/// Check byte of 13 received signature bytes.
inline uint8_t signature_check(const uint8_t* bytes) noexcept {
  uint64_t head;
  uint32_t tail;
  std::memcpy(&head, bytes, 8);
  std::memcpy(&tail, bytes + 8, 4);
  const uint32_t sum = byte_sum8(head) + byte_sum8(tail) + bytes[12];
  return static_cast<uint8_t>(sum ^ 0xA5);
}

/// The 14 signature bytes as two little-endian words (bytes 0-7, bytes 8-13), built in
/// registers: written with two stores and checksummed without reading memory back.
struct SignatureWords {
  uint64_t lo = 0;
  uint64_t hi = 0;
};

inline SignatureWords encode_signature(const Signature& sig) noexcept {
  SignatureWords w;
  w.lo = uint64_t{kSignatureMagic} | uint64_t{sig.stream_id} << 16 | uint64_t{sig.lane} << 32 |
         (uint64_t{sig.seq} & 0xFFFFFF) << 40;
  w.hi = uint64_t{sig.seq} >> 24 | uint64_t{sig.tx_ns} << 8 | uint64_t{signature_check(sig)} << 40;
  return w;
}

/// Writes the 14 signature bytes at `dst`, as 8 + 4 + 2 byte stores straight from
/// registers: a 6-byte memcpy made the compiler spill the words to the stack and load
/// them back in pieces, a store-forwarding stall that perf put at a fifth of the TX
/// burst's samples.
inline void write_signature(uint8_t* dst, const SignatureWords& words) noexcept {
  const auto hi_low = static_cast<uint32_t>(words.hi);
  const auto hi_high = static_cast<uint16_t>(words.hi >> 32);
  std::memcpy(dst, &words.lo, 8);
  std::memcpy(dst + 8, &hi_low, 4);
  std::memcpy(dst + 12, &hi_high, 2);
}

inline void write_signature(uint8_t* dst, const Signature& sig) noexcept {
  write_signature(dst, encode_signature(sig));
}

/// Ones'-complement sum of the signature bytes as big-endian 16-bit words of a region
/// where the signature starts at an even (`odd_start` false) or odd offset. Summing
/// little-endian lanes and swapping the folded result is the same sum (RFC 1071 §2(B));
/// at an odd offset the bytes already pair up as little-endian lanes.
inline uint32_t signature_csum(const SignatureWords& words, bool odd_start) noexcept {
  const auto lanes = [](uint64_t x) {
    return static_cast<uint32_t>((x & 0xFFFF) + ((x >> 16) & 0xFFFF) + ((x >> 32) & 0xFFFF) + (x >> 48));
  };
  uint32_t sum = lanes(words.lo) + lanes(words.hi);
  sum = (sum & 0xFFFF) + (sum >> 16);
  sum = (sum & 0xFFFF) + (sum >> 16);
  return odd_start ? sum : static_cast<uint16_t>(sum << 8 | sum >> 8);
}

/// Parses 14 bytes at `src`; false when magic or check byte do not match.
inline bool read_signature(const uint8_t* src, Signature& sig) noexcept {
  uint16_t magic;
  std::memcpy(&magic, src, 2);
  if (magic != kSignatureMagic || src[13] != signature_check(src)) return false;
  std::memcpy(&sig.stream_id, src + 2, 2);
  sig.lane = src[4];
  std::memcpy(&sig.seq, src + 5, 4);
  std::memcpy(&sig.tx_ns, src + 9, 4);
  return true;
}

/// A RoCEv2 frame's signature ends where its 4-byte ICRC starts.
inline constexpr uint16_t kSignatureBeforeIcrc = kSignatureBytes + 4;

/// Finds the signature of a frame of `len` data bytes (no FCS). First at the end, then
/// before a RoCEv2 ICRC; when both fail, at the end of the IP payload, for a
/// minimum-size frame that a VLAN strip on the way shortened and the next hop padded
/// back to 60 bytes.
inline bool locate_signature(const uint8_t* frame, uint32_t len, Signature& sig) noexcept {
  if (len < kSignatureBytes) return false;
  if (read_signature(frame + len - kSignatureBytes, sig)) return true;
  if (len >= kSignatureBeforeIcrc && read_signature(frame + len - kSignatureBeforeIcrc, sig)) return true;
  uint32_t l3 = 14;
  uint16_t ether_type = static_cast<uint16_t>(frame[12] << 8 | frame[13]);
  while ((ether_type == 0x8100 || ether_type == 0x88A8) && l3 + 4 <= len) {
    ether_type = static_cast<uint16_t>(frame[l3 + 2] << 8 | frame[l3 + 3]);
    l3 += 4;
  }
  uint32_t ip_end = 0;
  if (ether_type == 0x0800 && l3 + 20 <= len) {
    ip_end = l3 + (static_cast<uint32_t>(frame[l3 + 2]) << 8 | frame[l3 + 3]);
  } else if (ether_type == 0x86DD && l3 + 40 <= len) {
    ip_end = l3 + 40 + (static_cast<uint32_t>(frame[l3 + 4]) << 8 | frame[l3 + 5]);
  }
  if (ip_end < l3 + kSignatureBytes || ip_end > len || ip_end == len) return false;
  return read_signature(frame + ip_end - kSignatureBytes, sig);
}

}  // namespace lr::wire
