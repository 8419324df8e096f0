#include "lib/views/run_views.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>

#include "lib/api/run_spec.hpp"
#include "lib/views/neighbor_text.hpp"

namespace lr::views {

namespace {

// Name columns as wide as the longest name (at least the header's), so long stream and
// port names keep the table aligned.
template <class Rows>
size_t name_width(const Rows& rows, size_t at_least) {
  size_t width = at_least;
  for (const auto& row : rows) width = std::max(width, row.name.size());
  return width;
}

std::string ns(uint64_t value) { return fmt::format("{}ns", value); }

}  // namespace

std::string plan_text(const api::RunPlan& plan) {
  std::string out = "plan:\n";
  for (const api::PortPlan& p : plan.ports) {
    const std::string speed = p.speed_bps == 0 ? std::string("speed unknown")
                                               : fmt::format("{} Gbit/s{}", static_cast<double>(p.speed_bps) / 1e9,
                                                             p.speed_from_profile ? " (from profile)" : "");
    out += fmt::format("  port {} '{}' {} (driver {}, socket {}, checksums in {}, link {} {})\n", p.port_id, p.name,
                       p.device, p.driver, p.socket < 0 ? std::string("any") : std::to_string(p.socket),
                       p.checksum_offload ? "hardware" : "software", p.link_up ? "up" : "down", speed);
    if (!p.rx_not_polled.empty() && !p.rx_queues.empty()) out += "    rx " + p.rx_not_polled + "\n";
    else
      for (const api::QueuePlan& q : p.rx_queues)
        out += fmt::format("    rx queue {} -> lcore {}{}\n", q.queue, q.lcore, q.cross_numa ? " (cross-NUMA)" : "");
    for (const api::QueuePlan& q : p.tx_queues)
      out += fmt::format("    tx queue {} -> lcore {}{}\n", q.queue, q.lcore, q.cross_numa ? " (cross-NUMA)" : "");
    if (p.hosts_tx_queue) out += fmt::format("    tx queue {} -> the emulated hosts' thread\n", *p.hosts_tx_queue);
    // Said where it is not the plain case: PFC / PAUSE through the kernel, or not at all.
    if (!p.mac_control_tx.empty() && p.mac_control_tx != "PMD") out += "    MAC Control TX: " + p.mac_control_tx + "\n";
  }
  if (plan.tx_buffers == "shared")
    out +=
        "  TX frames copied per frame from each stream's template into its port's shared pool: " + plan.tx_buffers_why +
        "\n";
  else if (!plan.tx_buffers.empty()) out += "  TX frames from " + plan.tx_buffers_why + "\n";
  for (unsigned lcore : plan.scheduled_lcores)
    out +=
        fmt::format("  lcore {} visits its TX lanes by deadline (more than {}: each lane when its next frame is due)\n",
                    lcore, api::kScannedLanes);
  for (const api::StreamPlan& s : plan.streams) {
    std::string lanes;
    for (const api::QueuePlan& lane : s.lanes) lanes += fmt::format(" q{}@lcore{}", lane.queue, lane.lcore);
    const std::string stop = s.count != 0         ? fmt::format("{} frames", s.count)
                             : s.duration_ns != 0 ? fmt::format("{} s", static_cast<double>(s.duration_ns) / 1e9)
                                                  : std::string("until stopped");
    // MAC Control: what each frame asks of the receiver, e.g. "PFC frames pausing 838.85 us each".
    const std::string frames =
        s.kind == "udp"    ? fmt::format("{:.1f} B mean frame", s.frame_bytes_mean)
        : s.kind == "roce" ? fmt::format("{:.0f} B RoCEv2 frames, {}", s.frame_bytes_mean, s.roce)
        : s.pause_ns > 0 ? fmt::format("{} frames pausing {:.2f} us each", s.kind == "pfc" ? "PFC" : "PAUSE", s.pause_ns / 1e3)
                         : fmt::format("{} frames (XON: quanta 0)", s.kind == "pfc" ? "PFC" : "PAUSE");
    // pfc_honour: what received on its TX port holds it.
    const std::string held = !s.pfc_honoured        ? std::string()
                             : s.pfc_priority >= 0 ? fmt::format(", held by PFC priority {} and PAUSE", s.pfc_priority)
                                                   : std::string(", held by PAUSE only (its frames carry no priority)");
    if (s.receive_only) {
      out += fmt::format("  stream '{}' received on {}: sent by another data plane (receive_only)\n", s.name,
                         s.rx_port.value_or("-"));
      continue;
    }
    out += fmt::format("  stream '{}' {} -> {}: {}, {}, {}{}, lanes:{}\n", s.name, s.tx_port,
                       s.rx_port.value_or("(transmit only)"), frames,
                       s.target_pps > 0 ? fmt::format("{:.6f} Mpps", s.target_pps / 1e6) : std::string("max rate"), stop,
                       held, lanes);
  }
  for (const api::SwitchPlan& sw : plan.switches) {
    std::string lossless;
    for (int prio : sw.lossless) lossless += (lossless.empty() ? "" : ", ") + std::to_string(prio);
    out += fmt::format("  switch '{}' on lcore {}: lossless priorities {}; forwarding {}\n", sw.name, sw.lcore,
                       lossless.empty() ? std::string("none") : lossless,
                       sw.learn ? "by learned destination MAC" : "by port");
    for (const api::SwitchPortPlan& p : sw.ports) {
      const auto gbps = [](uint64_t bps) { return fmt::format("{} Gbit/s", static_cast<double>(bps) / 1e9); };
      out += fmt::format("    port '{}' {} (link {}, {}{}){}\n", p.name, p.device, p.link_up ? "up" : "down",
                         gbps(p.speed_bps), p.shape_bps < p.speed_bps ? ", shaped to " + gbps(p.shape_bps) : "",
                         p.forward_to.empty() ? "" : " -> " + p.forward_to);
    }
  }
  for (const std::string& warning : plan.warnings) out += "warning: " + warning + "\n";
  return out;
}

std::string stream_table(const std::vector<api::StreamReport>& streams) {
  const size_t w = name_width(streams, 16);
  std::string out = fmt::format("{:<{}} {:>12} {:>10} {:>11} {:>10} {:>12} {:>10} {:>6} {:>6} {:>6} {:>9} {:>9} {:>9} {:>9}\n",
                                "stream", w, "tx_packets", "tx_Mpps", "target_Mpps", "tx_qfull", "rx_packets", "lost",
                                "dup", "ooo", "late", "lat_min", "lat_p50", "lat_p99", "lat_max");
  for (const api::StreamReport& s : streams) {
    const std::string target = s.target_pps > 0 ? fmt::format("{:.4f}", s.target_pps / 1e6) : std::string("max");
    out += fmt::format("{:<{}} {:>12} {:>10.4f} {:>11} {:>10}", s.name, w, s.tx_packets, s.tx_pps_achieved / 1e6, target,
                       s.tx_queue_full);
    if (s.rx_port && s.rx_unknown) {
      out += fmt::format(" {:>12} {:>10}   (what arrived is not known)\n", "-", "-");
    } else if (s.rx_port && s.latency_withheld) {
      // Received only: what was sent, and so what was lost, is the sender's report's.
      out += fmt::format(" {:>12} {:>10} {:>6} {:>6} {:>6}   (latency withheld)\n", s.rx_packets,
                         s.receive_only ? std::string("-") : std::to_string(s.lost), s.duplicate, s.out_of_order, "-");
    } else if (s.rx_port) {
      const api::LatencySummary& l = s.latency;
      out += fmt::format(" {:>12} {:>10} {:>6} {:>6} {:>6} {:>9} {:>9} {:>9} {:>9}\n", s.rx_packets, s.lost, s.duplicate,
                         s.out_of_order, s.late, ns(l.min_ns), ns(l.p50_ns), ns(l.p99_ns), ns(l.max_ns));
    } else {
      out += fmt::format(" {:>12}   (transmit only)\n", "-");
    }
  }
  for (const api::StreamReport& s : streams) {
    if (s.rx_unknown) out += fmt::format("stream '{}': {}\n", s.name, *s.rx_unknown);
    else if (s.latency_withheld) out += fmt::format("stream '{}' latency withheld: {}\n", s.name, *s.latency_withheld);
    else if (s.latency_bound_ns)
      out += fmt::format("stream '{}' latency between data planes: each figure within {} of the truth ({})\n", s.name,
                         ns(*s.latency_bound_ns), s.latency_clocks.value_or("clocks on one grandmaster"));
  }
  for (const api::StreamReport& s : streams) {
    if (!s.ecn) continue;
    const api::EcnCounts& e = *s.ecn;
    const uint64_t ip = e.not_ect + e.ect0 + e.ect1 + e.ce;
    out += fmt::format("stream '{}' ECN: {} of {} frames arrived CE-marked ({:.3f} %); ECT(0) {}, ECT(1) {}, not-ECT {}\n",
                       s.name, e.ce, ip, ip != 0 ? 100.0 * static_cast<double>(e.ce) / static_cast<double>(ip) : 0.0,
                       e.ect0, e.ect1, e.not_ect);
  }
  for (const api::StreamReport& s : streams)
    if (s.paused_ns.value_or(0) != 0)
      out += fmt::format("stream '{}' held {:.3f} ms by PFC / PAUSE received on {}\n", s.name,
                         static_cast<double>(*s.paused_ns) / 1e6, s.tx_port);
  // Timelines: where a received stream's frames stopped for a while (every bin: the report).
  for (const api::StreamReport& s : streams) {
    if (!s.timeline || !s.rx_port) continue;
    const api::TimelineReport& t = *s.timeline;
    const auto gap = api::longest_gap(t.rx);
    const double ms = t.bin_s * 1e3;
    out += fmt::format("stream '{}' timeline: {} bins of {:g} ms; ", s.name, t.rx.size(), ms);
    out += gap ? fmt::format("no frame received for {} bin{}, from {:.3f} ms to {:.3f} ms\n", gap->bins,
                             gap->bins == 1 ? "" : "s", static_cast<double>(gap->first_bin) * ms,
                             static_cast<double>(gap->first_bin + gap->bins) * ms)
               : std::string("frames received in every bin\n");
  }
  return out;
}

std::string timeline_sparklines(const std::vector<api::StreamReport>& streams, size_t width) {
  static constexpr const char* kLevels[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  size_t end = 0;
  for (const api::StreamReport& s : streams) {
    if (!s.timeline) continue;
    for (const std::vector<uint64_t>* bins : {&s.timeline->tx, &s.timeline->rx})
      for (size_t i = bins->size(); i > end; --i)
        if ((*bins)[i - 1] != 0) {
          end = i;
          break;
        }
  }
  std::string out;
  size_t name_w = 8;
  for (const api::StreamReport& s : streams) name_w = std::max(name_w, s.name.size());
  for (const api::StreamReport& s : streams) {
    if (!s.timeline || !s.rx_port) continue;
    const std::vector<uint64_t>& rx = s.timeline->rx;
    const size_t last = std::min(end, rx.size()), first = last > width ? last - width : 0;
    uint64_t peak = 0;
    for (size_t i = first; i < last; ++i) peak = std::max(peak, rx[i]);
    std::string line;
    for (size_t i = first; i < last; ++i)
      line += rx[i] == 0 ? " " : kLevels[(rx[i] * 8 + peak - 1) / peak - 1];
    out += fmt::format("{:<{}} |{}| received per {:g} ms bin, the last {}; tallest {}\n", s.name, name_w, line,
                       s.timeline->bin_s * 1e3, last - first, peak);
  }
  return out;
}

std::string run_table(const api::RunReport& r) {
  std::string out = stream_table(r.streams);
  const size_t w = name_width(r.ports, 12);
  size_t driver_w = 10;
  for (const api::PortReport& p : r.ports) driver_w = std::max(driver_w, p.driver.size());
  out += fmt::format("\n{:<{}} {:<{}} {:>12} {:>12} {:>9} {:>9} {:>9} {:>12}\n", "port", w, "driver", driver_w,
                     "opackets", "ipackets", "imissed", "ierrors", "oerrors", "no_signature");
  for (const api::PortReport& p : r.ports)
    out += fmt::format("{:<{}} {:<{}} {:>12} {:>12} {:>9} {:>9} {:>9} {:>12}\n", p.name, w, p.driver, driver_w,
                       p.counters.opackets, p.counters.ipackets, p.counters.imissed, p.counters.ierrors,
                       p.counters.oerrors, p.rx_no_signature);
  if (const std::string pause = pause_text(r.ports); !pause.empty()) out += "\n" + pause;
  if (!r.switches.empty()) out += "\n" + switch_text(r.switches);
  if (!r.captures.empty()) out += "\n" + capture_text(r.captures);
  if (!r.neighbors.empty()) out += "\nemulated hosts:\n" + neighbor_text(r.neighbors);
  if (r.mbufs_not_returned != 0)
    out += fmt::format("\nWARNING: {} mbufs did not return to their pools\n", r.mbufs_not_returned);
  for (const std::string& warning : r.warnings) out += "warning: " + warning + "\n";
  return out;
}

namespace {

std::string pause_class_line(const std::string& what, const api::PauseClassReport& c) {
  std::string line = fmt::format("    {}: {} XOFF, {} XON, {} quanta", what, c.xoff, c.xon, c.quanta);
  if (c.xoff != 0) {
    line += c.pause_ns > 0 ? fmt::format(" = {:.3f} ms of pause asked", c.pause_ns / 1e6)
                           : std::string(" (the port's speed is unknown: no pause time)");
  }
  return line + "\n";
}

std::string optional_count(const std::optional<uint64_t>& v) { return v ? std::to_string(*v) : std::string("-"); }

}  // namespace

std::string pause_text(const std::vector<api::PortReport>& ports) {
  std::string out;
  for (const api::PortReport& p : ports) {
    if (const auto& m = p.mac_control) {
      out += fmt::format("port {}: MAC Control frames received: {} PFC, {} PAUSE{}; first at {:.6f} s, last at {:.6f} s\n", p.name,
                         m->pfc_frames, m->pause_frames,
                         m->other_frames != 0 ? fmt::format(", {} with another opcode", m->other_frames) : std::string(),
                         m->first_s, m->last_s);
      for (const api::PauseClassReport& c : m->pfc) out += pause_class_line(fmt::format("priority {}", c.priority), c);
      if (m->pause) out += pause_class_line("PAUSE", *m->pause);
    }
    if (const auto& n = p.mac_control_netdev) {
      out += fmt::format("port {}: MAC Control frames sent through kernel netdev {} (AF_PACKET): {} taken by the "
                         "kernel, {} refused{}\n",
                         p.name, n->netdev, n->frames_sent, n->send_failures,
                         n->last_error.empty() ? std::string() : " (last: " + n->last_error + ")");
    }
    if (!p.nic_pause.empty()) {
      out += fmt::format("port {}: the NIC's pause counters (frames it consumed or sent itself)\n", p.name);
      for (const api::NicPauseReport& n : p.nic_pause)
        out += fmt::format("    priority {}: rx {} frames, {} us paused; tx {} frames, {} us\n", n.priority,
                           optional_count(n.rx_frames), optional_count(n.rx_duration_us), optional_count(n.tx_frames),
                           optional_count(n.tx_duration_us));
    }
  }
  return out;
}

std::string capture_text(const std::vector<api::CaptureReport>& captures) {
  std::string out;
  for (const api::CaptureReport& c : captures) {
    out += fmt::format("capture {} on {}: {} frames matched, {} written ({} bytes in {}), {} dropped; {}\n", c.id,
                       c.spec.port, c.matched, c.captured, c.file_bytes, c.spec.file, c.capture_dropped, c.state);
    if (!c.trigger_event.empty()) out += fmt::format("  trigger: {} at {}\n", c.trigger_event, c.trigger_fired_at);
    if (!c.error.empty()) out += fmt::format("  error: {}\n", c.error);
  }
  return out;
}

std::string switch_text(const std::vector<api::SwitchReport>& switches) {
  std::string out;
  for (const api::SwitchReport& sw : switches) {
    out += fmt::format("switch '{}' (lcore {}): lossy buffer {} B, its watermark {} B; {} frames left queued at the end; "
                       "its lcore was held up {} times over 20 us (longest {:.0f} us)\n",
                       sw.name, sw.lcore, sw.buffer_bytes, sw.buffer_watermark_bytes, sw.left_in_queues, sw.stalls,
                       sw.longest_stall_us);
    size_t w = 8;
    for (const api::SwitchPortReport& p : sw.ports) w = std::max(w, p.name.size());
    out += fmt::format("{:<{}} {:>4} {:>11} {:>11} {:>10} {:>10} {:>9} {:>13} {:>13} {:>10} {:>12} {:>10}\n", "port", w,
                       "prio", "rx_frames", "tx_frames", "drop_tail", "drop_hdrm", "drop_wd", "pfc_sent",
                       "pfc_received", "ecn_marked", "queue_max_B", "paused_ms");
    for (const api::SwitchPortReport& p : sw.ports) {
      for (const api::SwitchPriorityReport& c : p.priorities)
        out += fmt::format("{:<{}} {:>4} {:>11} {:>11} {:>10} {:>10} {:>9} {:>13} {:>13} {:>10} {:>12} {:>10.3f}\n",
                           p.name, w, fmt::format("{}{}", c.priority, c.lossless ? "L" : ""), c.rx_frames, c.tx_frames,
                           c.drop_tail, c.drop_headroom, c.drop_watchdog,
                           fmt::format("{}/{}", c.pfc_xoff_sent, c.pfc_xon_sent),
                           fmt::format("{}/{}", c.pfc_xoff_received, c.pfc_xon_received), c.ecn_marked,
                           c.queue_watermark_bytes, static_cast<double>(c.paused_ns) / 1e6);
      if (p.rx_unroutable != 0 || p.ecn_copy_failures != 0)
        out += fmt::format("{:<{}}      {} frames without a forwarding entry dropped; {} marked frames sent unmarked "
                           "(no buffer for the copy)\n", p.name, w, p.rx_unroutable, p.ecn_copy_failures);
      if (p.rx_flooded != 0 || p.rx_filtered != 0)
        out += fmt::format("{:<{}}      {} frames flooded (unknown or group destination), {} for its own side "
                           "dropped\n", p.name, w, p.rx_flooded, p.rx_filtered);
    }
    for (const api::SwitchPortReport& p : sw.ports)
      for (const api::SwitchPriorityReport& c : p.priorities)
        if (c.storms != 0)
          out += fmt::format("{} priority {}: PFC watchdog: {} storms, last detected at {:.6f} s, {} restorations{}\n",
                             p.name, c.priority, c.storms, c.storm_detected_s, c.restorations,
                             c.storm_restored_s >= 0 ? fmt::format(", last at {:.6f} s", c.storm_restored_s) : std::string());
    if (sw.mac_learned != 0 || sw.mac_table_full != 0)
      out += fmt::format("  {} addresses learned; {} times an address found no room in the table\n", sw.mac_learned,
                         sw.mac_table_full);
    out += "  (prio L: lossless; pfc as XOFF/XON frames; drop_hdrm: lossless ingress drops past xoff + headroom)\n";
  }
  return out;
}

std::vector<api::StreamReport> with_interval_rates(const std::vector<api::StreamReport>& before,
                                                   std::vector<api::StreamReport> after, double seconds) {
  for (api::StreamReport& s : after) {
    const auto earlier = std::find_if(before.begin(), before.end(), [&](const api::StreamReport& b) { return b.name == s.name; });
    const uint64_t sent = earlier != before.end() && s.tx_packets >= earlier->tx_packets ? s.tx_packets - earlier->tx_packets
                                                                                          : s.tx_packets;
    s.tx_pps_achieved = seconds > 0 ? static_cast<double>(sent) / seconds : 0;
  }
  return after;
}

std::string link_changes(const api::RunReport& report) {
  std::string out;
  for (const api::PortReport& port : report.ports)
    for (size_t i = 1; i < port.link_events.size(); ++i) {
      const api::LinkEventReport& e = port.link_events[i];
      out += fmt::format("  {} {} {} ({})\n", e.at, port.name,
                         e.up ? fmt::format("up at {} Mb/s", e.speed_mbps) : std::string("down"), e.cause);
    }
  return out;
}

std::string setting_change_line(const std::string& port, const api::SettingChange& c) {
  std::string line = fmt::format("  port {}: {} {} -> {}: {}", port, c.setting, c.before.empty() ? "(unknown)" : c.before,
                                 c.set_to, c.restore == "at_exit" ? "put back when the data plane exits" : c.restore);
  if (!c.error.empty()) line += " (" + c.error + ")";
  return line + "\n";
}

std::string settings_changes(const std::vector<api::PortReport>& ports) {
  std::string out;
  for (const api::PortReport& port : ports)
    for (const api::SettingChange& c : port.settings_changed) out += setting_change_line(port.name, c);
  return out;
}

std::string live_line(double elapsed_s, const std::vector<api::PortTraffic>& before,
                      const std::vector<api::PortTraffic>& after, double seconds) {
  // Up to two ports on the line itself; more, one line each under the time, aligned.
  const size_t ports = std::min(after.size(), before.size());
  size_t name_w = 0;
  for (size_t i = 0; i < ports; ++i) name_w = std::max(name_w, after[i].name.size());
  std::string line = fmt::format("[{:7.1f}s]", elapsed_s);
  for (size_t i = 0; i < ports; ++i) {
    const api::PortRate r = api::port_rate(before[i], after[i], seconds);
    line += fmt::format("{}{:<{}}: tx {:8.3f} Mpps {:7.3f} Gbit/s rx {:8.3f} Mpps {:7.3f} Gbit/s",
                        ports > 2 ? "\n    " : "  ", r.name + "", ports > 2 ? name_w : 0, r.tx_pps / 1e6,
                        r.tx_l1_bps / 1e9, r.rx_pps / 1e6, r.rx_l1_bps / 1e9);
  }
  return line;
}

}  // namespace lr::views
