// The learning switch's address table: learn, move, look up, group addresses, and a full
// neighbourhood that learns nothing more rather than evicting.
#include "dataplane/switch/mac_table.hpp"

#include <gtest/gtest.h>

#include <array>

namespace lr::sw {
namespace {

TEST(MacTable, LearnsMovesAndLooksUp) {
  MacTable t(64);
  const std::array<uint8_t, 6> a{0x02, 0, 0, 0, 0, 0x01};
  const uint64_t mac = MacTable::key(a.data());
  EXPECT_EQ(mac, 0x020000000001u);
  EXPECT_EQ(t.lookup(mac), MacTable::kUnknown);
  t.learn(mac, 2);
  EXPECT_EQ(t.lookup(mac), 2);
  t.learn(mac, 0);  // the station moved
  EXPECT_EQ(t.lookup(mac), 0);
  EXPECT_EQ(t.learned(), 1u);
  EXPECT_EQ(t.lookup(0x020000000002u), MacTable::kUnknown);
}

TEST(MacTable, GroupAddresses) {
  EXPECT_TRUE(MacTable::is_group(0xFFFFFFFFFFFFu));
  EXPECT_TRUE(MacTable::is_group(0x01005E000001u));
  EXPECT_TRUE(MacTable::is_group(0x0180C2000001u));
  EXPECT_FALSE(MacTable::is_group(0x020000000001u));
}

TEST(MacTable, AFullTableKeepsWhatItLearned) {
  MacTable t(16);  // one probe run covers the whole table
  for (uint64_t i = 0; i < 16; ++i) t.learn(0x020000000000u + i, static_cast<int16_t>(i % 3));
  EXPECT_EQ(t.learned(), 16u);
  t.learn(0x02000000FFFFu, 1);
  EXPECT_EQ(t.full(), 1u);
  EXPECT_EQ(t.lookup(0x02000000FFFFu), MacTable::kUnknown);
  for (uint64_t i = 0; i < 16; ++i) EXPECT_EQ(t.lookup(0x020000000000u + i), static_cast<int16_t>(i % 3));
}

}  // namespace
}  // namespace lr::sw
