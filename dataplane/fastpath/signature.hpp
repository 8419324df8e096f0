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

namespace lr::fast {

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

inline uint8_t signature_check(const uint8_t* bytes) noexcept {
  uint64_t head;
  uint32_t tail;
  std::memcpy(&head, bytes, 8);
  std::memcpy(&tail, bytes + 8, 4);
  const uint32_t sum = byte_sum8(head) + byte_sum8(tail) + bytes[12];
  return static_cast<uint8_t>(sum ^ 0xA5);
}

/// Writes the 14 signature bytes at `dst`.
inline void write_signature(uint8_t* dst, const Signature& sig) noexcept {
  const uint16_t magic = kSignatureMagic;
  std::memcpy(dst + 0, &magic, 2);
  std::memcpy(dst + 2, &sig.stream_id, 2);
  dst[4] = sig.lane;
  std::memcpy(dst + 5, &sig.seq, 4);
  std::memcpy(dst + 9, &sig.tx_ns, 4);
  dst[13] = signature_check(dst);
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

/// Finds the signature of a frame of `len` data bytes (no FCS). First at the end; when
/// that fails, at the end of the IP payload, for a minimum-size frame that a VLAN strip
/// on the way shortened and the next hop padded back to 60 bytes.
inline bool locate_signature(const uint8_t* frame, uint32_t len, Signature& sig) noexcept {
  if (len < kSignatureBytes) return false;
  if (read_signature(frame + len - kSignatureBytes, sig)) return true;
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

}  // namespace lr::fast
