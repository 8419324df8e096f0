#include "dataplane/fastpath/seq_tracker.hpp"

#include <gtest/gtest.h>

#include <initializer_list>
#include <random>
#include <set>

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

// A model of the contract, bit by bit over a std::set: what arrived within the window.
struct ReferenceTracker {
  SeqTracker::Counts c;
  std::set<uint64_t> seen;
  void on_seq(uint64_t seq) {
    ++c.received;
    if (seq >= c.next_seq) {
      c.missing += seq - c.next_seq;
      seen.insert(seq);
      c.next_seq = seq + 1;
    } else if (c.next_seq - seq > SeqTracker::kWindow) {
      ++c.out_of_order, ++c.beyond_window;
      if (c.missing != 0) --c.missing;
    } else if (!seen.insert(seq).second) {
      ++c.duplicate;
    } else {
      ++c.out_of_order;
      if (c.missing != 0) --c.missing;
    }
    while (!seen.empty() && *seen.begin() + SeqTracker::kWindow < c.next_seq) seen.erase(seen.begin());
  }
};

// Gaps of every length up to past the window, at every bit offset, with late frames
// and second copies in between: the word-wise clearing counts exactly as the model.
TEST(SeqTracker, GapsClearedByWordsCountLikeTheBitByBitModel) {
  std::mt19937_64 rng(7);
  SeqTracker t;
  ReferenceTracker ref;
  uint64_t seq = 0;
  for (int i = 0; i < 200000; ++i) {
    const uint64_t kind = rng() % 16;
    uint64_t s = seq;
    if (kind == 0) s = seq + rng() % (SeqTracker::kWindow + 200);  // a burst loss
    else if (kind == 1 && seq > 0) s = seq - 1 - rng() % std::min<uint64_t>(seq, SeqTracker::kWindow + 100);  // late or copy
    else if (kind == 2 && seq > 0) s = seq - 1 - rng() % std::min<uint64_t>(seq, 64);  // most likely a copy
    t.on_seq(s);
    ref.on_seq(s);
    if (s >= seq) seq = s + 1;
    ASSERT_EQ(t.counts().duplicate, ref.c.duplicate) << "frame " << i;
    ASSERT_EQ(t.counts().out_of_order, ref.c.out_of_order) << "frame " << i;
  }
  EXPECT_EQ(t.counts().received, ref.c.received);
  EXPECT_EQ(t.counts().missing, ref.c.missing);
  EXPECT_EQ(t.counts().beyond_window, ref.c.beyond_window);
  EXPECT_GT(ref.c.duplicate, 1000u);  // the walk did exercise every case
  EXPECT_GT(ref.c.beyond_window, 100u);
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
