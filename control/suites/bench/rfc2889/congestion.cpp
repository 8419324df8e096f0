#include <fmt/format.h>

#include "control/suites/bench/rfc2889/tests.hpp"
#include "control/suites/bench/rfc2889_section.hpp"

namespace lr::bench::rfc2889 {

namespace {

// Pause frames a tester port heard from the device this run (PFC and 802.3x PAUSE).
uint64_t pause_frames_heard(const api::RunReport& report, const std::string& port) {
  for (const api::PortReport& p : report.ports)
    if (p.name == port && p.mac_control) return p.mac_control->pfc_frames + p.mac_control->pause_frames;
  return 0;
}

PathFigures path_figures(const api::StreamReport& s) {
  const double loss = s.tx_packets == 0 ? 0 : 100.0 * static_cast<double>(std::max<int64_t>(s.lost, 0)) / static_cast<double>(s.tx_packets);
  return {s.name, s.tx_packets, s.rx_packets - s.duplicate, s.lost, loss, s.tx_pps_achieved};
}

}  // namespace

// Ports 0 and 1 send at 100 %: 0 half to port 2 (congested: 150 % offered) and half to
// port 3 (uncongested), 1 all to port 2.
void congestion_control(Plan& p) {
  for (const uint16_t bytes : p.cfg.frame_sizes) {
    Streams streams(p);
    const std::string congested_a = fmt::format("{}->{}", p.port(0), p.port(2));
    const std::string uncongested = fmt::format("{}->{}", p.port(0), p.port(3));
    const std::string congested_b = fmt::format("{}->{}", p.port(1), p.port(2));
    const uint64_t duration = p.cfg.trial_duration_ns;
    streams.traffic(congested_a, 0, 2, bytes, {api::RateKind::kPercentOfLine, 50}, kHelloSettleNs, duration);
    streams.traffic(uncongested, 0, 3, bytes, {api::RateKind::kPercentOfLine, 50}, kHelloSettleNs, duration);
    streams.traffic(congested_b, 1, 2, bytes, {api::RateKind::kPercentOfLine, 100}, kHelloSettleNs, duration);
    const Measured m = measure(p, streams, "congestion_control", fmt::format("{} B", bytes));
    Result result = entry("congestion_control", "5.5");
    result.frame_size = bytes;
    if (!m.valid()) {
      p.skipped(std::move(result), m);
      if (p.interrupted) return;
      continue;
    }
    const api::RunReport& r = m.run.report;
    const api::StreamReport& hol = stream_of(r, uncongested);
    result.congested = std::vector<PathFigures>{path_figures(stream_of(r, congested_a)),
                                                path_figures(stream_of(r, congested_b))};
    result.uncongested = path_figures(hol);
    const uint64_t pauses = pause_frames_heard(r, p.port(0)) + pause_frames_heard(r, p.port(1));
    result.pause_frames_received = pauses;
    // RFC 2889 §5.5: frames lost toward the uncongested port are head-of-line blocking;
    // the device holding its senders back (pause frames) is backpressure.
    result.head_of_line_blocking = hol.lost > 0;
    result.backpressure = pauses > 0;
    result.why = fmt::format("{}; {}",
                                hol.lost > 0 ? fmt::format("{} frames lost toward the uncongested port {}: head-of-line "
                                                           "blocking", hol.lost, p.port(3))
                                             : fmt::format("nothing lost toward the uncongested port {}", p.port(3)),
                                pauses > 0 ? fmt::format("{} pause frames held the senders back: backpressure", pauses)
                                           : "no pause frame: no backpressure (the congested port drops)");
    p.result(result);
  }
}

}  // namespace lr::bench::rfc2889
