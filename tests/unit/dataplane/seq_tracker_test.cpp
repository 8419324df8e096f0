#include "dataplane/fastpath/seq_tracker.hpp"

#include <gtest/gtest.h>

#include <initializer_list>

namespace lr::fast {
namespace {

SeqTracker track(std::initializer_list<uint64_t> seqs) {
  SeqTracker t;
  for (uint64_t s : seqs) t.on_seq(s);
  return t;
}

TEST(SeqTracker, InOrderHasNoLossReorderOrDuplicate) {
  SeqTracker t;
  for (uint64_t s = 0; s < 100000; ++s) t.on_seq(s);
  EXPECT_EQ(t.counts().received, 100000u);
  EXPECT_EQ(t.counts().missing, 0u);
  EXPECT_EQ(t.counts().out_of_order, 0u);
  EXPECT_EQ(t.counts().duplicate, 0u);
}

TEST(SeqTracker, GapCountsMissing) {
  const SeqTracker t = track({0, 1, 2, 6, 7});
  EXPECT_EQ(t.counts().missing, 3u);
  EXPECT_EQ(t.counts().received, 5u);
  EXPECT_EQ(t.counts().out_of_order, 0u);
}

TEST(SeqTracker, LateFrameFillsGapAndCountsOutOfOrder) {
  const SeqTracker t = track({0, 2, 1, 3});
  EXPECT_EQ(t.counts().missing, 0u);
  EXPECT_EQ(t.counts().out_of_order, 1u);
  EXPECT_EQ(t.counts().duplicate, 0u);
}

TEST(SeqTracker, SecondCopyIsDuplicateNotReorder) {
  const SeqTracker t = track({0, 1, 2, 2, 1, 3});
  EXPECT_EQ(t.counts().duplicate, 2u);
  EXPECT_EQ(t.counts().out_of_order, 0u);
  EXPECT_EQ(t.counts().missing, 0u);
}

TEST(SeqTracker, DuplicateOfLateFrameIsCountedOnce) {
  const SeqTracker t = track({0, 3, 1, 1, 2});
  EXPECT_EQ(t.counts().out_of_order, 2u);
  EXPECT_EQ(t.counts().duplicate, 1u);
  EXPECT_EQ(t.counts().missing, 0u);
}

TEST(SeqTracker, FrameOlderThanWindowIsBeyondWindow) {
  SeqTracker t;
  t.on_seq(0);
  t.on_seq(SeqTracker::kWindow + 10);  // 4105 missing
  t.on_seq(1);                          // too old to check for duplication
  EXPECT_EQ(t.counts().beyond_window, 1u);
  EXPECT_EQ(t.counts().out_of_order, 1u);
  EXPECT_EQ(t.counts().missing, SeqTracker::kWindow + 9 - 1);
}

TEST(SeqTracker, BitsOfOldFramesDoNotMakeFalseDuplicates) {
  SeqTracker t;
  // Every second frame for several windows: old bits must be cleared as the window slides.
  for (uint64_t s = 0; s < 5 * SeqTracker::kWindow; s += 2) t.on_seq(s);
  // Now the odd ones inside the window arrive late: reorder, never duplicate.
  const uint64_t next = t.counts().next_seq;
  for (uint64_t s = next - SeqTracker::kWindow; s < next; s += 2) t.on_seq(s);  // odd: next is odd
  EXPECT_EQ(t.counts().duplicate, 0u);
  EXPECT_EQ(t.counts().out_of_order, SeqTracker::kWindow / 2);
}

TEST(SeqTracker, ExtendsThirtyTwoBitSequenceAcrossWrap) {
  SeqTracker t;
  for (uint64_t s = 0xFFFFFFF0ull; s < 0x100000010ull; ++s) t.on_seq(t.extend(static_cast<uint32_t>(s)));
  EXPECT_EQ(t.counts().next_seq, 0x100000010ull);
  EXPECT_EQ(t.counts().received, 32u);
  EXPECT_EQ(t.counts().missing, 0xFFFFFFF0ull);  // the first frame seen was 0xFFFFFFF0
  // A late frame from before the wrap extends to below 2^32, not above.
  EXPECT_EQ(t.extend(0xFFFFFFFEu), 0xFFFFFFFEull);
}

}  // namespace
}  // namespace lr::fast
