#pragma once
// HOT PATH: worker lcores only. No alloc, throw, log, lock, syscall.
//
// RoCEv2 (InfiniBand Architecture annex A17): an InfiniBand transport packet in UDP to
// port 4791. After the UDP header: the 12-byte Base Transport Header (BTH), an extended
// header for some opcodes (RETH for RDMA WRITE, DETH for UD), the payload, and the 4-byte
// invariant CRC (ICRC). The ICRC is the Ethernet CRC-32 over 8 bytes of 0xFF (the LRH an
// InfiniBand link would carry) and the IP packet up to the ICRC, with the fields a router
// may change set to ones: IPv4 TOS, TTL and header checksum; IPv6 traffic class, flow
// label and hop limit; the UDP checksum; the BTH's FECN / BECN / reserved byte. It is
// written least significant byte first.
//
//   BTH  offset  size  field
//        0       1     opcode (transport in the top 3 bits: RC 0x00, UC 0x20, UD 0x60)
//        1       1     SE, M, PadCnt (2 bits), TVer (4 bits)
//        2       2     P_Key
//        4       1     FECN, BECN, reserved (masked in the ICRC)
//        5       3     destination QP
//        8       1     AckReq, reserved
//        9       3     PSN

#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace lr::wire {

inline constexpr uint16_t kRoceV2Port = 4791;
inline constexpr uint16_t kBthBytes = 12;
inline constexpr uint16_t kRethBytes = 16;  ///< virtual address 8, R_Key 4, DMA length 4
inline constexpr uint16_t kDethBytes = 8;   ///< Q_Key 4, reserved 1, source QP 3
inline constexpr uint16_t kIcrcBytes = 4;
inline constexpr uint16_t kBthPsnOffset = 9;

/// The single-packet opcodes a stream can send: each frame is a whole message.
struct RoceOpcode {
  std::string_view name;
  uint8_t code;
  uint8_t extended_bytes;  ///< RETH or DETH after the BTH
};
inline constexpr std::array<RoceOpcode, 5> kRoceOpcodes{{
    {"rc-send-only", 0x04, 0},
    {"rc-write-only", 0x0A, kRethBytes},
    {"uc-send-only", 0x24, 0},
    {"uc-write-only", 0x2A, kRethBytes},
    {"ud-send-only", 0x64, kDethBytes},
}};

/// The opcode with this BTH code or this name, or null when linerate does not send it.
constexpr const RoceOpcode* find_roce_opcode(uint8_t code) noexcept {
  for (const RoceOpcode& op : kRoceOpcodes)
    if (op.code == code) return &op;
  return nullptr;
}
constexpr const RoceOpcode* find_roce_opcode(std::string_view name) noexcept {
  for (const RoceOpcode& op : kRoceOpcodes)
    if (op.name == name) return &op;
  return nullptr;
}

/// CRC-32 of IEEE 802.3 (reflected polynomial 0xEDB88320), by tables. `crc32_raw`
/// neither inverts on entry nor on exit: it is linear in the bytes, so a run of zero
/// bytes can be skipped with a table (crc32_skip_zeros).
inline constexpr std::array<uint32_t, 256> kCrc32Table = [] {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int bit = 0; bit < 8; ++bit) c = (c & 1) != 0 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  return table;
}();

/// Slicing-by-8 (Intel's, Kounavis and Berry 2008): table k advances a byte by k more
/// zero bytes, so eight bytes take eight independent lookups instead of a chain of eight
/// dependent ones. One byte a step was 7 cycles a byte, most of a RoCE frame's cost.
inline constexpr std::array<std::array<uint32_t, 256>, 8> kCrc32Slices = [] {
  std::array<std::array<uint32_t, 256>, 8> t{};
  t[0] = kCrc32Table;
  for (size_t k = 1; k < 8; ++k)
    for (size_t i = 0; i < 256; ++i) t[k][i] = (t[k - 1][i] >> 8) ^ kCrc32Table[t[k - 1][i] & 0xFF];
  return t;
}();

/// Little endian only (every target of linerate): the words are loaded as they lie.
/// Each byte is OR-ed with `ones_mask`'s (nullptr: none), which is how the ICRC's masked
/// fields are set to ones without copying the frame: writing them into a copy byte by
/// byte and loading it by words stalled on store forwarding.
inline uint32_t crc32_raw(uint32_t state, const uint8_t* data, size_t len, const uint8_t* ones_mask = nullptr) noexcept {
  const auto& t = kCrc32Slices;
  for (; len >= 8; data += 8, len -= 8) {
    uint32_t lo;
    uint32_t hi;
    std::memcpy(&lo, data, 4);
    std::memcpy(&hi, data + 4, 4);
    if (ones_mask != nullptr) {
      uint32_t mask_lo;
      uint32_t mask_hi;
      std::memcpy(&mask_lo, ones_mask, 4);
      std::memcpy(&mask_hi, ones_mask + 4, 4);
      lo |= mask_lo;
      hi |= mask_hi;
      ones_mask += 8;
    }
    lo ^= state;
    state = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^ t[4][lo >> 24] ^ t[3][hi & 0xFF] ^
            t[2][(hi >> 8) & 0xFF] ^ t[1][(hi >> 16) & 0xFF] ^ t[0][hi >> 24];
  }
  if (len >= 4) {  // a word by slicing-by-4, the last tables
    uint32_t word;
    std::memcpy(&word, data, 4);
    if (ones_mask != nullptr) {
      uint32_t mask;
      std::memcpy(&mask, ones_mask, 4);
      word |= mask;
      ones_mask += 4;
    }
    word ^= state;
    state = t[3][word & 0xFF] ^ t[2][(word >> 8) & 0xFF] ^ t[1][(word >> 16) & 0xFF] ^ t[0][word >> 24];
    data += 4;
    len -= 4;
  }
  for (size_t i = 0; i < len; ++i) {
    const uint8_t byte = ones_mask != nullptr ? static_cast<uint8_t>(data[i] | ones_mask[i]) : data[i];
    state = kCrc32Table[(state ^ byte) & 0xFF] ^ (state >> 8);
  }
  return state;
}

