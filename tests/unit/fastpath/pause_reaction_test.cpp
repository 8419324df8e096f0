// PFC / PAUSE honoured in software, on a virtual clock: 2.5 GHz TSC at 40 Gbit/s makes
// one quantum (512 bit times, 12.8 ns) exactly 32 cycles.
#include "dataplane/fastpath/pause_reaction.hpp"

#include <gtest/gtest.h>

#include <array>
#include <memory>

#include "tests/support/mac_control_frames.hpp"
#include "tests/support/virtual_tsc.hpp"

namespace lr::fast {
namespace {

using test::kTscHz;
constexpr uint64_t kSpeed = 40'000'000'000;
constexpr uint64_t kQuantum = 32;  // cycles

using test::pause_frame;
using test::pfc_frame;

std::array<uint16_t, 8> only(unsigned priority, uint16_t quanta) {
  std::array<uint16_t, 8> q{};
  q[priority] = quanta;
  return q;
}

struct Rig {
  PortPause port;
  std::unique_ptr<PauseReaction> reaction = std::make_unique<PauseReaction>();
  LanePause p3{&port, 3};
  LanePause p5{&port, 5};
  LanePause untagged{&port, kLinkPauseClass};

  explicit Rig(uint64_t delay_tsc = 0) {
    reaction->port = &port;
    reaction->quantum_tsc_q16 = quantum_tsc_q16(kSpeed, kTscHz);
    reaction->delay_tsc = delay_tsc;
  }
  void receive(const std::array<uint8_t, 60>& frame, uint64_t tsc) { react_to_mac_control(*reaction, frame.data(), tsc); }
};

TEST(PauseReaction, OneQuantumIs512BitTimes) {
  EXPECT_EQ(quantum_tsc_q16(kSpeed, kTscHz), kQuantum << 16);
  EXPECT_EQ(quantum_tsc_q16(10'000'000'000, 1'000'000'000), 3355443u);  // 51.2 cycles
  EXPECT_EQ(quantum_tsc_q16(0, kTscHz), 0u);
}

TEST(PauseReaction, XoffHoldsOnlyItsPriorityForItsQuanta) {
  Rig rig;
  rig.receive(pfc_frame(0x08, only(3, 1000)), 1000);
  const uint64_t end = 1000 + 1000 * kQuantum;
  EXPECT_TRUE(lane_paused(rig.p3, 1000));
  EXPECT_TRUE(lane_paused(rig.p3, end - 1));
  EXPECT_FALSE(lane_paused(rig.p5, 1000));
  EXPECT_FALSE(lane_paused(rig.untagged, 1000));
  EXPECT_FALSE(lane_paused(rig.p3, end + 500));  // seen late: the pause still ended at `end`
  EXPECT_EQ(rig.p3.paused_tsc, end - 1000);
  EXPECT_EQ(rig.p5.paused_tsc, 0u);
  EXPECT_EQ(rig.reaction->applied, 1u);
}

TEST(PauseReaction, XonEndsThePauseAndARefreshReplacesIt) {
  Rig rig;
  rig.receive(pfc_frame(0x08, only(3, 65535)), 0);
  EXPECT_TRUE(lane_paused(rig.p3, 10));
  rig.receive(pfc_frame(0x08, only(3, 0)), 5000);  // XON
  EXPECT_FALSE(lane_paused(rig.p3, 5001));
  EXPECT_EQ(rig.p3.paused_tsc, 5000u - 10u);
  // A refresh sets the timer anew, shorter too: it does not keep the longer one.
  rig.receive(pfc_frame(0x08, only(3, 1000)), 10'000);
  rig.receive(pfc_frame(0x08, only(3, 10)), 10'100);
  EXPECT_TRUE(lane_paused(rig.p3, 10'100));
  EXPECT_FALSE(lane_paused(rig.p3, 10'100 + 10 * kQuantum));
}

TEST(PauseReaction, PauseHoldsEveryLaneAndPfcReservedBitsAreNoPriorities) {
  Rig rig;
  rig.receive(pause_frame(100), 0);
  for (LanePause* lane : {&rig.p3, &rig.p5, &rig.untagged}) EXPECT_TRUE(lane_paused(*lane, 1));
  for (LanePause* lane : {&rig.p3, &rig.p5, &rig.untagged}) EXPECT_FALSE(lane_paused(*lane, 100 * kQuantum));
  EXPECT_EQ(rig.untagged.paused_tsc, 100 * kQuantum - 1);
  // Reserved bits 8-15 set, priority 5 not enabled although its quanta are: only 3 holds.
  rig.receive(pfc_frame(0xFF08, {0, 0, 0, 50, 0, 50, 0, 0}), 10'000);
  EXPECT_TRUE(lane_paused(rig.p3, 10'001));
  EXPECT_FALSE(lane_paused(rig.p5, 10'001));
  EXPECT_FALSE(lane_paused(rig.untagged, 10'001));
}

TEST(PauseReaction, TheReactionDelayShiftsThePauseByExactlyIt) {
  constexpr uint64_t kDelay = 400 * kQuantum;  // pfc_reaction_delay = 400 (quanta)
  Rig rig(kDelay);
  rig.receive(pfc_frame(0x08, only(3, 1000)), 1000);
  apply_due_pauses(*rig.reaction, 1000 + kDelay - 1);
  EXPECT_FALSE(lane_paused(rig.p3, 1000 + kDelay - 1)) << "still within the delay: frames keep flowing";
  apply_due_pauses(*rig.reaction, 1000 + kDelay);
  EXPECT_TRUE(lane_paused(rig.p3, 1000 + kDelay));
  EXPECT_FALSE(lane_paused(rig.p3, 1000 + kDelay + 1000 * kQuantum));
  EXPECT_EQ(rig.p3.paused_tsc, 1000 * kQuantum);
}

TEST(PauseReaction, AFullQueueOfPendingPausesAppliesTheOldestEarlyAndCountsIt) {
  Rig rig(1'000'000);
  for (uint32_t i = 0; i < PauseReaction::kPending; ++i) rig.receive(pfc_frame(0x08, only(3, 1)), i);
  EXPECT_EQ(rig.reaction->applied, 0u);
  rig.receive(pfc_frame(0x08, only(3, 1)), PauseReaction::kPending);
  EXPECT_EQ(rig.reaction->applied, 1u);
  EXPECT_EQ(rig.reaction->applied_early, 1u);
  apply_due_pauses(*rig.reaction, 2'000'000);
  EXPECT_EQ(rig.reaction->applied, PauseReaction::kPending + 1);
  EXPECT_EQ(rig.reaction->applied_early, 1u);
}

TEST(PauseReaction, ALaneStoppedWhilePausedCountsThePauseUntilThen) {
  Rig rig;
  rig.receive(pfc_frame(0x08, only(3, 65535)), 0);
  EXPECT_TRUE(lane_paused(rig.p3, 100));
  end_lane_pause(rig.p3, 700);
  EXPECT_EQ(rig.p3.paused_tsc, 600u);
  EXPECT_EQ(rig.p3.since_tsc, 0u);
}

}  // namespace
}  // namespace lr::fast
