#pragma once
// The RX path's hand-off to a capture (dataplane/capture): an RX queue with a tap copies
// the first `snaplen` bytes of each frame its filter keeps into a record from the
// capture's pool and puts it on the tap's ring; a thread off the workers writes the file.
// Copies, not the mbufs with their reference count raised: a capture that cannot keep up
// then runs out of its own records (counted as dropped), never of the RX pool's mbufs.
// No file I/O and no lock on the worker; an RX queue without a tap pays one predictable
// branch per burst.

#include <rte_bpf.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include <cstdint>

namespace lr::fast {

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

  uint8_t* data() noexcept { return reinterpret_cast<uint8_t*>(this + 1); }
  const uint8_t* data() const noexcept { return reinterpret_cast<const uint8_t*>(this + 1); }
};

/// One RX queue's tap on a capture. The worker writes `matched` and `dropped` (relaxed);
/// `open` is the capture's to clear: a closed tap takes nothing more.
struct CaptureTap {
  rte_ring* ring = nullptr;             ///< single producer (this queue's worker), single consumer (the writer)
  rte_mempool* records = nullptr;       ///< the capture's, shared by its taps
  const rte_bpf* filter = nullptr;      ///< none: every frame
  uint64_t (*filter_jit)(void*) = nullptr;  ///< the filter as native code, where rte_bpf could compile it
  uint16_t snaplen = 0;
  uint16_t queue = 0;
  bool open = false;
  uint64_t matched = 0;                 ///< frames the filter kept
  uint64_t dropped = 0;                 ///< of those, not handed over: no record free, or the ring full
};

/// Offers a received burst to `tap` (the frames stay the caller's). `n_streams`: the run's
/// streams, for which signatures are real.
void capture_frames(CaptureTap& tap, rte_mbuf* const* pkts, uint16_t n, uint64_t rx_tsc, uint32_t rx_ns,
                    uint32_t n_streams) noexcept;

}  // namespace lr::fast
