#include "dataplane/switch/switch_lcore.hpp"

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include <algorithm>
#include <cstring>
#include <sys/resource.h>
#include <unistd.h>

#include "dataplane/switch/frame_fields.hpp"
#include "dataplane/switch/mac_table.hpp"
#include "lib/wire/mac_control.hpp"

namespace lr::sw {

namespace {

constexpr uint32_t kFcsBytes = 4;
// Table slots the aging sweep looks at per loop: a loop takes about a microsecond, so a
// table of 64 K slots is swept every few tens of milliseconds.
constexpr uint32_t kAgingSweepSlots = 8;

void free_handle(uintptr_t handle) noexcept { rte_pktmbuf_free(reinterpret_cast<rte_mbuf*>(handle)); }

// A frame marked CE goes out as a copy: the sender's mbuf may be a template it sends
// again (in-process cables pass mbufs by pointer), and must come back unchanged.
void mark_ce(SwitchLoop& loop, SwitchPortIo& in, uint16_t out, uint8_t prio, rte_mbuf* m, L3At l3) noexcept {
  rte_mbuf* copy = rte_pktmbuf_copy(m, loop.copy_pool, 0, UINT32_MAX);
  if (copy == nullptr) {
    fast::counter_add(in.ecn_copy_failures, 1);
    return;
  }
  set_ce(rte_pktmbuf_mtod(copy, uint8_t*), l3);
  loop.model->replace_last(out, prio, reinterpret_cast<uintptr_t>(copy));
  rte_pktmbuf_free(m);
}

// One frame that has finished arriving on port `index` at `at`: PFC / PAUSE consumed (as
// of `now`, when it was read: never earlier than it came), the rest classified,
// forwarded and queued (or dropped) by the model.
void accept(SwitchLoop& loop, uint16_t index, rte_mbuf* m, uint64_t at, uint64_t now) noexcept {
  SwitchPortIo& io = loop.ports[index];
  fast::counter_add(io.rx_frames, 1);
  const uint8_t* frame = rte_pktmbuf_mtod(m, const uint8_t*);
  const uint32_t len = m->data_len;
  if (wire::is_mac_control(frame, len)) {
    const wire::MacControlFields f = wire::read_mac_control(frame);
    if (f.opcode == wire::kOpcodePfc || f.opcode == wire::kOpcodePause) {
      loop.model->pause_received(index, f.class_enable & 0xFF, f.quanta, f.opcode == wire::kOpcodePause, now);
      if (io.pause_first_tsc == 0) fast::counter_set(io.pause_first_tsc, now);
      fast::counter_set(io.pause_last_tsc, now);
    }
    fast::counter_add(io.rx_mac_control, 1);
    rte_pktmbuf_free(m);
    return;
  }
  if (loop.max_frame_bytes != 0 && m->pkt_len + kFcsBytes > loop.max_frame_bytes) {
    fast::counter_add(io.rx_oversize, 1);  // a MAC filters a frame longer than its maximum
    rte_pktmbuf_free(m);
    return;
  }
  const L3At l3 = find_l3(frame, len);
  const uint8_t prio = loop.classify_dscp ? loop.dscp_priority[dscp_of(frame, l3)] : outer_pcp(frame, len);
  const uint8_t ecn = ecn_of(frame, l3);
  const bool ect = ecn == 1 || ecn == 2;
  const uint32_t bytes = m->pkt_len + kFcsBytes;
  const auto queue_on = [&](uint16_t out, bool first) {
    const Admit admit = loop.model->enqueue(index, out, prio, bytes, ect, reinterpret_cast<uintptr_t>(m), at, first);
    if (admit == Admit::kQueuedMarked) mark_ce(loop, io, out, prio, m, l3);
    else if (!admitted(admit)) rte_pktmbuf_free(m);
  };
  if (!loop.learn) {
    if (io.egress < 0) {
      fast::counter_add(io.rx_unroutable, 1);
      rte_pktmbuf_free(m);
      return;
    }
    queue_on(static_cast<uint16_t>(io.egress), true);
    return;
  }
  const uint64_t src = MacTable::key(frame + 6);
  if (!MacTable::is_group(src)) loop.macs->learn(src, static_cast<int16_t>(index), at);
  const uint64_t dst = MacTable::key(frame);
  const int16_t known = MacTable::is_group(dst) ? MacTable::kUnknown : loop.macs->lookup(dst, at);
  if (known == static_cast<int16_t>(index)) {
    fast::counter_add(io.rx_filtered, 1);  // for a station on the port it came from
    rte_pktmbuf_free(m);
    return;
  }
  if (known != MacTable::kUnknown) {
    queue_on(static_cast<uint16_t>(known), true);
    return;
  }
  // Unknown or group destination: every other port gets the frame (one mbuf, one
  // reference per port; each queue's send or drop lets go of its own).
  const auto n_ports = static_cast<uint16_t>(loop.ports.size());
  if (n_ports < 2) {
    rte_pktmbuf_free(m);
    return;
  }
  fast::counter_add(io.rx_flooded, 1);
  rte_mbuf_refcnt_update(m, static_cast<int16_t>(n_ports - 2));
  bool first = true;
  for (uint16_t out = 0; out < n_ports; ++out) {
    if (out == index) continue;
    queue_on(out, first);
    first = false;
  }
}

// A port's next frame, received from its ring when none is staged; false when none came.
bool stage(SwitchPortIo& io) noexcept {
  if (io.next_staged < io.n_staged) return true;
  io.n_staged = rte_eth_rx_burst(io.port_id, 0, io.staged, kSwitchBurst);
  io.next_staged = 0;
  return io.n_staged != 0;
}

// Every frame waiting in the port's ring, behind those staged (as many as fit).
void stage_all(SwitchPortIo& io) noexcept {
  const uint32_t waiting = io.n_staged - io.next_staged;
  std::memmove(io.staged, io.staged + io.next_staged, waiting * sizeof(rte_mbuf*));
  io.n_staged = waiting;
  io.next_staged = 0;
  while (io.n_staged < kStagedMax) {
    const uint16_t want = static_cast<uint16_t>(std::min<uint32_t>(kSwitchBurst, kStagedMax - io.n_staged));
    const uint16_t got = rte_eth_rx_burst(io.port_id, 0, io.staged + io.n_staged, want);
    io.n_staged += got;
    if (got < want) break;
  }
}

// Frames the port's TX queue has not taken yet, offered again; those it refuses the first
// time are counted.
void flush(SwitchPortIo& io) noexcept {
  if (io.n_out == 0) return;
  const uint16_t sent = rte_eth_tx_burst(io.port_id, 0, io.out, io.n_out);
  const auto refused = static_cast<uint16_t>(io.n_out - sent);
  fast::counter_add(io.tx_refused, std::min(refused, io.n_fresh));
  std::memmove(io.out, io.out + sent, refused * sizeof(rte_mbuf*));
  io.n_out = refused;
  io.n_fresh = 0;
}

// What port `index`'s shaper lets out of its queues by `at`, sent. A TX queue that takes
// no more stops it: the model would count what it dequeues as sent.
void collect(SwitchLoop& loop, uint16_t index, uint64_t at) noexcept {
  SwitchPortIo& io = loop.ports[index];
  for (;;) {
    if (io.n_out == kSwitchBurst) {
      flush(io);
      if (io.n_out != 0) return;
    }
    const Dequeued d = loop.model->dequeue(index, at);
    if (!d.valid) return;
    io.out[io.n_out++] = reinterpret_cast<rte_mbuf*>(d.handle);
    ++io.n_fresh;
  }
}

// Every port's frames that have finished arriving by `now`, in the order they finished
// (the ports' wires merged by time), so that ports contending for one queue take turns
// as they would on real links rather than one whole burst after another.
//
// After a stall (`stalled`: the lcore held up since `from`, its previous turn), what
// came meanwhile waits in the rings: it is all read and spread over the stall (as far as
// the catch-up goes back), and before each frame is queued, every port sends what it
// could have sent by the frame's time; so the queues fill and drain in wire order, not
// all at once.
// PFC and PAUSE frames take effect when read: a pause never starts before it was heard.
void receive(SwitchLoop& loop, bool stalled, uint64_t from, uint64_t now) noexcept {
  const TscQ16 now_q16 = TscQ16{now} << 16;
  const TscQ16 floor_q16 = now_q16 - std::min(now_q16, TscQ16{loop.wire_burst_tsc} << 16);
  for (SwitchPortIo& io : loop.ports) {
    io.wire_spacing_q16 = 0;
    if (stalled) {
      stage_all(io);
      io.wire_next_q16 = std::max(io.wire_next_q16, std::max(floor_q16, TscQ16{from} << 16));
      if (io.n_staged != 0 && io.wire_next_q16 < now_q16) io.wire_spacing_q16 = (now_q16 - io.wire_next_q16) / io.n_staged;
    }
    if (!stage(io)) io.wire_next_q16 = std::max(io.wire_next_q16, now_q16);  // an idle wire saves up nothing
    if (io.wire_next_q16 < floor_q16) io.wire_next_q16 = floor_q16;
  }
  // Ties (ports whose wires were idle start together) go to each port in turn.
  const size_t n = loop.ports.size();
  loop.first_port = (loop.first_port + 1) % n;
  for (;;) {
    SwitchPortIo* first = nullptr;
    for (size_t k = 0; k < n; ++k) {
      SwitchPortIo& io = loop.ports[(loop.first_port + k) % n];
      if (io.wire_next_q16 <= now_q16 && (first == nullptr || io.wire_next_q16 < first->wire_next_q16) && stage(io))
        first = &io;
    }
    if (first == nullptr) return;
    rte_mbuf* m = first->staged[first->next_staged++];
    const uint64_t at = stalled ? static_cast<uint64_t>(first->wire_next_q16 >> 16) : now;
    first->wire_next_q16 += std::max<TscQ16>(first->wire_spacing_q16, (uint64_t{m->pkt_len} + kFcsBytes + kPreambleGapBytes) *
                                                                  first->wire_cycles_per_byte_q16);
    if (stalled)
      for (uint16_t i = 0; i < n; ++i) collect(loop, i, at);
    accept(loop, static_cast<uint16_t>(first - loop.ports.data()), m, at, now);
  }
}

void send_pfc(SwitchLoop& loop, uint16_t index, const PfcOut& pfc) noexcept {
  SwitchPortIo& io = loop.ports[index];
  rte_mbuf* m = rte_pktmbuf_alloc(loop.pfc_pool);
  if (m == nullptr) return;
  auto* frame = reinterpret_cast<uint8_t*>(rte_pktmbuf_append(m, wire::kMacControlBytes));
  if (frame == nullptr) {
    rte_pktmbuf_free(m);
    return;
  }
  std::memset(frame, 0, wire::kMacControlBytes);
  std::memcpy(frame, wire::kMacControlDst.data(), 6);
  std::memcpy(frame + 6, io.mac.addr_bytes, 6);
  wire::store_be16(frame + 12, wire::kMacControlEtherType);
  wire::store_be16(frame + 14, wire::kOpcodePfc);
  wire::store_be16(frame + 16, pfc.class_enable);
  for (unsigned p = 0; p < kPriorities; ++p) wire::store_be16(frame + 18 + 2 * p, pfc.quanta[p]);
  // Ahead of the data frames waiting: a MAC sends its control frames first.
  if (rte_eth_tx_burst(io.port_id, 0, &m, 1) == 1) fast::counter_add(io.tx_pfc_frames, 1);
  else rte_pktmbuf_free(m);
}

void transmit(SwitchLoop& loop, uint16_t index, uint64_t now) noexcept {
  collect(loop, index, now);
  flush(loop.ports[index]);
}

}  // namespace

int run_switch(void* arg) noexcept {
  SwitchLoop& loop = *static_cast<SwitchLoop*>(arg);
  // Its CPU is shared (with the main lcore on a small machine): the switch goes first, as
  // hardware would never pause. Best effort: without CAP_SYS_NICE it runs as it is.
  if (loop.nice != 0) setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), loop.nice);
  const uint16_t n_ports = static_cast<uint16_t>(loop.ports.size());
  // A loop that starts after the run did was held up from the run's start: that counts.
  uint64_t last = rte_rdtsc();
  if (loop.run_start_tsc != 0 && last > loop.run_start_tsc) last = loop.run_start_tsc;
  const uint64_t stall_tsc = loop.stalls.threshold_tsc;
  while (!loop.stop.load(std::memory_order_acquire)) {
    const uint64_t now = rte_rdtsc();
    const bool stalled = fast::note_iteration(loop.stalls, stall_tsc, last, now);
    receive(loop, stalled, last, now);
    last = now;
    loop.model->tick(now, free_handle);
    if (loop.learn) loop.macs->sweep(now, kAgingSweepSlots);
    for (uint16_t i = 0; i < n_ports; ++i) {
      if (const PfcOut pfc = loop.model->pfc_due(i, now); pfc.class_enable != 0) send_pfc(loop, i, pfc);
      transmit(loop, i, now);
    }
  }
  return 0;
}

}  // namespace lr::sw
