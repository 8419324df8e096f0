#include "dataplane/fastpath/mac_control_counts.hpp"

#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "tests/support/mac_control_frames.hpp"

namespace lr::fast {
namespace {

std::array<uint8_t, 60> frame(uint16_t opcode, uint16_t word16, std::array<uint16_t, 8> quanta = {}) {
  return test::mac_control_frame(opcode, word16, quanta);
}

TEST(MacControlCounts, OnlyMinimumSizeFramesOfEtherType8808AreMacControl) {
  const auto pfc = frame(0x0101, 0x0008, {0, 0, 0, 100});
  EXPECT_TRUE(wire::is_mac_control(pfc.data(), 60));
  EXPECT_FALSE(wire::is_mac_control(pfc.data(), 61));  // a longer frame is not read at all
  auto ipv4 = pfc;
  ipv4[12] = 0x08;
  ipv4[13] = 0x00;
  EXPECT_FALSE(wire::is_mac_control(ipv4.data(), 60));
}

TEST(MacControlCounts, PfcCountsEachEnabledPriorityAndIgnoresTheOthers) {
  MacControlCounts c;
  // Priority 3 XOFF 0xFFFF, priority 5 XON; priority 6's quanta set but its bit clear;
  // the reserved high byte set (a receiver must ignore it).
  count_mac_control(c, frame(0x0101, 0xFF28, {0, 0, 0, 0xFFFF, 0, 0, 777, 0}).data(), 1000);
  count_mac_control(c, frame(0x0101, 0x0008, {0, 0, 0, 10, 0, 0, 0, 0}).data(), 2000);
  EXPECT_EQ(c.pfc_frames, 2u);
  EXPECT_EQ(c.pause_frames, 0u);
  EXPECT_EQ(c.pfc[3].xoff, 2u);
  EXPECT_EQ(c.pfc[3].xon, 0u);
  EXPECT_EQ(c.pfc[3].quanta, 0xFFFFu + 10u);
  EXPECT_EQ(c.pfc[5].xoff, 0u);
  EXPECT_EQ(c.pfc[5].xon, 1u);
  EXPECT_EQ(c.pfc[5].quanta, 0u);
  for (unsigned p : {0u, 1u, 2u, 4u, 6u, 7u}) {
    EXPECT_EQ(c.pfc[p].xoff + c.pfc[p].xon + c.pfc[p].quanta, 0u) << "priority " << p;
  }
  EXPECT_EQ(c.first_tsc, 1000u);
  EXPECT_EQ(c.last_tsc, 2000u);
}

TEST(MacControlCounts, PauseAndUnknownOpcodesAreCountedApart) {
  MacControlCounts c;
  count_mac_control(c, frame(0x0001, 0xFFFF).data(), 5);
  count_mac_control(c, frame(0x0001, 0).data(), 6);
  count_mac_control(c, frame(0x0002, 0x1234).data(), 7);  // GATE (EPON), not ours to read
  EXPECT_EQ(c.pause_frames, 2u);
  EXPECT_EQ(c.pause.xoff, 1u);
  EXPECT_EQ(c.pause.xon, 1u);
  EXPECT_EQ(c.pause.quanta, 0xFFFFu);
  EXPECT_EQ(c.other_frames, 1u);
  EXPECT_EQ(c.pfc_frames, 0u);
  EXPECT_EQ(c.first_tsc, 5u);
  EXPECT_EQ(c.last_tsc, 7u);
}

// A PAUSE frame's quanta sit where PFC's class-enable vector does: a PAUSE read as PFC
// (or the reverse) would count priorities that were never asked.
TEST(MacControlCounts, OpcodeDecidesTheLayout) {
  MacControlCounts c;
  count_mac_control(c, frame(0x0001, 0x00FF, {1, 1, 1, 1, 1, 1, 1, 1}).data(), 1);
  for (unsigned p = 0; p < 8; ++p) EXPECT_EQ(c.pfc[p].xoff, 0u);
  EXPECT_EQ(c.pause.quanta, 0xFFu);
}

}  // namespace
}  // namespace lr::fast
