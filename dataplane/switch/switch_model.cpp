#include "dataplane/switch/switch_model.hpp"

#include <algorithm>

namespace lr::sw {

namespace {

constexpr uint32_t kSmallestFrame = 64;
constexpr uint64_t kBitsPerQuantum = 512;

// Frames a queue can hold at most: its byte bound over the smallest frame.
uint32_t ring_capacity(uint64_t bytes) {
  return static_cast<uint32_t>(std::min<uint64_t>(bytes / kSmallestFrame + 1, 1u << 24));
}

}  // namespace

SwitchModel::SwitchModel(ModelParams params) : params_(std::move(params)) {
  n_ports_ = static_cast<uint16_t>(params_.port_speed_bps.size());
  params_.shape_bps.resize(n_ports_, 0);
  queues_.resize(size_t{n_ports_} * kPriorities);
  groups_.resize(size_t{n_ports_} * kPriorities);
  counters_.resize(size_t{n_ports_} * kPriorities);
  egress_.resize(n_ports_);
  rng_ = params_.seed != 0 ? params_.seed : 1;
  delayed_.resize(params_.pause_reaction_tsc != 0 ? 256 : 1);
  // A lossless queue holds at most every ingress port's priority group; a lossy one its limit.
  const uint64_t lossless_bound = uint64_t{n_ports_} * (params_.xoff_bytes + params_.headroom_bytes);
  const uint64_t lossy_bound = std::min(params_.queue_limit_bytes, params_.buffer_bytes);
  if (params_.input_queued) {
    ingress_.resize(n_ports_);
    for (Queue& q : ingress_) q.ring.resize(ring_capacity(lossy_bound));
  }
  for (uint16_t port = 0; port < n_ports_; ++port) {
    for (uint8_t prio = 0; prio < kPriorities && !params_.input_queued; ++prio)
      queue(port, prio).ring.resize(ring_capacity(lossless(prio) ? lossless_bound : lossy_bound));
    const uint64_t link = params_.port_speed_bps[port];
    const uint64_t rate = params_.shape_bps[port] != 0 && params_.shape_bps[port] < link ? params_.shape_bps[port] : link;
    // Q16 cycles per byte on the wire: tsc_hz * 8 / rate.
    egress_[port].cycles_per_byte_q16 =
        rate == 0 ? 0 : static_cast<uint64_t>((static_cast<__uint128_t>(params_.tsc_hz) * 8 << 16) / rate);
  }
}

uint64_t SwitchModel::egress_busy_tsc(uint16_t port, uint64_t now) const noexcept {
  const Egress& eg = egress_[port];
  return eg.busy_tsc + (eg.backlogged ? now - eg.backlog_since : 0);
}

uint64_t SwitchModel::quanta_tsc(uint16_t port, uint32_t quanta) const noexcept {
  const uint64_t speed = params_.port_speed_bps[port];
  if (speed == 0) return 0;
  return static_cast<uint64_t>(static_cast<__uint128_t>(quanta) * kBitsPerQuantum * params_.tsc_hz / speed);
}

uint64_t SwitchModel::refresh_tsc(uint16_t port) const noexcept {
  return params_.pfc_refresh_tsc != 0 ? params_.pfc_refresh_tsc : quanta_tsc(port, params_.pfc_quanta) / 2;
}

bool SwitchModel::should_mark(uint64_t depth) noexcept {
  if (depth <= params_.ecn_kmin_bytes) return false;
  if (depth >= params_.ecn_kmax_bytes) return true;
  const double p = params_.ecn_pmax * static_cast<double>(depth - params_.ecn_kmin_bytes) /
                   static_cast<double>(params_.ecn_kmax_bytes - params_.ecn_kmin_bytes);
  // xorshift64: repeatable for a seed, uniform enough for a marking probability.
  rng_ ^= rng_ << 13;
  rng_ ^= rng_ >> 7;
  rng_ ^= rng_ << 17;
  return static_cast<double>(rng_ >> 11) * 0x1.0p-53 < p;
}

bool SwitchModel::admit_lossy(const Queue& q, uint32_t bytes, PriorityCounters& c) noexcept {
  if (q.bytes + bytes > params_.queue_limit_bytes || shared_bytes_ + bytes > params_.buffer_bytes ||
      q.count == q.ring.size()) {
    fast::counter_add(c.drop_tail, 1);
    return false;
  }
  shared_bytes_ += bytes;
  fast::counter_raise(shared_watermark_, shared_bytes_);
  return true;
}

// Input queueing marks no ECN (the profile refuses both): a frame waits behind its port's head.
Admit SwitchModel::enqueue_ingress(uint16_t in, uint16_t out, uint8_t prio, uint32_t bytes, uintptr_t handle) noexcept {
  Queue& q = ingress_[in];
  PriorityCounters& c = ctr(in, prio);
  if (!admit_lossy(q, bytes, c)) return Admit::kDropTail;
  q.push(Entry{handle, bytes, in, static_cast<uint8_t>(out), prio});
  fast::counter_raise(c.watermark_bytes, q.bytes);
  return Admit::kQueued;
}

Admit SwitchModel::enqueue(uint16_t in, uint16_t out, uint8_t prio, uint32_t bytes, bool ect, uintptr_t handle,
                           uint64_t now, bool count_rx) noexcept {
  PriorityCounters& rx = ctr(in, prio);
  if (count_rx) {
    fast::counter_add(rx.rx_frames, 1);
    fast::counter_add(rx.rx_bytes, bytes);
  }
  if (params_.input_queued) return enqueue_ingress(in, out, prio, bytes, handle);
  Queue& q = queue(out, prio);
  PriorityCounters& eg = ctr(out, prio);
  if (lossless(prio)) {
    if (q.storm && params_.watchdog_action == WatchdogAction::kDrop) {
      fast::counter_add(eg.drop_watchdog, 1);
      return Admit::kDropWatchdog;
    }
    Group& g = group(in, prio);
    if (g.bytes + bytes > params_.xoff_bytes + params_.headroom_bytes || q.count == q.ring.size()) {
      fast::counter_add(rx.drop_headroom, 1);
      return Admit::kDropHeadroom;
    }
    g.bytes += bytes;
    fast::counter_raise(rx.pg_watermark_bytes, g.bytes);
    if (!g.xoff && g.bytes >= params_.xoff_bytes) {
      g.xoff = true;
      g.pending = 1;
      g.next_refresh = now;  // due at once
    }
  } else if (!admit_lossy(q, bytes, eg)) {
    return Admit::kDropTail;
  }
  const bool mark = ect && params_.ecn && should_mark(q.bytes);
  if (mark) fast::counter_add(eg.ecn_marked, 1);
  q.push(Entry{handle, bytes, in, static_cast<uint8_t>(out), prio});
  fast::counter_raise(eg.watermark_bytes, q.bytes);
  return mark ? Admit::kQueuedMarked : Admit::kQueued;
}

void SwitchModel::release_group(const Entry& e, uint8_t prio) noexcept {
  if (!lossless(prio)) {
    shared_bytes_ -= e.bytes;
    return;
  }
  Group& g = group(e.in, prio);
  g.bytes -= e.bytes;
  if (g.xoff && g.bytes <= params_.xon_bytes) {
    g.xoff = false;
    g.pending = 2;
  }
}

SwitchModel::Entry SwitchModel::pop(uint16_t port, uint8_t prio) noexcept {
  const Entry e = queue(port, prio).take();
  release_group(e, prio);
  return e;
}

SwitchModel::Entry SwitchModel::pop_ingress(uint16_t in) noexcept {
  const Entry e = ingress_[in].take();
  shared_bytes_ -= e.bytes;
  return e;
}

// False when the port's shaper lets nothing out yet.
bool SwitchModel::wait_for_shaper(Egress& eg, uint64_t now) noexcept {
  const TscQ16 now_q16 = TscQ16{now} << 16;
  if (eg.next_tsc_q16 == 0) eg.next_tsc_q16 = now_q16;  // a port's first call: no credit from the epoch
  return eg.next_tsc_q16 <= now_q16;
}

// `e` leaves by `out`: its spell of sending, the catch-up after a stall, its counters.
Dequeued SwitchModel::sent(Egress& eg, uint16_t out, uint8_t prio, const Entry& e) noexcept {
  PriorityCounters& c = ctr(out, prio);
  fast::counter_add(c.tx_frames, 1);
  fast::counter_add(c.tx_bytes, e.bytes);
  eg.next_tsc_q16 += (uint64_t{e.bytes} + kPreambleGapBytes) * eg.cycles_per_byte_q16;
  return {e.handle, e.bytes, true};
}

// Nothing to send: an idle (or paused) port saves up no credit. Its spell of sending
// ended with its last frame on the wire, which a catch-up after a stall puts before now.
void SwitchModel::went_idle(Egress& eg, uint64_t now) noexcept {
  if (eg.backlogged) {
    eg.backlogged = false;
    const uint64_t ended = std::max(eg.backlog_since, static_cast<uint64_t>(eg.next_tsc_q16 >> 16));
    fast::counter_add(eg.busy_tsc, ended - eg.backlog_since);
  }
  eg.next_tsc_q16 = TscQ16{now} << 16;
}

int SwitchModel::next_ingress(uint16_t out, uint8_t first, uint64_t now) const noexcept {
  for (uint16_t i = 0; i < n_ports_; ++i) {
    const auto in = static_cast<uint16_t>((first + i) % n_ports_);
    const Queue& q = ingress_[in];
    if (q.count == 0) continue;
    const Entry& head = q.ring[q.head];
    if (head.out == out && queue(out, head.prio).pause_until <= now) return in;
  }
  return -1;
}

Dequeued SwitchModel::dequeue(uint16_t out, uint64_t now) noexcept {
  Egress& eg = egress_[out];
  if (!wait_for_shaper(eg, now)) return {};
  const TscQ16 now_q16 = TscQ16{now} << 16;
  const auto start_spell = [&] {
    // A spell of sending begins where the port's credit does: after a stall of its lcore,
    // that is before now.
    if (!eg.backlogged) {
      eg.backlogged = true;
      eg.backlog_since = static_cast<uint64_t>(eg.next_tsc_q16 >> 16);
    }
    // A port held up (the lcore stalled) catches up, by at most burst_tsc; what lies
    // beyond is time the port lost, counted (and within its spell).
    const TscQ16 floor_q16 = now_q16 - std::min(now_q16, TscQ16{params_.burst_tsc} << 16);
    if (eg.next_tsc_q16 < floor_q16) {
      fast::counter_add(eg.lost_tsc, static_cast<uint64_t>((floor_q16 - eg.next_tsc_q16) >> 16));
      eg.next_tsc_q16 = floor_q16;
    }
  };
  if (params_.input_queued) {
    // Ingress ports whose head is for this port take turns.
    const int in = next_ingress(out, eg.rr, now);
    if (in < 0) {
      went_idle(eg, now);
      return {};
    }
    start_spell();
    const Entry e = pop_ingress(static_cast<uint16_t>(in));
    eg.rr = static_cast<uint8_t>((in + 1) % n_ports_);
    return sent(eg, out, e.prio, e);
  }
  for (unsigned i = 0; i < kPriorities; ++i) {
    const uint8_t prio = static_cast<uint8_t>((eg.rr + i) % kPriorities);
    Queue& q = queue(out, prio);
    if (q.count == 0) continue;
    const bool forward_through = q.storm && params_.watchdog_action == WatchdogAction::kForward;
    if (q.pause_until > now && !forward_through) continue;
    start_spell();
    const Entry e = pop(out, prio);
    eg.rr = static_cast<uint8_t>((prio + 1) % kPriorities);
    return sent(eg, out, prio, e);
  }
  went_idle(eg, now);
  return {};
}

void SwitchModel::account_pause(Queue& q, PriorityCounters& c, uint64_t now) noexcept {
  const uint64_t end = std::min(q.pause_until, now);
  if (end > q.pause_accounted) {
    fast::counter_add(c.paused_tsc, end - q.pause_accounted);
    q.pause_accounted = end;
  }
}

void SwitchModel::pause_received(uint16_t port, uint16_t class_enable, const uint16_t* quanta, bool link_pause,
                                 uint64_t now) noexcept {
  DelayedPause p{now + params_.pause_reaction_tsc, port, static_cast<uint8_t>(class_enable), link_pause, {}};
  for (uint8_t prio = 0; prio < kPriorities; ++prio) {
    const bool named = link_pause || ((class_enable >> prio) & 1);
    if (!named) continue;
    p.quanta[prio] = link_pause ? quanta[0] : quanta[prio];
    // Counted as heard, obeyed or not.
    if (p.quanta[prio] == 0) fast::counter_add(ctr(port, prio).pfc_xon_received, 1);
    else fast::counter_add(ctr(port, prio).pfc_xoff_received, 1);
  }
  if (params_.pause_reaction_tsc == 0) {
    apply_pause(p);
    return;
  }
  // A full ring (a storm faster than the delay drains it) applies its oldest now.
  if (delayed_count_ == delayed_.size()) {
    apply_pause(delayed_[delayed_head_]);
    delayed_head_ = (delayed_head_ + 1) % static_cast<uint32_t>(delayed_.size());
    --delayed_count_;
  }
  delayed_[(delayed_head_ + delayed_count_) % delayed_.size()] = p;
  ++delayed_count_;
}

void SwitchModel::apply_pause(const DelayedPause& p) noexcept {
  if (p.link_pause && !params_.pause_obeyed) return;
  for (uint8_t prio = 0; prio < kPriorities; ++prio) {
    const bool named = p.link_pause || ((p.class_enable >> prio) & 1);
    if (!named || (!p.link_pause && ((params_.pfc_obeyed >> prio) & 1) == 0)) continue;
    Queue& q = queue(p.port, prio);
    account_pause(q, ctr(p.port, prio), p.at);
    // A refresh restarts the timer; quanta 0 (XON) ends it.
    q.pause_until = p.quanta[prio] == 0 ? p.at : p.at + quanta_tsc(p.port, p.quanta[prio]);
    if (q.pause_accounted < p.at) q.pause_accounted = p.at;
  }
}

PfcOut SwitchModel::pfc_due(uint16_t port, uint64_t now) noexcept {
  PfcOut out;
  if (params_.lossless == 0) return out;
  for (uint8_t prio = 0; prio < kPriorities; ++prio) {
    if (!lossless(prio)) continue;
    Group& g = group(port, prio);
    PriorityCounters& c = ctr(port, prio);
    if (g.pending == 2) {
      out.class_enable |= static_cast<uint8_t>(1u << prio);
      out.quanta[prio] = 0;
      fast::counter_add(c.pfc_xon_sent, 1);
    } else if (g.xoff && now >= g.next_refresh) {
      out.class_enable |= static_cast<uint8_t>(1u << prio);
      out.quanta[prio] = params_.pfc_quanta;
      g.next_refresh = now + refresh_tsc(port);
      fast::counter_add(c.pfc_xoff_sent, 1);
    }
    g.pending = 0;
  }
  return out;
}

}  // namespace lr::sw
