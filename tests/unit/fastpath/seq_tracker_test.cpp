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

// A walk of `frames` sequences, each in order but one in `one_in`: then a burst loss,
// a late frame or a second copy (within the window or past it). The tracker, fed the
// 64-bit sequence (on_seq) or the wire's 32 bits (record), counts as the model frame by
// frame; returns the model's counts.
SeqTracker::Counts walk_against_model(uint64_t seed, int frames, uint64_t one_in, bool wire_sequence) {
  std::mt19937_64 rng(seed);
  SeqTracker t;
  ReferenceTracker ref;
  uint64_t seq = 0;
  for (int i = 0; i < frames; ++i) {
    const uint64_t kind = rng() % one_in;
    uint64_t s = seq;
    if (kind == 0) s = seq + rng() % (SeqTracker::kWindow + 200);  // a burst loss
    else if (kind == 1 && seq > 0) s = seq - 1 - rng() % std::min<uint64_t>(seq, SeqTracker::kWindow + 100);  // late or copy
    else if (kind == 2 && seq > 0) s = seq - 1 - rng() % std::min<uint64_t>(seq, 64);  // most likely a copy
    if (wire_sequence) t.record(static_cast<uint32_t>(s));
    else t.on_seq(s);
    ref.on_seq(s);
    if (s >= seq) seq = s + 1;
    EXPECT_EQ(t.counts().duplicate, ref.c.duplicate) << "frame " << i;
    EXPECT_EQ(t.counts().out_of_order, ref.c.out_of_order) << "frame " << i;
    EXPECT_EQ(t.counts().missing, ref.c.missing) << "frame " << i;
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(t.counts().received, ref.c.received);
  EXPECT_EQ(t.counts().next_seq, ref.c.next_seq);
  EXPECT_EQ(t.counts().beyond_window, ref.c.beyond_window);
  return ref.c;
}

// Gaps of every length up to past the window, at every bit offset, with late frames
// and second copies in between: the word-wise marking counts exactly as the model.
TEST(SeqTracker, GapsMarkedByWordsCountLikeTheBitByBitModel) {
  const SeqTracker::Counts c = walk_against_model(7, 200000, 16, false);
  EXPECT_GT(c.duplicate, 1000u);  // the walk did exercise every case
  EXPECT_GT(c.beyond_window, 100u);
}

// record() counts a frame in order with nothing missing in the window without touching
// the bitmap: a walk mostly in order (so that path runs) counts as the model too.
TEST(SeqTracker, RecordOfWireSequencesCountsLikeTheModel) {
  const SeqTracker::Counts c = walk_against_model(11, 300000, 512, true);
  EXPECT_GT(c.duplicate, 100u);
  EXPECT_GT(c.out_of_order, 100u);
  EXPECT_GT(c.beyond_window, 10u);
}

// After a loss the window holds a missing frame until it slides past it: a copy of a
// frame that arrived in order is a duplicate throughout, the missing one late is out of
// order while in the window and beyond it after.
TEST(SeqTracker, FramesInOrderAroundALossKeepTheirDuplicatesAndLateFrames) {
  SeqTracker t;
  for (uint32_t s = 0; s < 100; ++s) t.record(s);
  for (uint32_t s = 101; s < 200; ++s) t.record(s);  // 100 lost
  t.record(150);                                     // a second copy
  EXPECT_EQ(t.counts().duplicate, 1u);
  EXPECT_EQ(t.counts().missing, 1u);
  for (uint32_t s = 200; s < 100 + SeqTracker::kWindow + 10; ++s) t.record(s);  // 100 leaves the window
  t.record(100 + SeqTracker::kWindow);  // a copy of a frame in order with nothing missing
  EXPECT_EQ(t.counts().duplicate, 2u);
  t.record(100);  // too late to tell
  EXPECT_EQ(t.counts().beyond_window, 1u);
  EXPECT_EQ(t.counts().out_of_order, 1u);
  EXPECT_EQ(t.counts().missing, 0u);
  SeqTracker u;
  for (uint32_t s = 0; s < 100; ++s) u.record(s);
  u.record(101);
  for (uint32_t s = 102; s < 1000; ++s) u.record(s);
  u.record(100);  // late, within the window
  EXPECT_EQ(u.counts().out_of_order, 1u);
  EXPECT_EQ(u.counts().duplicate, 0u);
  EXPECT_EQ(u.counts().missing, 0u);
  u.record(100);  // and now a copy
  EXPECT_EQ(u.counts().duplicate, 1u);
  EXPECT_EQ(u.counts().received, 1001u);
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
