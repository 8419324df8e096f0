#include "lib/wire/ecn.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace lr::wire {
namespace {

// Ethernet with `tags` VLAN tags, then `type` and an L3 header whose first two bytes
// are `b0`, `b1` (the rest zero): enough for the ECN bits.
std::vector<uint8_t> frame(std::vector<uint16_t> tags, uint16_t type, uint8_t b0, uint8_t b1) {
  std::vector<uint8_t> f(12, 0);
  for (uint16_t tpid : tags) f.insert(f.end(), {static_cast<uint8_t>(tpid >> 8), static_cast<uint8_t>(tpid), 0x60, 0x0A});
  f.insert(f.end(), {static_cast<uint8_t>(type >> 8), static_cast<uint8_t>(type), b0, b1});
  f.resize(std::max<size_t>(f.size(), 60), 0);
  return f;
}

uint8_t ecn_of(const std::vector<uint8_t>& f) { return ecn_codepoint(f.data(), static_cast<uint32_t>(f.size())); }

TEST(Ecn, Ipv4TosLowBits) {
  EXPECT_EQ(ecn_of(frame({}, 0x0800, 0x45, 0x68 | 3)), 3);  // DSCP 26, CE
  EXPECT_EQ(ecn_of(frame({}, 0x0800, 0x45, 0x68 | 2)), 2);  // ECT(0)
  EXPECT_EQ(ecn_of(frame({}, 0x0800, 0x45, 0x68)), 0);
}

TEST(Ecn, Ipv6TrafficClassAcrossItsTwoBytes) {
  // Version 6, traffic class 0x6B (DSCP 26, CE): 0x66, 0xB0.
  EXPECT_EQ(ecn_of(frame({}, 0x86DD, 0x66, 0xB0)), 3);
  EXPECT_EQ(ecn_of(frame({}, 0x86DD, 0x66, 0x90)), 1);  // ECT(1)
  EXPECT_EQ(ecn_of(frame({}, 0x86DD, 0x66, 0x8F)), 0);  // the flow label's bits are not ECN
}

TEST(Ecn, FoundBehindOneOrTwoVlanTags) {
  EXPECT_EQ(ecn_of(frame({0x8100}, 0x0800, 0x45, 0x03)), 3);
  EXPECT_EQ(ecn_of(frame({0x88A8, 0x8100}, 0x86DD, 0x60, 0x30)), 3);
}

TEST(Ecn, NotIpOrTooShortSaysSo) {
  EXPECT_EQ(ecn_of(frame({}, 0x0806, 0x00, 0x03)), kNoEcn);                   // ARP
  EXPECT_EQ(ecn_of(frame({0x8100, 0x8100, 0x8100}, 0x0800, 0x45, 3)), kNoEcn);  // a third tag: not looked behind
  const std::vector<uint8_t> f = frame({}, 0x0800, 0x45, 3);
  EXPECT_EQ(ecn_codepoint(f.data(), 15), kNoEcn);
  EXPECT_EQ(ecn_codepoint(f.data(), 16), 3);
}

}  // namespace
}  // namespace lr::wire
