#include "control/views/prometheus.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <regex>
#include <string_view>

#include "control/views/prometheus_family.hpp"

namespace lr::ctl {

using nlohmann::json;

namespace {

double num(uint64_t v) { return static_cast<double>(v); }

// xstat names become metric-name-safe: lower case, [a-z0-9_].
std::string metric_safe(const std::string& name) {
  std::string out;
  for (char c : name) out += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '_';
  return out;
}

// A metric of one report field, in base units.
template <class Report>
struct Metric {
  const char* name;
  const char* type;
  const char* help;
  double (*value)(const Report&);
};

constexpr Metric<api::PortReport> kPortMetrics[] = {
    {"lr_port_link_up", "gauge", "Link status of the port (1 up, 0 down).",
     [](const api::PortReport& p) { return p.link_up ? 1.0 : 0.0; }},
    {"lr_port_link_speed_bytes_per_second", "gauge", "Link speed the port reports, in bytes/s (bit/s / 8).",
     [](const api::PortReport& p) { return num(p.link_speed_bps) / 8; }},
    {"lr_port_rx_packets_total", "counter", "Frames the port received in the current run (ipackets).",
     [](const api::PortReport& p) { return num(p.counters.ipackets); }},
    {"lr_port_tx_packets_total", "counter", "Frames the port sent in the current run (opackets).",
     [](const api::PortReport& p) { return num(p.counters.opackets); }},
    {"lr_port_rx_bytes_total", "counter", "Bytes the port received in the current run (ibytes).",
     [](const api::PortReport& p) { return num(p.counters.ibytes); }},
    {"lr_port_tx_bytes_total", "counter", "Bytes the port sent in the current run (obytes).",
     [](const api::PortReport& p) { return num(p.counters.obytes); }},
    {"lr_port_rx_missed_packets_total", "counter", "Frames the port dropped for a full RX ring (imissed).",
     [](const api::PortReport& p) { return num(p.counters.imissed); }},
    {"lr_port_rx_errors_total", "counter", "Erroneous frames the port received (ierrors).",
     [](const api::PortReport& p) { return num(p.counters.ierrors); }},
    {"lr_port_tx_errors_total", "counter", "Frames the port failed to send (oerrors).",
     [](const api::PortReport& p) { return num(p.counters.oerrors); }},
    {"lr_port_rx_unsigned_packets_total", "counter", "Frames received without a linerate signature in the current run.",
     [](const api::PortReport& p) { return num(p.rx_no_signature); }},
};

// Which streams a stream metric has, and which port it is labelled with.
enum class StreamSide : uint8_t { kTx, kRx, kEcn };
enum class PortLabel : uint8_t { kUnlabelled, kTx, kRx };

struct StreamMetric {
  Metric<api::StreamReport> metric;
  StreamSide side;
  PortLabel port = PortLabel::kUnlabelled;
};

constexpr StreamMetric kStreamMetrics[] = {
    {{"lr_stream_tx_packets_total", "counter", "Frames of the stream sent in the current run.",
      [](const api::StreamReport& s) { return num(s.tx_packets); }},
     StreamSide::kTx, PortLabel::kTx},
    {{"lr_stream_tx_rate_packets_per_second", "gauge", "Achieved TX rate of the stream in the current run.",
      [](const api::StreamReport& s) { return s.tx_pps_achieved; }},
     StreamSide::kTx},
    {{"lr_stream_rx_packets_total", "counter", "Frames of the stream received on its RX port.",
      [](const api::StreamReport& s) { return num(s.rx_packets); }},
     StreamSide::kRx, PortLabel::kRx},
    {{"lr_stream_lost_packets", "gauge",
      "Frames sent and not received (tx - (rx - duplicates)); while traffic runs it includes frames in flight.",
      [](const api::StreamReport& s) { return static_cast<double>(s.lost); }},
     StreamSide::kRx},
    {{"lr_stream_duplicate_packets_total", "counter", "Frames of the stream received more than once.",
      [](const api::StreamReport& s) { return num(s.duplicate); }},
     StreamSide::kRx},
    {{"lr_stream_out_of_order_packets_total", "counter", "Frames of the stream received out of order.",
      [](const api::StreamReport& s) { return num(s.out_of_order); }},
     StreamSide::kRx},
    {{"lr_stream_late_packets_total", "counter", "Frames slower than the stream's late threshold.",
      [](const api::StreamReport& s) { return num(s.late); }},
     StreamSide::kRx},
    {{"lr_stream_rx_ecn_ce_packets_total", "counter",
      "Frames of an ECN-capable stream that arrived marked Congestion Experienced.",
      [](const api::StreamReport& s) { return s.ecn ? num(s.ecn->ce) : 0.0; }},
     StreamSide::kEcn},
};

std::string port_text(const std::vector<api::PortReport>& ports) {
  std::string out;
  for (const Metric<api::PortReport>& m : kPortMetrics) {
    Family family(m.name, m.type, m.help);
    for (const api::PortReport& p : ports) family.add({{"port", p.name}}, m.value(p));
    out += family.text();
  }
  return out;
}

// MAC Control frames linerate received on a port, per priority for PFC (the NIC's own
// pause counters come with the merged view).
std::string mac_control_text(const std::vector<api::PortReport>& ports) {
  Family frames("lr_port_rx_mac_control_frames_total", "counter",
                "MAC Control frames linerate received on the port, by opcode (pfc, pause, other).");
  Family pfc_xoff("lr_port_rx_pfc_xoff_frames_total", "counter",
                  "PFC frames received asking the priority to pause (quanta > 0).");
  Family pfc_xon("lr_port_rx_pfc_xon_frames_total", "counter", "PFC frames received resuming the priority (quanta 0).");
  Family pfc_asked("lr_port_rx_pfc_pause_asked_seconds_total", "counter",
                   "Pause time the received PFC frames asked of the priority (quanta x 512 bit times at the port's speed).");
  Family pause_xoff("lr_port_rx_pause_xoff_frames_total", "counter", "802.3x PAUSE frames received with quanta > 0.");
  Family pause_xon("lr_port_rx_pause_xon_frames_total", "counter", "802.3x PAUSE frames received with quanta 0.");
  Family pause_asked("lr_port_rx_pause_asked_seconds_total", "counter",
                     "Pause time the received PAUSE frames asked (quanta x 512 bit times at the port's speed).");
  for (const api::PortReport& p : ports) {
    if (!p.mac_control) continue;
    const api::MacControlReport& mc = *p.mac_control;
    frames.add({{"port", p.name}, {"opcode", "pfc"}}, num(mc.pfc_frames));
    frames.add({{"port", p.name}, {"opcode", "pause"}}, num(mc.pause_frames));
    frames.add({{"port", p.name}, {"opcode", "other"}}, num(mc.other_frames));
    for (const api::PauseClassReport& c : mc.pfc) {
      const Labels labels{{"port", p.name}, {"priority", std::to_string(c.priority)}};
      pfc_xoff.add(labels, num(c.xoff));
      pfc_xon.add(labels, num(c.xon));
      pfc_asked.add(labels, c.pause_ns * 1e-9);
    }
    if (mc.pause) {
      pause_xoff.add({{"port", p.name}}, num(mc.pause->xoff));
      pause_xon.add({{"port", p.name}}, num(mc.pause->xon));
      pause_asked.add({{"port", p.name}}, mc.pause->pause_ns * 1e-9);
    }
  }
  std::string out;
  for (const Family* f : {&frames, &pfc_xoff, &pfc_xon, &pfc_asked, &pause_xoff, &pause_xon, &pause_asked})
    out += f->text();
  return out;
}

// MAC Control frames sent through the port's kernel netdev (mac_control_tx), where they were.
std::string netdev_text(const std::vector<api::PortReport>& ports) {
  Family sent("lr_port_tx_mac_control_netdev_frames_total", "counter",
              "MAC Control frames the port's kernel netdev took from linerate (AF_PACKET, mac_control_tx).");
  Family refused("lr_port_tx_mac_control_netdev_failures_total", "counter",
                 "MAC Control frames the port's kernel netdev refused (each dropped, not retried).");
  for (const api::PortReport& p : ports) {
    if (!p.mac_control_netdev) continue;
    const Labels labels{{"port", p.name}, {"netdev", p.mac_control_netdev->netdev}};
    sent.add(labels, num(p.mac_control_netdev->frames_sent));
    refused.add(labels, num(p.mac_control_netdev->send_failures));
  }
  return sent.text() + refused.text();
}

// Stream metrics; the receive-side ones only for streams with an RX port, the ECN one
// only for streams that send ECN-capable frames.
std::string stream_text(const std::vector<api::StreamReport>& streams) {
  std::string out;
  for (const StreamMetric& m : kStreamMetrics) {
    Family family(m.metric.name, m.metric.type, m.metric.help);
    for (const api::StreamReport& s : streams) {
      if (m.side != StreamSide::kTx && !s.rx_port) continue;
      if (m.side == StreamSide::kEcn && !s.ecn) continue;
      Labels labels{{"stream", s.name}};
      if (m.port == PortLabel::kTx) labels.emplace_back("port", s.tx_port);
      if (m.port == PortLabel::kRx) labels.emplace_back("port", *s.rx_port);
      family.add(labels, m.metric.value(s));
    }
    out += family.text();
  }
  return out;
}

std::string latency_text(const std::vector<api::StreamReport>& streams) {
  Family latency("lr_stream_latency_seconds", "summary", "One-way latency of the stream's frames.");
  Family jitter("lr_stream_jitter_seconds", "gauge", "Mean absolute difference of consecutive latencies.");
  for (const api::StreamReport& s : streams) {
    if (!s.rx_port) continue;
    const api::LatencySummary& l = s.latency;
    for (const auto& [quantile, ns] : {std::pair{"0.5", l.p50_ns}, {"0.9", l.p90_ns}, {"0.99", l.p99_ns},
                                       {"0.999", l.p999_ns}, {"0.9999", l.p9999_ns}})
      latency.add({{"stream", s.name}, {"quantile", quantile}}, num(ns) * 1e-9);
    latency.add({{"stream", s.name}}, l.mean_ns * num(l.samples) * 1e-9, "_sum");
    latency.add({{"stream", s.name}}, num(l.samples), "_count");
    jitter.add({{"stream", s.name}}, l.jitter_ns * 1e-9);
  }
  return latency.text() + jitter.text();
}

// The merged counter view (port.counters): a counter with a canonical name becomes
// lr_nic_<canonical>_total{port, [priority | lane], source, name}; per-queue driver
// counters lr_port_queue_<base>_total{port, queue, source}; the rest
// lr_port_<source>_<name>_total{port}. Totals: Prometheus counters are cumulative.
std::string counter_text(const std::map<std::string, std::vector<api::NicCounter>>& counters) {
  std::map<std::string, Family> families;
  static const std::regex per_queue(R"(^(rx|tx)_q(\d+)_(.+)$)");
  static const std::regex indexed(R"(^(.+)_(prio|lane)(\d+)$)");
  for (const auto& [port, view] : counters) {
    for (const api::NicCounter& c : view) {
      std::smatch m;
      std::string metric;
      std::string help;
      Labels labels{{"port", port}};
      if (c.canonical) {
        std::string base = *c.canonical;
        if (std::regex_match(base, m, indexed)) {
          labels.emplace_back(m[2].str() == "prio" ? "priority" : "lane", m[3].str());
          base = m[1].str();
        }
        metric = "lr_nic_" + metric_safe(base) + "_total";
        help = "Port counter " + base + " (one name across drivers; the driver's name and source in labels).";
        labels.emplace_back("source", c.source);
        labels.emplace_back("name", c.name);
      } else if (std::regex_match(c.name, m, per_queue)) {
        const std::string base = m[1].str() + "_" + m[3].str();
        metric = "lr_port_queue_" + metric_safe(base) + "_total";
        help = "Per-queue statistic " + base + " of the port.";
        labels.emplace_back("queue", m[2].str());
        labels.emplace_back("source", c.source);
      } else {
        metric = "lr_port_" + metric_safe(c.source + "_" + c.name) + "_total";
        help = "Statistic " + c.name + " of the port (" + c.source + ").";
      }
      auto it = families.find(metric);
      if (it == families.end()) it = families.emplace(metric, Family(metric, "counter", help)).first;
      it->second.add(labels, num(c.total));
    }
  }
  std::string out;
  for (const auto& [name, family] : families) out += family.text();
  return out;
}

// The software switches' counters, per switch, port and priority.
std::string switch_text(const std::vector<api::SwitchReport>& switches) {
  Family rx("lr_switch_rx_frames_total", "counter", "Frames the software switch received on the port, by priority.");
  Family rx_bytes("lr_switch_rx_bytes_total", "counter", "Bytes (incl. FCS) the software switch received on the port.");
  Family tx("lr_switch_tx_frames_total", "counter", "Frames the software switch sent from the port's priority queue.");
  Family tx_bytes("lr_switch_tx_bytes_total", "counter", "Bytes (incl. FCS) the software switch sent from the queue.");
  Family drops("lr_switch_drops_total", "counter",
               "Frames dropped: tail (lossy queue or buffer full, at the egress), headroom (lossless, past xoff + "
               "headroom, at the ingress), watchdog (during a PFC storm, at the egress).");
  Family pfc_sent("lr_switch_pfc_sent_frames_total", "counter",
                  "PFC frames the switch sent out of the ingress port for the priority (kind xoff or xon).");
  Family pfc_received("lr_switch_pfc_received_frames_total", "counter",
                      "PFC frames the port received for the priority (kind xoff or xon).");
  Family marked("lr_switch_ecn_marked_total", "counter", "ECN-capable frames the egress queue marked CE.");
  Family watermark("lr_switch_queue_watermark_bytes", "gauge", "The largest depth the egress queue reached.");
  Family paused("lr_switch_paused_seconds_total", "counter", "Time the egress queue was held by PFC it received.");
  Family storms("lr_switch_watchdog_storms_total", "counter", "PFC storms the watchdog detected on the egress queue.");
  Family stalls("lr_switch_lcore_stalls_total", "counter",
                "Loop iterations over 20 us: the switch's lcore held up, neither forwarding nor sending PFC.");
  for (const api::SwitchReport& sw : switches) {
    stalls.add({{"switch", sw.name}}, num(sw.stalls));
    for (const api::SwitchPortReport& p : sw.ports) {
      for (const api::SwitchPriorityReport& c : p.priorities) {
        const Labels labels{{"switch", sw.name}, {"port", p.name}, {"priority", std::to_string(c.priority)}};
        const auto with = [&](const char* key, const char* value) {
          Labels l = labels;
          l.emplace_back(key, value);
          return l;
        };
        rx.add(labels, num(c.rx_frames));
        rx_bytes.add(labels, num(c.rx_bytes));
        tx.add(labels, num(c.tx_frames));
        tx_bytes.add(labels, num(c.tx_bytes));
        drops.add(with("reason", "tail"), num(c.drop_tail));
        drops.add(with("reason", "headroom"), num(c.drop_headroom));
        drops.add(with("reason", "watchdog"), num(c.drop_watchdog));
        pfc_sent.add(with("kind", "xoff"), num(c.pfc_xoff_sent));
        pfc_sent.add(with("kind", "xon"), num(c.pfc_xon_sent));
        pfc_received.add(with("kind", "xoff"), num(c.pfc_xoff_received));
        pfc_received.add(with("kind", "xon"), num(c.pfc_xon_received));
        marked.add(labels, num(c.ecn_marked));
        watermark.add(labels, num(c.queue_watermark_bytes));
        paused.add(labels, num(c.paused_ns) * 1e-9);
        storms.add(labels, num(c.storms));
      }
    }
  }
  std::string out;
  for (const Family* f : {&rx, &rx_bytes, &tx, &tx_bytes, &drops, &pfc_sent, &pfc_received, &marked, &watermark, &paused,
                          &storms, &stalls})
    out += f->text();
  return out;
}

// Each capture's frames: matched by its filter, written to its file, dropped (the writer
// could not keep up), by capture id, port and file.
std::string capture_text(const std::vector<api::CaptureReport>& captures) {
  Family frames("lr_capture_frames_total", "counter",
                "Frames a capture saw (kind matched: its filter kept them; written: in its file; dropped: the writer "
                "could not keep up, the traffic never is).");
  Family running("lr_capture_running", "gauge", "Whether the capture is still capturing (1) or ended (0).");
  for (const api::CaptureReport& c : captures) {
    const Labels labels{{"capture", std::to_string(c.id)}, {"port", c.spec.port}, {"file", c.spec.file}};
    for (const auto& [kind, value] : {std::pair{"matched", c.matched}, std::pair{"written", c.captured},
                                      std::pair{"dropped", c.capture_dropped}}) {
      Labels with_kind = labels;
      with_kind.emplace_back("kind", kind);
      frames.add(with_kind, num(value));
    }
    running.add(labels, c.state == "capturing" ? 1 : 0);
  }
  return frames.text() + running.text();
}

// Each port's emulated hosts: what its slow path counted by verdict (and dropped: ring
// full), what they sent, how many hosts, and their neighbours by state.
std::string hosts_text(const std::vector<api::PortNeighbors>& ports) {
  Family frames("lr_hosts_received_frames_total", "counter",
                "Frames the emulated hosts of a port received, by what they led to (dropped: the control path was "
                "behind the workers and its ring was full).");
  Family sent("lr_hosts_sent_frames_total", "counter",
              "Frames the emulated hosts of a port sent (replies, requests, announcements); failed: the TX queue "
              "refused them.");
  Family hosts("lr_hosts", "gauge", "Emulated hosts on a port.");
  Family neighbors("lr_hosts_neighbors", "gauge",
                   "Neighbours the emulated hosts of a port resolve (gateways, streams' destinations), by state.");
  for (const api::PortNeighbors& p : ports) {
    const api::SlowPathCounts& c = p.counts;
    for (const auto& [verdict, value] : {std::pair{"answered", c.answered}, std::pair{"no_reply", c.no_reply},
                                         std::pair{"not_for_us", c.not_for_us}, std::pair{"malformed", c.malformed},
                                         std::pair{"unsupported", c.unsupported}, std::pair{"dropped", c.dropped}})
      frames.add({{"port", p.port}, {"verdict", verdict}}, num(value));
    sent.add({{"port", p.port}, {"result", "sent"}}, num(c.sent));
    sent.add({{"port", p.port}, {"result", "failed"}}, num(c.send_failed));
    hosts.add({{"port", p.port}}, p.hosts);
    for (const char* state : {"resolved", "incomplete", "failed"}) {
      const auto n = std::count_if(p.neighbors.begin(), p.neighbors.end(),
                                   [&](const api::NeighborEntry& e) { return e.state == state; });
      neighbors.add({{"port", p.port}, {"state", state}}, static_cast<double>(n));
    }
  }
  return frames.text() + sent.text() + hosts.text() + neighbors.text();
}

}  // namespace

Scrape scrape_from_json(const json& ports, const json& streams, const json& counters, const json& switches) {
  Scrape scrape;
  for (const json& p : ports) scrape.ports.push_back(api::port_report_from_json(p));
  for (const json& s : streams) scrape.streams.push_back(api::stream_report_from_json(s));
  for (const auto& [port, view] : counters.items()) scrape.counters[port] = api::port_counter_view_from_json(view).counters;
  for (const json& s : switches) scrape.switches.push_back(api::switch_report_from_json(s));
  return scrape;
}

std::string prometheus_text(const Scrape& scrape) {
  Family up("lr_up", "gauge", "Whether the exporter reached the data plane (1) or not (0).");
  up.add({}, 1);
  return up.text() + port_text(scrape.ports) + mac_control_text(scrape.ports) + netdev_text(scrape.ports) +
         stream_text(scrape.streams) + latency_text(scrape.streams) + counter_text(scrape.counters) +
         switch_text(scrape.switches) + capture_text(scrape.captures) + hosts_text(scrape.neighbors);
}

std::string prometheus_down_text() {
  Family up("lr_up", "gauge", "Whether the exporter reached the data plane (1) or not (0).");
  up.add({}, 0);
  return up.text();
}

}  // namespace lr::ctl
