#include "lib/wire/signature.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "lib/wire/checksum.hpp"

namespace lr::wire {
namespace {

TEST(Signature, RoundTripsEveryField) {
  uint8_t bytes[kSignatureBytes];
  write_signature(bytes, Signature{65535, 255, 0xFFFFFFFEu, 0x80000001u});
  Signature sig;
  ASSERT_TRUE(read_signature(bytes, sig));
  EXPECT_EQ(sig.stream_id, 65535);
  EXPECT_EQ(sig.lane, 255);
  EXPECT_EQ(sig.seq, 0xFFFFFFFEu);
  EXPECT_EQ(sig.tx_ns, 0x80000001u);
}

TEST(Signature, AnyCorruptedByteIsRejected) {
  uint8_t bytes[kSignatureBytes];
  write_signature(bytes, Signature{3, 1, 77, 1234});
  for (int i = 0; i < kSignatureBytes; ++i) {
    uint8_t copy[kSignatureBytes];
    std::copy(bytes, bytes + kSignatureBytes, copy);
    copy[i] ^= 0x01;
    Signature sig;
    EXPECT_FALSE(read_signature(copy, sig)) << "byte " << i;
  }
}

TEST(Signature, RegisterChecksumEqualsByteSumAtBothAlignments) {
  for (uint32_t seq : {0u, 1u, 0x00FFFFFFu, 0x01000000u, 0xDEADBEEFu, 0xFFFFFFFFu}) {
    const Signature sig{0xA1B2, 7, seq, seq * 2654435761u};
    uint8_t bytes[kSignatureBytes];
    write_signature(bytes, sig);
    const SignatureWords words = encode_signature(sig);
    EXPECT_EQ(csum_fold(signature_csum(words, false)), csum_fold(csum_partial(bytes, kSignatureBytes, false)));
    EXPECT_EQ(csum_fold(signature_csum(words, true)), csum_fold(csum_partial(bytes, kSignatureBytes, true)));
    EXPECT_EQ(bytes[13], signature_check(bytes)) << "register and memory check bytes agree";
  }
}

TEST(Signature, FoundAtEndOfFrame) {
  std::vector<uint8_t> frame(60, 0);
  write_signature(frame.data() + 46, Signature{9, 0, 5, 0});
  Signature sig;
  ASSERT_TRUE(locate_signature(frame.data(), 60, sig));
  EXPECT_EQ(sig.stream_id, 9);
}

// A 64-byte frame with a VLAN tag stripped on the way is 56 bytes, padded back to 60
// by the next hop: the signature is then found from the IPv4 total length.
TEST(Signature, FoundAfterVlanStripAndPadding) {
  std::vector<uint8_t> frame(60, 0);
  frame[12] = 0x08;  // IPv4, no tag any more
  frame[13] = 0x00;
  store_be16(frame.data() + 14 + 2, 42);  // IPv4 total length: 20 + 8 + 14
  write_signature(frame.data() + 14 + 42 - kSignatureBytes, Signature{4, 2, 99, 0});
  Signature sig;
  ASSERT_TRUE(locate_signature(frame.data(), 60, sig));
  EXPECT_EQ(sig.stream_id, 4);
  EXPECT_EQ(sig.seq, 99u);
}

TEST(Signature, ShortOrForeignFramesHaveNone) {
  std::vector<uint8_t> frame(60, 0xAB);
  Signature sig;
  EXPECT_FALSE(locate_signature(frame.data(), 60, sig));
  EXPECT_FALSE(locate_signature(frame.data(), 10, sig));
  frame[12] = 0x08;
  frame[13] = 0x00;
  store_be16(frame.data() + 16, 0xFFFF);  // IP length beyond the frame
  EXPECT_FALSE(locate_signature(frame.data(), 60, sig));
}

// Frames off the wire are arbitrary: no length or header value may make the parser read
// outside the frame (the sanitizer build checks every access) or invent a signature.
TEST(Signature, ArbitraryFramesNeverReadOutsideOrMatch) {
  std::mt19937 rng(1);
  uint64_t found = 0;
  for (int round = 0; round < 200000; ++round) {
    const size_t len = rng() % 130;
    std::vector<uint8_t> frame(len);
    for (auto& b : frame) b = static_cast<uint8_t>(rng());
    if (len >= 14 && rng() % 2) {  // plausible headers: VLAN stacks, IPv4 / IPv6, wild lengths
      frame[12] = rng() % 3 == 0 ? 0x81 : rng() % 2 ? 0x08 : 0x86;
      frame[13] = frame[12] == 0x81 ? 0x00 : frame[12] == 0x08 ? 0x00 : 0xDD;
    }
    Signature sig;
    found += locate_signature(frame.data(), static_cast<uint32_t>(len), sig) ? 1 : 0;
  }
  // Random bytes pass the 16-bit magic and the check byte about once in 2^24 tries.
  EXPECT_LE(found, 1u);
}

}  // namespace
}  // namespace lr::wire
