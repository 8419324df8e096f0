#pragma once
// The RX path's hand-off to a capture (dataplane/capture): an RX queue with a tap copies
// the first `snaplen` bytes of each frame its filter keeps into a record from the
// capture's pool and puts it on the tap's ring; a thread off the workers writes the file.
// Copies, not the mbufs with their reference count raised: a capture that cannot keep up
// then runs out of its own records (counted as dropped), never of the RX pool's mbufs.
// No file I/O and no lock on the worker; an RX queue without a tap pays one predictable
// branch per burst.

#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include <cstdint>

#include "dataplane/fastpath/burst_filter.hpp"

namespace lr::fast {

/// What a trigger caught in a stream's sequence (CaptureRecord::event).
enum class SeqEvent : uint8_t { kNone, kLoss, kOutOfOrder, kDuplicate };

/// A captured frame: what the worker knew of it, followed by its first `kept` bytes.
struct CaptureRecord {
  uint64_t tsc = 0;             ///< when its burst was received
  uint32_t wire_bytes = 0;      ///< the frame's length, without FCS
  uint32_t seq = 0;             ///< the signature's, for a signed frame
  uint32_t latency_ns = 0;      ///< a signed frame's one-way latency
  uint16_t kept = 0;            ///< bytes that follow
  uint16_t stream_id = 0;
  uint16_t queue = 0;
  uint8_t lane = 0;
  bool signed_frame = false;    ///< it carries linerate's signature
  bool outbound = false;        ///< a frame the port sent (a TX tap's)
  SeqEvent event = SeqEvent::kNone;  ///< the trigger fired on this frame
  uint32_t expected = 0;        ///< with an event: the sequence number the lane expected

  uint8_t* data() noexcept { return reinterpret_cast<uint8_t*>(this + 1); }
  const uint8_t* data() const noexcept { return reinterpret_cast<const uint8_t*>(this + 1); }
};

/// A capture that keeps only the frames around the first loss, duplicate or reordering in
/// one stream: the last `before` frames of the stream wait in `held` (records from the
/// pool, reused in turn: no file I/O on the worker), and when the stream's sequence shows
/// the event, they, the frame and the next `after` frames go to the ring. One-shot.
struct CaptureTrigger {
  static constexpr unsigned kLanes = 64;           ///< a stream's most lanes
  static constexpr unsigned kMaxBefore = 1024;     ///< the most frames held before an event
  static constexpr uint16_t kNoStream = 0xFFFF;
  bool on_loss = false;
  bool on_out_of_order = false;
  bool on_duplicate = false;
  uint16_t stream_id = kNoStream;  ///< the stream's id in the current run; none: not in it
  uint32_t before = 0;
  uint32_t after = 0;
  void** held = nullptr;           ///< `before` slots, a ring
  uint32_t held_next = 0;          ///< the oldest (the next to reuse) once full
  uint32_t held_count = 0;
  uint32_t after_left = 0;
  bool fired = false;
  bool finished = false;           ///< the last frame after the event handed over (release store)
  // Per lane: the next sequence number expected, and which of the 64 before it arrived
  // (bit i: expected - 1 - i), to tell a duplicate from a late frame.
  bool lane_started[kLanes] = {};
  uint32_t expected[kLanes] = {};
  uint64_t seen[kLanes] = {};

  bool armed() const noexcept { return on_loss || on_out_of_order || on_duplicate; }
};

/// One RX queue's tap on a capture. The worker writes `matched` and `dropped` (relaxed);
/// `open` is the capture's to clear: a closed tap takes nothing more.
struct CaptureTap {
  rte_ring* ring = nullptr;             ///< single producer (this queue's worker), single consumer (the writer)
  rte_mempool* records = nullptr;       ///< the capture's, shared by its taps
  const BurstFilter* filter = nullptr;  ///< none: every frame
  uint16_t snaplen = 0;
  uint16_t queue = 0;
  bool outbound = false;                ///< a TX queue's tap: the frames the port sends
  bool open = false;
  uint64_t matched = 0;                 ///< frames the filter kept
  uint64_t dropped = 0;                 ///< of those, not handed over: no record free, or the ring full
  CaptureTrigger trigger;               ///< not armed: every frame the filter keeps
};

/// Offers a received (or, to a TX tap, sent) burst to `tap` (the frames stay the caller's).
/// `n_streams`: the run's streams, for which signatures are real.
void capture_frames(CaptureTap& tap, rte_mbuf* const* pkts, uint16_t n, uint64_t rx_tsc, uint32_t rx_ns,
                    uint32_t n_streams) noexcept;

}  // namespace lr::fast
