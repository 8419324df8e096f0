// libFuzzer target: any bytes, 0 to 9,216 of them, as a frame off the wire into the RX
// path (rx_account_burst: the signature at the frame's end or before a RoCEv2 ICRC, MAC
// Control frames and the PFC / PAUSE they ask for, ECN codepoints, sequence, latency and
// timeline accounting). The frame sits in a buffer of exactly its length, in one mbuf or
// split over two as a PMD with scattered RX hands it over, so AddressSanitizer catches a
// read past its end. No PMD and no EAL: the mbufs are built here.
// The first input byte chooses the segmentation, the rest is the frame.
// Built with clang by scripts/fuzz.sh.

#include <rte_mbuf.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "dataplane/fastpath/lcore_ctx.hpp"
#include "dataplane/fastpath/worker.hpp"

namespace {

namespace fast = lr::fast;

constexpr size_t kMaxFrame = 9216;
constexpr uint16_t kStreams = 4;
constexpr uint16_t kLanes = 2;

// One lcore receiving on one queue: stream 0 plain, 1 with every inspection (ECN, MAC
// Control, timeline), 2 expected on another port, 3 not received here.
struct Receiver {
  fast::LcoreCtx ctx;
  fast::RxQueue queue;
  fast::RxStream streams[kStreams];
  fast::SeqTracker trackers[kStreams][kLanes];
  uint64_t stream_bins[65]{};
  uint64_t port_bins[65]{};
  fast::PortPause pause;
  fast::PauseReaction reaction;

  Receiver() {
    for (uint16_t s = 0; s < kStreams; ++s) {
      streams[s].n_lanes = s != 3 ? kLanes : 0;  // 3: not received here
      streams[s].late_ns = 1000;
      streams[s].first_tracker = s * kLanes;
      streams[s].rx_port_id = s == 2 ? 1 : 0;
    }
    streams[1].inspect = fast::RxStream::kInspectEcn | fast::RxStream::kInspectMacControl |
                         fast::RxStream::kInspectTimeline;
    streams[1].timeline = {stream_bins, 64};
    queue.mac_control_timeline = {port_bins, 64};
    reaction.port = &pause;
    reaction.quantum_tsc_q16 = uint64_t{26} << 16;
    reaction.delay_tsc = 100;
    queue.pause_reaction = &reaction;
    ctx.rx_streams = streams;
    ctx.rx_trackers = &trackers[0][0];
    ctx.n_streams = kStreams;
    ctx.rx_queues = &queue;
    ctx.n_rx_queues = 1;
    ctx.timeline_clock = {0, fast::timeline_bins_per_tsc_q64(2'000'000'000, 1000)};
  }
};

void set_segment(rte_mbuf& m, uint8_t* data, uint16_t len) {
  std::memset(&m, 0, sizeof(m));
  m.buf_addr = data;
  m.buf_len = len;
  m.data_off = 0;
  m.data_len = len;
  m.nb_segs = 1;
  m.refcnt = 1;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Receiver rx;
  static uint64_t tsc = 1'000'000;
  if (size == 0) return 0;
  const uint8_t layout = data[0];
  const size_t len = size - 1 > kMaxFrame ? kMaxFrame : size - 1;
  // Each segment in a heap buffer of exactly its bytes (none for an empty frame).
  const size_t split = (layout & 0x80) != 0 && len > 1 ? 1 + (layout & 0x7F) % (len - 1) : len;
  std::unique_ptr<uint8_t[]> first(new uint8_t[split == 0 ? 1 : split]);
  std::unique_ptr<uint8_t[]> second(new uint8_t[len - split == 0 ? 1 : len - split]);
  std::memcpy(first.get(), data + 1, split);
  std::memcpy(second.get(), data + 1 + split, len - split);
  rte_mbuf head;
  rte_mbuf tail;
  set_segment(head, first.get(), static_cast<uint16_t>(split));
  head.pkt_len = static_cast<uint32_t>(len);
  if (split < len) {
    set_segment(tail, second.get(), static_cast<uint16_t>(len - split));
    head.next = &tail;
    head.nb_segs = 2;
  }
  rte_mbuf* pkts[] = {&head};
  tsc += 3000;
  const uint64_t signed_frames = fast::rx_account_burst(rx.ctx, rx.queue, pkts, 1, tsc, static_cast<uint32_t>(tsc / 2));
  if (signed_frames > 1) __builtin_trap();
  fast::apply_due_pauses(rx.reaction, tsc);
  return 0;
}