/// The CRC state after the ICRC's 8 bytes of 0xFF, from the usual all-ones start.
inline constexpr uint32_t kIcrcSeed = [] {
  uint32_t state = 0xFFFFFFFFu;
  for (int i = 0; i < 8; ++i) state = kCrc32Table[(state ^ 0xFF) & 0xFF] ^ (state >> 8);
  return state;
}();

/// A state advanced over a fixed number of zero bytes, as four table lookups: the
/// advance is linear in the state's 32 bits, so each state byte's share is tabled
/// (crc32_zero_skip_table builds the 4 x 256 entries).
inline uint32_t crc32_skip_zeros(uint32_t state, const uint32_t* table) noexcept {
  return table[state & 0xFF] ^ table[256 + ((state >> 8) & 0xFF)] ^ table[512 + ((state >> 16) & 0xFF)] ^
         table[768 + (state >> 24)];
}

/// The table of crc32_skip_zeros for `zeros` bytes, into `table` (1024 entries). Cold.
inline void crc32_zero_skip_table(uint32_t zeros, uint32_t* table) noexcept {
  uint32_t basis[32];  // each state bit advanced on its own
  for (int bit = 0; bit < 32; ++bit) {
    uint32_t state = uint32_t{1} << bit;
    for (uint32_t i = 0; i < zeros; ++i) state = kCrc32Table[state & 0xFF] ^ (state >> 8);
    basis[bit] = state;
  }
  for (int byte = 0; byte < 4; ++byte)
    for (uint32_t value = 0; value < 256; ++value) {
      uint32_t out = 0;
      for (int bit = 0; bit < 8; ++bit)
        if ((value >> bit) & 1) out ^= basis[byte * 8 + bit];
      table[byte * 256 + value] = out;
    }
}

/// Where the parts of a RoCEv2 frame sit, for the ICRC of a frame whose payload is zero
/// but for its last `tail_bytes` (linerate's signature).
struct RoceIcrcLayout {
  uint16_t l3_offset = 14;
  uint16_t headers_end = 0;  ///< after the BTH and its extended header
  uint16_t data_len = 0;     ///< the frame without FCS; the ICRC is its last 4 bytes
  uint16_t tail_bytes = 0;   ///< non-zero bytes just before the ICRC
  bool ipv6 = false;
};

/// The most header bytes an ICRC covers before the payload: IPv6, UDP, BTH, RETH.
inline constexpr uint16_t kRoceMaxHeaderBytes = 40 + 8 + kBthBytes + kRethBytes;

/// The bytes set to ones in the ICRC, over [l3_offset, headers_end): IPv4 TOS, TTL and
/// header checksum, or IPv6 traffic class, flow label and hop limit; the UDP checksum; the
/// BTH's FECN / BECN / reserved byte. `mask` holds headers_end - l3_offset bytes. Cold.
inline void roce_icrc_mask(const RoceIcrcLayout& at, uint8_t* mask) noexcept {
  std::memset(mask, 0, at.headers_end - at.l3_offset);
  uint16_t l4;
  if (!at.ipv6) {
    mask[1] = mask[8] = mask[10] = mask[11] = 0xFF;
    l4 = 20;
  } else {
    mask[0] = 0x0F;
    mask[1] = mask[2] = mask[3] = mask[7] = 0xFF;
    l4 = 40;
  }
  mask[l4 + 6] = mask[l4 + 7] = 0xFF;
  mask[l4 + 8 + 4] = 0xFF;
}

/// The ICRC of `frame` (data_len bytes, the ICRC's own 4 not read): the headers with
/// `mask` (roce_icrc_mask) OR-ed in, the zero payload skipped by `zero_skip` (built for
/// data_len - 4 - headers_end - tail_bytes zeros), then the tail.
inline uint32_t roce_icrc(const uint8_t* frame, const RoceIcrcLayout& at, const uint8_t* mask,
                          const uint32_t* zero_skip) noexcept {
  uint32_t state = crc32_raw(kIcrcSeed, frame + at.l3_offset, at.headers_end - at.l3_offset, mask);
  state = crc32_skip_zeros(state, zero_skip);
  const uint16_t tail = static_cast<uint16_t>(at.data_len - kIcrcBytes - at.tail_bytes);
  state = crc32_raw(state, frame + tail, at.tail_bytes);
  return ~state;
}

/// Writes the ICRC into the frame's last 4 bytes, least significant byte first.
inline void store_icrc(uint8_t* frame, uint16_t data_len, uint32_t icrc) noexcept {
  const uint8_t bytes[4]{static_cast<uint8_t>(icrc), static_cast<uint8_t>(icrc >> 8), static_cast<uint8_t>(icrc >> 16),
                         static_cast<uint8_t>(icrc >> 24)};
  std::memcpy(frame + data_len - kIcrcBytes, bytes, 4);
}

}  // namespace lr::wire
