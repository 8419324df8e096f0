// Reading a run's counters while it runs and after: per stream (lcore counters merged,
// RX read consistently per lcore), per port, per lcore, latency histograms. Structs only:
// JSON is built in mgmt/, text in control/views.

#include <fmt/format.h>
#include <rte_cycles.h>
#include <rte_pause.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <optional>

#include "lib/common/line_rate.hpp"
#include "dataplane/engine/engine.hpp"
#include "dataplane/engine/engine_state.hpp"
#include "dataplane/fastpath/counters.hpp"
#include "dataplane/fastpath/latency_hist.hpp"
#include "dataplane/plan/rate.hpp"

namespace lr::dp {

using fast::counter_read;

namespace {

// What one lcore counted of one stream's reception.
struct RxCounts {
  uint64_t received = 0;
  uint64_t duplicate = 0;
  uint64_t out_of_order = 0;
  uint64_t beyond_window = 0;
  uint64_t rx_bytes = 0;
  uint64_t late = 0;
  uint64_t misdelivered = 0;
  uint64_t ecn[4] = {};
};

// Reads what one lcore counted of one stream's reception: the counters under the
// lcore's seqcount, retried until no RX burst overlapped the read (bounded: a read that
// never finds a quiet moment keeps its last attempt, a burst's worth apart at most); the
// histogram buckets after it. Once the lcore has returned the count is even and still,
// so the first attempt is exact.
RxCounts read_rx(const fast::LcoreCtx& ctx, const fast::RxStream& rx, fast::LatencyHist& latency) {
  RxCounts c;
  for (int attempt = 0; attempt < 10000; ++attempt) {
    const uint64_t before = ctx.rx_seq.load(std::memory_order_acquire);
    if ((before & 1) != 0) {
      rte_pause();
      continue;
    }
    c = RxCounts{};
    for (uint16_t lane = 0; lane < rx.n_lanes; ++lane) {
      const fast::SeqTracker::Counts t = ctx.rx_trackers[rx.first_tracker + lane].counts_relaxed();
      c.received += t.received;
      c.duplicate += t.duplicate;
      c.out_of_order += t.out_of_order;
      c.beyond_window += t.beyond_window;
    }
    c.rx_bytes = __atomic_load_n(&rx.rx_bytes, __ATOMIC_RELAXED);
    c.late = __atomic_load_n(&rx.late, __ATOMIC_RELAXED);
    c.misdelivered = __atomic_load_n(&rx.misdelivered, __ATOMIC_RELAXED);
    for (int e = 0; e < 4; ++e) c.ecn[e] = __atomic_load_n(&rx.ecn[e], __ATOMIC_RELAXED);
    latency.load_summary_relaxed(rx.latency);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (ctx.rx_seq.load(std::memory_order_relaxed) == before) break;
  }
  latency.load_buckets_relaxed(rx.latency);
  return c;
}

// Seconds from the run's start to `tsc` (0 before it).
double seconds_since(uint64_t tsc, uint64_t start_tsc, uint64_t tsc_hz) {
  return tsc > start_tsc ? static_cast<double>(tsc - start_tsc) / static_cast<double>(tsc_hz) : 0.0;
}

// The MAC Control frames a port's RX queues counted, as one report; none when no frame
// came. Times are since `start_tsc`.
std::optional<api::MacControlReport> mac_control_report(const std::vector<LcoreState>& lcores, uint16_t port_id,
                                                        uint64_t speed_bps, uint64_t start_tsc, uint64_t tsc_hz) {
  fast::MacControlCounts sum;
  for (const LcoreState& l : lcores)
    for (size_t i = 0; i < l.rxqs.size(); ++i) {
      if (l.rxqs[i].port_id != port_id) continue;
      const fast::MacControlCounts& q = l.rxqs[i].mac_control;
      auto add = [](fast::MacControlCounts::Class& to, const fast::MacControlCounts::Class& from) {
        to.xoff += counter_read(from.xoff);
        to.xon += counter_read(from.xon);
        to.quanta += counter_read(from.quanta);
      };
      for (unsigned p = 0; p < 8; ++p) add(sum.pfc[p], q.pfc[p]);
      add(sum.pause, q.pause);
      sum.pfc_frames += counter_read(q.pfc_frames);
      sum.pause_frames += counter_read(q.pause_frames);
      sum.other_frames += counter_read(q.other_frames);
      const uint64_t first = counter_read(q.first_tsc);
      if (first != 0 && (sum.first_tsc == 0 || first < sum.first_tsc)) sum.first_tsc = first;
      sum.last_tsc = std::max(sum.last_tsc, counter_read(q.last_tsc));
    }
  if (sum.pfc_frames + sum.pause_frames + sum.other_frames == 0) return std::nullopt;
  auto report = [&](int priority, const fast::MacControlCounts::Class& c) {
    return api::PauseClassReport{priority, c.xoff, c.xon, c.quanta, plan::pause_ns(c.quanta, speed_bps)};
  };
  api::MacControlReport r;
  r.pfc_frames = sum.pfc_frames;
  r.pause_frames = sum.pause_frames;
  r.other_frames = sum.other_frames;
  r.first_s = seconds_since(sum.first_tsc, start_tsc, tsc_hz);
  r.last_s = seconds_since(sum.last_tsc, start_tsc, tsc_hz);
  for (unsigned p = 0; p < 8; ++p)
    if (sum.pfc[p].xoff + sum.pfc[p].xon != 0) r.pfc.push_back(report(static_cast<int>(p), sum.pfc[p]));
  if (sum.pause_frames != 0) r.pause = report(-1, sum.pause);
  return r;
}

// Adds a timeline's n + 1 bins (relaxed reads: live, its lcore may be counting) to `sum`.
void add_timeline(std::vector<uint64_t>& sum, const fast::TimelineBins& t) {
  if (t.bins == nullptr) return;
  for (size_t i = 0; i < sum.size(); ++i) sum[i] += counter_read(t.bins[i]);
}

// Sums of n + 1 bins as a report: the last is what came after the span; the rest up to
// the last bin with a frame in either.
api::TimelineReport timeline_report(uint64_t bin_ns, std::vector<uint64_t> tx, std::vector<uint64_t> rx) {
  api::TimelineReport r;
  r.bin_s = static_cast<double>(bin_ns) / 1e9;
  r.tx_after = tx.empty() ? 0 : tx.back();
  r.rx_after = rx.empty() ? 0 : rx.back();
  if (!tx.empty()) tx.pop_back();
  if (!rx.empty()) rx.pop_back();
  size_t used = 0;
  for (size_t i = 0; i < std::max(tx.size(), rx.size()); ++i)
    if ((i < tx.size() && tx[i] != 0) || (i < rx.size() && rx[i] != 0)) used = i + 1;
  if (!tx.empty()) tx.resize(used);
  if (!rx.empty()) rx.resize(used);
  r.tx = std::move(tx);
  r.rx = std::move(rx);
  return r;
}

// What the lcores counted of stream `s`'s reception, added to `r`; its latency merged
// into `latency`.
void sum_stream_rx(StreamReport& r, fast::LatencyHist& latency, const std::vector<LcoreState>& lcores, size_t s) {
  for (const LcoreState& l : lcores) {
    if (l.streams.size() == 0 || !l.streams[s].enabled()) continue;
    const fast::RxStream& rx = l.streams[s];
    fast::LatencyHist lcore_latency;
    const RxCounts c = read_rx(l.ctx[0], rx, lcore_latency);
    latency.merge(lcore_latency);
    r.rx_packets += c.received;
    r.duplicate += c.duplicate;
    r.out_of_order += c.out_of_order;
    r.beyond_window += c.beyond_window;
    r.rx_bytes += c.rx_bytes;
    r.late += c.late;
    r.misdelivered += c.misdelivered;
    if ((rx.inspect & fast::RxStream::kInspectEcn) != 0) {
      api::EcnCounts& ecn = r.ecn ? *r.ecn : r.ecn.emplace();
      ecn.not_ect += c.ecn[0];
      ecn.ect1 += c.ecn[1];
      ecn.ect0 += c.ecn[2];
      ecn.ce += c.ecn[3];
    }
  }
}

// What stream `s`'s lanes sent, added to `r`, and the TSC cycles they were held by pause
// (pfc_honour: ended holds, and with `live_now_tsc` (0: a final reading) the one going on).
uint64_t sum_stream_tx(StreamReport& r, const std::vector<LcoreState>& lcores, size_t s, uint64_t live_now_tsc,
                       uint64_t tsc_hz) {
  uint64_t paused_tsc = 0;
  for (const LcoreState& l : lcores) {
    for (size_t i = 0; i < l.lanes.size(); ++i) {
      if (l.lane_refs[i].stream != s) continue;
      const fast::TxLane& lane = l.lanes[i];
      paused_tsc += counter_read(lane.pause.paused_tsc);
      const uint64_t since = counter_read(lane.pause.since_tsc);
      if (live_now_tsc != 0 && since != 0 && live_now_tsc > since) paused_tsc += live_now_tsc - since;
      const uint64_t tx_packets = fast::counter_read(lane.tx_packets);
      r.tx_packets += tx_packets;
      r.tx_bytes += fast::counter_read(lane.tx_bytes);
      r.tx_queue_full += fast::counter_read(lane.queue_full);
      r.tx_forgone += fast::counter_read(lane.forgone);
      // A lane still sending has run until now.
      const bool done = lane.done.load(std::memory_order_acquire);
      const uint64_t stop_tsc = done ? __atomic_load_n(&lane.stop_tsc, __ATOMIC_RELAXED) : live_now_tsc;
      const uint64_t began = lane.start_tsc + lane.start_after_tsc;
      if (stop_tsc > began && lane.start_tsc != 0)
        r.tx_pps_achieved +=
            static_cast<double>(tx_packets) * static_cast<double>(tsc_hz) / static_cast<double>(stop_tsc - began);
    }
  }
  return paused_tsc;
}

// Stream `s`'s timeline ([run] timeline): its lanes' bins, and where it `receives` its
// receivers', with the span of its reception and (read on one lcore) its longest gap.
api::TimelineReport stream_timeline(const RunState& run, size_t s, bool receives, uint64_t start_tsc, uint64_t tsc_hz) {
  std::vector<uint64_t> tx(run.timeline_bins + size_t{1});
  std::vector<uint64_t> rx(receives ? tx.size() : 0);
  unsigned receiving_lcores = 0;
  const fast::RxStream* receiver = nullptr;
  uint64_t first_rx = UINT64_MAX, last_rx = 0;
  for (const LcoreState& l : run.lcores) {
    for (size_t i = 0; i < l.lanes.size(); ++i)
      if (l.lane_refs[i].stream == s) add_timeline(tx, l.lanes[i].timeline);
    if (rx.empty() || s >= l.streams.size()) continue;
    add_timeline(rx, l.streams[s].timeline);
    // Last before first: a frame between the two reads is then in the span, not before it.
    const uint64_t last = counter_read(l.streams[s].last_rx_tsc);
    const uint64_t first = counter_read(l.streams[s].first_rx_tsc);
    if (first != 0) first_rx = std::min(first_rx, first), last_rx = std::max(last_rx, last);
    if (counter_read(l.streams[s].longest_gap_end_tsc) != 0) {
      ++receiving_lcores;
      receiver = &l.streams[s];
    }
  }
  api::TimelineReport t = timeline_report(run.timeline_bin_ns, std::move(tx), std::move(rx));
  if (last_rx != 0)
    t.rx_span_s = std::pair{seconds_since(first_rx, start_tsc, tsc_hz), seconds_since(last_rx, start_tsc, tsc_hz)};
  if (receiving_lcores == 1) {
    const uint64_t end = counter_read(receiver->longest_gap_end_tsc);
    t.longest_rx_gap_s = std::pair{seconds_since(end - counter_read(receiver->longest_gap_tsc), start_tsc, tsc_hz),
                                   seconds_since(end, start_tsc, tsc_hz)};
  }
  return t;
}

}  // namespace

api::RunStart Engine::State::run_start() const {
  api::RunStart start{start_asked_utc_ns, start_map.utc_ns_at(start_tsc), std::nullopt, start_map.error_ns};
  for (const LcoreState& l : run.lcores) {
    const uint64_t began = l.ctx[0].began_tsc.load(std::memory_order_relaxed);
    if (l.lanes.size() == 0 || began == 0) continue;  // no TX, or it never began
    const int64_t utc = start_map.utc_ns_at(began);
    if (!start.first_tx_utc_ns || utc < *start.first_tx_utc_ns) start.first_tx_utc_ns = utc;
  }
  return start;
}

StreamReport Engine::State::collect_stream(size_t s, Reading reading) const {
  const StreamState& stream = run.streams[s];
  StreamReport r;
  r.name = stream.cfg.name;
  r.tx_port = stream.cfg.tx_port;
  r.rx_port = stream.cfg.rx_port;
  r.frame_bytes_mean = stream.cfg.frame.mean();
  r.target_pps = stream.pacing.pps;
  r.rate_changes = stream.rate_changes;
  const bool live = reading == Reading::kLive;
  const uint64_t now_tsc = rte_rdtsc();
  // Receive side first: a frame counted as received was sent before, so while traffic
  // runs `lost` (tx - rx) is never negative; it includes the frames in flight.
  fast::LatencyHist latency;
  if (stream.cfg.rx_port) sum_stream_rx(r, latency, run.lcores, s);
  std::atomic_thread_fence(std::memory_order_acquire);
  const uint64_t paused_tsc = sum_stream_tx(r, run.lcores, s, live ? now_tsc : 0, tsc_hz);
  r.tx_l1_bps_achieved = api::l1_bps_of(r.tx_pps_achieved, r.tx_bytes, r.tx_packets);
  if (ports[stream.tx_port].cfg().pfc_honour && stream.cfg.kind == api::StreamKind::kUdp) {
    // The mean over the lanes, which share a port and so are held together.
    r.paused_ns = static_cast<uint64_t>(static_cast<double>(paused_tsc) * 1e9 / static_cast<double>(tsc_hz) /
                                        static_cast<double>(std::max<uint16_t>(stream.cfg.lanes, 1)));
  }
  if (run.timeline_bins != 0) r.timeline = stream_timeline(run, s, stream.cfg.rx_port.has_value(), start_tsc, tsc_hz);
  if (stream.cfg.rx_port) {
    r.lost = api::lost_frames(r.tx_packets, r.rx_packets, r.duplicate);
    // Live, a frame can be received before its TX lane has counted its burst.
    if (live && r.lost < 0) r.lost = 0;
    r.latency = LatencySummary{latency.count(),          latency.min(),           latency.mean(),
                               latency.percentile(0.50), latency.percentile(0.90), latency.percentile(0.99),
                               latency.percentile(0.999), latency.percentile(0.9999), latency.max(),
                               latency.jitter()};
    if (stream.cfg.receive_only) {
      r.receive_only = true;
      r.lost = 0;  // not known here: the sender counted what was sent
    }
    if (stream.cfg.receive_only && !stream.cfg.latency_shift_ns) {
      // Its frames carry the sender's clock, not put on ours: a difference with ours is no latency.
      r.latency = {};
      r.late = 0;
      r.latency_withheld = "sent by another data plane (receive_only): its stamps are another clock's";
    }
  }
  return r;
}

PortReport Engine::State::collect_port(size_t index) const {
  const EthdevPort& p = ports[index];
  PortReport r;
  r.name = p.name();
  r.device = p.cfg().device;
  r.driver = p.info().driver;
  r.port_id = p.port_id();
  r.socket = p.info().socket;
  r.link_up = p.link().up;
  r.link_speed_bps = uint64_t{p.link().speed_mbps} * 1'000'000;
  r.speed_bps = p.speed_bps();
  r.speed_from_profile = p.cfg().speed_bps != 0;
  if (const PortControl* control = controls->find(p.name())) {
    if (const auto wire_up = control->wire_link_up()) r.link_up = *wire_up;  // not ethdev's idea of it
    if (auto counters = control->port_counters_this_run()) r.counters = *counters;
  }
  for (const LcoreState& l : run.lcores)
    for (size_t i = 0; i < l.rxqs.size(); ++i)
      if (l.rxqs[i].port_id == p.port_id()) r.rx_no_signature += fast::counter_read(l.rxqs[i].no_signature);
  r.rx_after_drain = p.rx_after_drain();
  r.mac_control = mac_control_report(run.lcores, p.port_id(), r.speed_bps, start_tsc, tsc_hz);
  if (run.timeline_bins != 0) {
    std::vector<uint64_t> bins(run.timeline_bins + size_t{1});
    for (const LcoreState& l : run.lcores)
      for (size_t i = 0; i < l.rxqs.size(); ++i)
        if (l.rxqs[i].port_id == p.port_id()) add_timeline(bins, l.rxqs[i].mac_control_timeline);
    api::TimelineReport t = timeline_report(run.timeline_bin_ns, {}, std::move(bins));
    if (!t.rx.empty() || t.rx_after != 0) r.mac_control_timeline = std::move(t);
  }
  if (index < run.netdev_senders.size() && run.netdev_senders[index] != nullptr) {
    const NetdevMacSender& sender = *run.netdev_senders[index];
    const NetdevMacSender::Counts c = sender.counts();
    r.mac_control_netdev = api::MacControlNetdevReport{sender.ifname(), c.sent, c.send_failures,
                                                        c.last_errno != 0 ? std::strerror(c.last_errno) : ""};
  }
  return r;
}

std::vector<StreamReport> Engine::live_stream_stats() const {
  const State& st = *state_;
  std::vector<StreamReport> out;
  const Reading reading = st.launched ? Reading::kLive : Reading::kFinal;
  for (size_t s = 0; s < st.run.streams.size(); ++s) out.push_back(st.collect_stream(s, reading));
  return out;
}

std::vector<LcoreReport> Engine::lcore_reports() const {
  const State& st = *state_;
  std::vector<LcoreReport> out;
  for (const LcoreState& l : st.run.lcores) {
    LcoreReport r{l.lcore_id, l.socket, {}, {}};
    for (size_t i = 0; i < l.lanes.size(); ++i) {
      const fast::TxLane& lane = l.lanes[i];
      r.tx_lanes.push_back({st.run.streams[l.lane_refs[i].stream].cfg.name, lane.lane, lane.port_id, lane.queue_id,
                            fast::counter_read(lane.tx_packets), fast::counter_read(lane.queue_full),
                            fast::counter_read(lane.alloc_failures), lane.done.load(std::memory_order_acquire)});
    }
    for (size_t i = 0; i < l.rxqs.size(); ++i) {
      const fast::RxQueue& q = l.rxqs[i];
      r.rx_queues.push_back({q.port_id, q.queue_id, fast::counter_read(q.rx_packets), fast::counter_read(q.rx_bytes),
                             fast::counter_read(q.no_signature)});
    }
    out.push_back(std::move(r));
  }
  return out;
}

Result<LatencyHistogram> Engine::latency_histogram(const std::string& name) const {
  const State& st = *state_;
  size_t index = st.run.streams.size();
  for (size_t i = 0; i < st.run.streams.size(); ++i)
    if (st.run.streams[i].cfg.name == name) index = i;
  if (index == st.run.streams.size()) return make_error(Errc::kInvalid, fmt::format("no stream is named '{}'", name));
  if (!st.run.streams[index].cfg.rx_port)
    return make_error(Errc::kInvalid, fmt::format("stream '{}' is transmit-only: it has no latency here", name));
  fast::LatencyHist merged;
  for (const LcoreState& l : st.run.lcores) {
    if (l.streams.size() == 0 || !l.streams[index].enabled()) continue;
    fast::LatencyHist copy;
    read_rx(l.ctx[0], l.streams[index], copy);
    merged.merge(copy);
  }
  LatencyHistogram h{name, merged.count(), {}};
  for (uint32_t b = 0; b < fast::LatencyHist::kBuckets; ++b) {
    const uint64_t count = merged.buckets()[b];
    if (count != 0) h.buckets.push_back({fast::LatencyHist::bucket_low(b), fast::LatencyHist::bucket_high(b), count});
  }
  return h;
}

std::vector<PortReport> Engine::port_reports() const {
  std::vector<PortReport> out;
  for (size_t p = 0; p < state_->ports.size(); ++p) out.push_back(state_->collect_port(p));
  return out;
}

std::vector<PortTraffic> Engine::live_counters() const {
  const State& st = *state_;
  std::vector<PortTraffic> out;
  for (const EthdevPort& p : st.ports) {
    PortTraffic c;
    c.name = p.name();
    for (const LcoreState& l : st.run.lcores) {
      for (size_t i = 0; i < l.lanes.size(); ++i) {
        if (l.lanes[i].port_id != p.port_id()) continue;
        c.tx_packets += counter_read(l.lanes[i].tx_packets);
        c.tx_bytes += counter_read(l.lanes[i].tx_bytes);
      }
      for (size_t i = 0; i < l.rxqs.size(); ++i) {
        if (l.rxqs[i].port_id != p.port_id()) continue;
        c.rx_packets += counter_read(l.rxqs[i].rx_packets);
        c.rx_bytes += counter_read(l.rxqs[i].rx_bytes);
      }
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<api::SwitchReport> Engine::switch_reports() const {
  std::vector<api::SwitchReport> out;
  for (const auto& sw : state_->switches)
    out.push_back(sw->current_report());
  return out;
}

}  // namespace lr::dp
