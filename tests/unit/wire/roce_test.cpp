// The ICRC pieces on their own: skipping a run of zero bytes by table gives the state the
// byte-by-byte CRC reaches, and the ICRC of a frame equals a CRC-32 over the masked
// pseudo-packet written out whole; the receiver finds a signature placed before an ICRC.

#include "lib/wire/roce.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "lib/wire/signature.hpp"

namespace lr::wire {
namespace {

TEST(Crc32, SkippingZerosByTableEqualsStepping) {
  std::vector<uint32_t> table(1024);
  for (const uint32_t zeros : {0u, 1u, 3u, 64u, 1000u, 9000u}) {
    crc32_zero_skip_table(zeros, table.data());
    const std::vector<uint8_t> none(zeros, 0);
    for (const uint32_t state : {0u, 1u, 0x80000000u, 0xDEADBEEFu, 0xFFFFFFFFu}) {
      EXPECT_EQ(crc32_skip_zeros(state, table.data()), crc32_raw(state, none.data(), none.size()))
          << zeros << " zeros from " << state;
    }
  }
}

TEST(Crc32, IsTheEthernetCrc) {
  // The check value of CRC-32/ISO-HDLC: "123456789" -> 0xCBF43926.
  const uint8_t digits[] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
  EXPECT_EQ(~crc32_raw(0xFFFFFFFFu, digits, sizeof digits), 0xCBF43926u);
  // By slices of 8 and byte by byte alike, at every length and with a mask OR-ed in.
  std::vector<uint8_t> bytes(77);
  std::vector<uint8_t> mask(77);
  for (size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] = static_cast<uint8_t>(i * 131 + 7);
    mask[i] = i % 5 == 0 ? 0xFF : i % 7 == 0 ? 0x0F : 0;
  }
  for (size_t len = 0; len <= bytes.size(); ++len) {
    uint32_t one_by_one = 0x12345678u;
    uint32_t masked_one_by_one = 0x12345678u;
    for (size_t i = 0; i < len; ++i) {
      one_by_one = kCrc32Table[(one_by_one ^ bytes[i]) & 0xFF] ^ (one_by_one >> 8);
      masked_one_by_one = kCrc32Table[(masked_one_by_one ^ (bytes[i] | mask[i])) & 0xFF] ^ (masked_one_by_one >> 8);
    }
    EXPECT_EQ(crc32_raw(0x12345678u, bytes.data(), len), one_by_one) << len;
    EXPECT_EQ(crc32_raw(0x12345678u, bytes.data(), len, mask.data()), masked_one_by_one) << len;
  }
}

// An IPv4 RoCEv2 frame with a non-zero payload only at its tail: the ICRC by pieces
// against the CRC of the masked packet built in full.
TEST(RoceIcrc, EqualsTheCrcOfTheMaskedPacket) {
  std::vector<uint8_t> frame(14 + 20 + 8 + 12 + 40 + 14 + 4, 0);
  for (size_t i = 14; i < 14 + 20 + 8 + 12; ++i) frame[i] = static_cast<uint8_t>(i * 37);
  frame[14] = 0x45;
  for (size_t i = 0; i < 14; ++i) frame[frame.size() - 18 + i] = static_cast<uint8_t>(0xA0 + i);
  const auto data_len = static_cast<uint16_t>(frame.size());
  const RoceIcrcLayout layout{14, 14 + 20 + 8 + 12, data_len, kSignatureBytes, false};
  std::vector<uint32_t> skip(1024);
  crc32_zero_skip_table(40, skip.data());
  std::vector<uint8_t> mask(layout.headers_end - layout.l3_offset);
  roce_icrc_mask(layout, mask.data());

  std::vector<uint8_t> masked(8, 0xFF);
  masked.insert(masked.end(), frame.begin() + 14, frame.end() - 4);
  masked[8 + 1] = 0xFF;                          // TOS
  masked[8 + 8] = 0xFF;                          // TTL
  masked[8 + 10] = masked[8 + 11] = 0xFF;        // IPv4 checksum
  masked[8 + 26] = masked[8 + 27] = 0xFF;        // UDP checksum
  masked[8 + 32] = 0xFF;                         // BTH byte 4
  EXPECT_EQ(roce_icrc(frame.data(), layout, mask.data(), skip.data()), ~crc32_raw(0xFFFFFFFFu, masked.data(), masked.size()));
  // A router's changes to the masked fields leave the ICRC as it was.
  const uint32_t before = roce_icrc(frame.data(), layout, mask.data(), skip.data());
  frame[14 + 1] ^= 0x03;  // ECN marked CE
  frame[14 + 8] -= 1;     // TTL
  frame[14 + 10] ^= 0x55;
  EXPECT_EQ(roce_icrc(frame.data(), layout, mask.data(), skip.data()), before);
  frame[14 + 20 + 8 + 5] ^= 1;  // but not the destination QP's
  EXPECT_NE(roce_icrc(frame.data(), layout, mask.data(), skip.data()), before);
}

TEST(RoceSignature, FoundBeforeTheIcrc) {
  std::vector<uint8_t> frame(100, 0);
  write_signature(frame.data() + 100 - kSignatureBeforeIcrc, Signature{9, 2, 77, 1234});
  for (size_t i = 96; i < 100; ++i) frame[i] = static_cast<uint8_t>(0x5A + i);  // an ICRC
  Signature sig;
  ASSERT_TRUE(locate_signature(frame.data(), 100, sig));
  EXPECT_EQ(sig.stream_id, 9);
  EXPECT_EQ(sig.lane, 2);
  EXPECT_EQ(sig.seq, 77u);
  EXPECT_EQ(sig.tx_ns, 1234u);
  frame[100 - kSignatureBeforeIcrc + 13] ^= 1;  // a broken check byte: nothing found
  EXPECT_FALSE(locate_signature(frame.data(), 100, sig));
}

}  // namespace
}  // namespace lr::wire
