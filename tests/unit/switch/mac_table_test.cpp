// The learning switch's address table: learn, move, look up, group addresses; its exact
// capacity, its learning rate and aging (the figures RFC 2889 §5.7 / §5.8 measure).
#include "dataplane/switch/mac_table.hpp"

#include <gtest/gtest.h>

#include <array>

namespace lr::sw {
namespace {

constexpr uint64_t kBase = 0x020000000000u;

TEST(MacTable, LearnsMovesAndLooksUp) {
  MacTable t({64, 0, 0});
  const std::array<uint8_t, 6> a{0x02, 0, 0, 0, 0, 0x01};
  const uint64_t mac = MacTable::key(a.data());
  EXPECT_EQ(mac, 0x020000000001u);
  EXPECT_EQ(t.lookup(mac, 0), MacTable::kUnknown);
  t.learn(mac, 2, 0);
  EXPECT_EQ(t.lookup(mac, 0), 2);
  t.learn(mac, 0, 1);  // the station moved
  EXPECT_EQ(t.lookup(mac, 1), 0);
  EXPECT_EQ(t.learned(), 1u);
  EXPECT_EQ(t.entries(), 1u);
  EXPECT_EQ(t.lookup(0x020000000002u, 1), MacTable::kUnknown);
}

TEST(MacTable, GroupAddresses) {
  EXPECT_TRUE(MacTable::is_group(0xFFFFFFFFFFFFu));
  EXPECT_TRUE(MacTable::is_group(0x01005E000001u));
  EXPECT_TRUE(MacTable::is_group(0x0180C2000001u));
  EXPECT_FALSE(MacTable::is_group(0x020000000001u));
}

// Whatever the addresses hash to, it holds exactly its capacity: consecutive ones, and
// ones that differ only in their high bytes.
TEST(MacTable, HoldsExactlyItsCapacityAndKeepsWhatItLearned) {
  for (const uint64_t stride : {uint64_t{1}, uint64_t{1} << 24, uint64_t{0x10001}}) {
    MacTable t({1000, 0, 0});
    for (uint64_t i = 0; i < 1500; ++i) t.learn(kBase + i * stride, static_cast<int16_t>(i % 3), i);
    EXPECT_EQ(t.entries(), 1000u) << stride;
    EXPECT_EQ(t.learned(), 1000u);
    EXPECT_EQ(t.full(), 500u);
    for (uint64_t i = 0; i < 1000; ++i) ASSERT_EQ(t.lookup(kBase + i * stride, 2000), static_cast<int16_t>(i % 3));
    for (uint64_t i = 1000; i < 1500; ++i) ASSERT_EQ(t.lookup(kBase + i * stride, 2000), MacTable::kUnknown);
    t.learn(kBase, 1, 3000);  // one it knows moves: no room needed
    EXPECT_EQ(t.lookup(kBase, 3000), 1);
    EXPECT_EQ(t.full(), 500u);
  }
}

// 10,000 new addresses per second at 1 GHz: one per 100,000 cycles, a burst of kLearnBurst.
TEST(MacTable, LearnsNoFasterThanItsRate) {
  MacTable t({8192, 0, 100'000});
  // At its rate: every one.
  for (uint64_t i = 0; i < 100; ++i) t.learn(kBase + i, 0, i * 100'000);
  EXPECT_EQ(t.learned(), 100u);
  EXPECT_EQ(t.rate_limited(), 0u);
  // Twice as fast for 1,000 addresses (50 ms): its rate's 500, and the burst.
  const uint64_t from = 100 * 100'000;
  for (uint64_t i = 0; i < 1000; ++i) t.learn(kBase + 1000 + i, 0, from + i * 50'000);
  EXPECT_EQ(t.learned() - 100, 500u + MacTable::kLearnBurst - 1);
  EXPECT_EQ(t.rate_limited(), 1000u - (500u + MacTable::kLearnBurst - 1));
  // What it refused is unknown, its frames flood.
  uint64_t unknown = 0;
  for (uint64_t i = 0; i < 1000; ++i) unknown += t.lookup(kBase + 1000 + i, from + 50'000'000) == MacTable::kUnknown;
  EXPECT_EQ(unknown, t.rate_limited());
}

TEST(MacTable, AddressesAgeOutAndTheSweepFreesTheirSlots) {
  MacTable t({100, 1000, 0});
  for (uint64_t i = 0; i < 100; ++i) t.learn(kBase + i, 1, 0);
  EXPECT_EQ(t.lookup(kBase + 7, 1000), 1);  // not yet
  t.learn(kBase + 7, 1, 900);               // seen again: young again
  EXPECT_EQ(t.lookup(kBase + 6, 1001), MacTable::kUnknown);
  EXPECT_EQ(t.lookup(kBase + 7, 1001), 1);
  t.learn(kBase + 500, 1, 1001);  // full until the sweep frees the aged slots
  EXPECT_EQ(t.full(), 1u);
  t.sweep_all(1001);
  EXPECT_EQ(t.aged(), 99u);
  EXPECT_EQ(t.entries(), 1u);
  EXPECT_EQ(t.lookup(kBase + 7, 1001), 1);  // the young one survived the shifts
  for (uint64_t i = 0; i < 99; ++i) t.learn(kBase + 200 + i, 0, 1002);
  EXPECT_EQ(t.entries(), 100u);
  for (uint64_t i = 0; i < 99; ++i) ASSERT_EQ(t.lookup(kBase + 200 + i, 1002), 0);
  t.reset_counters();
  EXPECT_EQ(t.learned(), 0u);
  EXPECT_EQ(t.entries(), 100u);
}

// Removal shifts runs back: after removing many from a crowded table, every address left
// is still found (a hole left in a run would hide those after it).
TEST(MacTable, RemovalKeepsEveryRunReachable) {
  MacTable t({4096, 10, 0});
  for (uint64_t i = 0; i < 4096; ++i) t.learn(kBase + i * 977, 0, i % 2 == 0 ? 0 : 1'000'000);
  t.sweep_all(500'000);  // the even ones aged
  EXPECT_EQ(t.aged(), 2048u);
  for (uint64_t i = 1; i < 4096; i += 2) ASSERT_EQ(t.lookup(kBase + i * 977, 1'000'000), 0) << i;
  for (uint64_t i = 0; i < 4096; i += 2) ASSERT_EQ(t.lookup(kBase + i * 977, 1'000'000), MacTable::kUnknown) << i;
}

}  // namespace
}  // namespace lr::sw
