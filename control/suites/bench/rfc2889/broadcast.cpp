#include <fmt/format.h>

#include "control/suites/bench/rfc2889/tests.hpp"
#include "control/suites/bench/rfc2889_section.hpp"

namespace lr::bench::rfc2889 {

// Port 0 sends broadcast frames; every other port must receive each. Counted at the
// ports (the frames of that one stream are all that run); latency on the copies that
// reach port 1, the stream's receiver.
void broadcast(Plan& p) {
  for (const uint16_t bytes : p.cfg.frame_sizes) {
    Streams streams(p, {});
    api::StreamSpec& s = streams.traffic("broadcast", 0, std::nullopt, bytes,
                                         {api::RateKind::kPercentOfLine, p.cfg.broadcast_load_percent}, 0,
                                         p.cfg.trial_duration_ns);
    s.rx_port = p.port(1);
    const Measured m = measure(p, streams, "broadcast", fmt::format("{} B", bytes));
    Result result = entry("broadcast", "5.10");
    result.frame_size = bytes;
    result.load_percent = p.cfg.broadcast_load_percent;
    if (!m.valid()) {
      p.skipped(std::move(result), m);
      if (p.interrupted) return;
      continue;
    }
    const api::RunReport& r = m.run.report;
    const api::StreamReport& sent = stream_of(r, "broadcast");
    const double seconds = static_cast<double>(p.cfg.trial_duration_ns) / 1e9;
    std::vector<PortReceived> ports;
    uint64_t received = 0, short_ports = 0;
    for (size_t i = 1; i < p.ports(); ++i)
      for (const api::PortReport& port : r.ports) {
        if (port.name != p.port(i)) continue;
        const uint64_t rx = port.counters.ipackets;
        received += rx;
        short_ports += rx < sent.tx_packets;
        ports.push_back({port.name, rx, static_cast<int64_t>(sent.tx_packets) - static_cast<int64_t>(rx),
                         static_cast<double>(rx) / seconds});
      }
    result.tx_frames = sent.tx_packets;
    result.ports = std::move(ports);
    result.forwarding_rate_fps = static_cast<double>(received) / seconds;
    result.latency_port = p.port(1);
    result.latency = BroadcastLatency{sent.latency.samples, sent.latency.min_ns, sent.latency.mean_ns,
                                      sent.latency.p99_ns, sent.latency.max_ns};
    result.why = short_ports == 0 ? fmt::format("every port received all {} frames", sent.tx_packets)
                                     : fmt::format("{} of {} ports received fewer than the {} frames sent", short_ports,
                                                   p.ports() - 1, sent.tx_packets);
    p.result(result);
  }
}

}  // namespace lr::bench::rfc2889
