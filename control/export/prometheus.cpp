#include "control/export/prometheus.hpp"

#include <fmt/format.h>

#include <iterator>
#include <map>
#include <string_view>
#include <regex>
#include <vector>

namespace lr::ctl {

using nlohmann::json;

std::string prometheus_label_value(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

namespace {

// One metric family: HELP and TYPE once, then its samples.
class Family {
 public:
  Family(std::string name, std::string type, std::string help)
      : name_(std::move(name)), type_(std::move(type)), help_(std::move(help)) {}

  void add(const std::vector<std::pair<std::string, std::string>>& labels, double value, const std::string& suffix = "") {
    std::string text = name_ + suffix;
    if (!labels.empty()) {
      text += '{';
      for (size_t i = 0; i < labels.size(); ++i)
        text += fmt::format("{}{}=\"{}\"", i == 0 ? "" : ",", labels[i].first, prometheus_label_value(labels[i].second));
      text += '}';
    }
    samples_.push_back(fmt::format("{} {}", text, fmt::format("{}", value)));
  }

  std::string text() const {
    if (samples_.empty()) return "";
    std::string out = fmt::format("# HELP {} {}\n# TYPE {} {}\n", name_, help_, name_, type_);
    for (const std::string& s : samples_) out += s + "\n";
    return out;
  }

 private:
  std::string name_;
  std::string type_;
  std::string help_;
  std::vector<std::string> samples_;
};

double number(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<double>() : 0.0;
}

// xstat names become metric-name-safe: lower case, [a-z0-9_].
std::string metric_safe(const std::string& name) {
  std::string out;
  for (char c : name) out += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '_';
  return out;
}

// A metric read from one key of the control socket's JSON, times `scale` (to base units).
struct Metric {
  const char* name;
  const char* type;
  const char* help;
  const char* key;
  double scale = 1;
};

constexpr Metric kPortMetrics[] = {
    {"lr_port_link_up", "gauge", "Link status of the port (1 up, 0 down).", "link_up"},
    {"lr_port_link_speed_bytes_per_second", "gauge", "Link speed the port reports, in bytes/s (bit/s / 8).",
     "link_speed_bps", 1.0 / 8},
    {"lr_port_rx_packets_total", "counter", "Frames the port received in the current run (ipackets).", "ipackets"},
    {"lr_port_tx_packets_total", "counter", "Frames the port sent in the current run (opackets).", "opackets"},
    {"lr_port_rx_bytes_total", "counter", "Bytes the port received in the current run (ibytes).", "ibytes"},
    {"lr_port_tx_bytes_total", "counter", "Bytes the port sent in the current run (obytes).", "obytes"},
    {"lr_port_rx_missed_packets_total", "counter", "Frames the port dropped for a full RX ring (imissed).", "imissed"},
    {"lr_port_rx_errors_total", "counter", "Erroneous frames the port received (ierrors).", "ierrors"},
    {"lr_port_tx_errors_total", "counter", "Frames the port failed to send (oerrors).", "oerrors"},
    {"lr_port_rx_unsigned_packets_total", "counter", "Frames received without a linerate signature in the current run.",
     "rx_no_signature"},
};

constexpr Metric kStreamMetrics[] = {
    {"lr_stream_tx_packets_total", "counter", "Frames of the stream sent in the current run.", "tx_packets"},
    {"lr_stream_tx_rate_packets_per_second", "gauge", "Achieved TX rate of the stream in the current run.",
     "tx_pps_achieved"},
    {"lr_stream_rx_packets_total", "counter", "Frames of the stream received on its RX port.", "rx_packets"},
    {"lr_stream_lost_packets", "gauge",
     "Frames sent and not received (tx - (rx - duplicates)); while traffic runs it includes frames in flight.", "lost"},
    {"lr_stream_duplicate_packets_total", "counter", "Frames of the stream received more than once.", "duplicate"},
    {"lr_stream_out_of_order_packets_total", "counter", "Frames of the stream received out of order.", "out_of_order"},
    {"lr_stream_late_packets_total", "counter", "Frames slower than the stream's late threshold.", "late"},
    {"lr_stream_rx_ecn_ce_packets_total", "counter",
     "Frames of an ECN-capable stream that arrived marked Congestion Experienced.", "ecn_ce"},
};

}  // namespace

std::string prometheus_down_text() {
  Family up("lr_up", "gauge", "Whether the exporter reached the data plane (1) or not (0).");
  up.add({}, 0);
  return up.text();
}

std::string prometheus_text(const json& ports, const json& streams, const json& counters) {
  Family up("lr_up", "gauge", "Whether the exporter reached the data plane (1) or not (0).");
  up.add({}, 1);

  std::vector<Family> port_families;
  for (const Metric& m : kPortMetrics) port_families.emplace_back(m.name, m.type, m.help);
  for (const json& p : ports) {
    const std::vector<std::pair<std::string, std::string>> port{{"port", p.value("name", "")}};
    for (size_t i = 0; i < std::size(kPortMetrics); ++i) {
      const Metric& m = kPortMetrics[i];
      const double value = std::string_view(m.key) == "link_up" ? (p.value("link_up", false) ? 1 : 0) : number(p, m.key);
      port_families[i].add(port, value * m.scale);
    }
  }

  // MAC Control frames linerate received on a port (stats.ports[].mac_control), per
  // priority for PFC; the NIC's own pause counters come with the merged view below.
  Family mc_frames("lr_port_rx_mac_control_frames_total", "counter",
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
  for (const json& p : ports) {
    const auto mc = p.find("mac_control");
    if (mc == p.end() || !mc->is_object()) continue;
    const std::string port = p.value("name", "");
    for (const auto& [opcode, key] : {std::pair{"pfc", "pfc_frames"}, {"pause", "pause_frames"}, {"other", "other_frames"}})
      mc_frames.add({{"port", port}, {"opcode", opcode}}, number(*mc, key));
    for (const json& c : mc->value("pfc", json::array())) {
      const std::vector<std::pair<std::string, std::string>> labels{{"port", port},
                                                                   {"priority", std::to_string(c.value("priority", 0))}};
      pfc_xoff.add(labels, number(c, "xoff"));
      pfc_xon.add(labels, number(c, "xon"));
      pfc_asked.add(labels, number(c, "pause_ns") * 1e-9);
    }
    if (const auto pause = mc->find("pause"); pause != mc->end() && pause->is_object()) {
      pause_xoff.add({{"port", port}}, number(*pause, "xoff"));
      pause_xon.add({{"port", port}}, number(*pause, "xon"));
      pause_asked.add({{"port", port}}, number(*pause, "pause_ns") * 1e-9);
    }
  }

  // MAC Control frames sent through the port's kernel netdev (mac_control_tx), where they were.
  Family netdev_sent("lr_port_tx_mac_control_netdev_frames_total", "counter",
                     "MAC Control frames the port's kernel netdev took from linerate (AF_PACKET, mac_control_tx).");
  Family netdev_refused("lr_port_tx_mac_control_netdev_failures_total", "counter",
                        "MAC Control frames the port's kernel netdev refused (each dropped, not retried).");
  for (const json& p : ports) {
    const auto nd = p.find("mac_control_netdev");
    if (nd == p.end() || !nd->is_object()) continue;
    const std::vector<std::pair<std::string, std::string>> labels{{"port", p.value("name", "")},
                                                                 {"netdev", nd->value("netdev", "")}};
    netdev_sent.add(labels, number(*nd, "frames_sent"));
    netdev_refused.add(labels, number(*nd, "send_failures"));
  }

  // Stream metrics; the receive-side ones only for streams with an RX port.
  std::vector<Family> stream_families;
  for (const Metric& m : kStreamMetrics) stream_families.emplace_back(m.name, m.type, m.help);
  for (const json& s : streams) {
    const std::string name = s.value("name", "");
    const bool rx = s.contains("rx_packets");
    for (size_t i = 0; i < std::size(kStreamMetrics); ++i) {
      const Metric& m = kStreamMetrics[i];
      const std::string_view key = m.key;
      if (!rx && key != "tx_packets" && key != "tx_pps_achieved") continue;
      if (key == "ecn_ce" && !s.contains("ecn_ce")) continue;  // only streams that send ECN-capable frames
      std::vector<std::pair<std::string, std::string>> labels{{"stream", name}};
      if (key == "tx_packets") labels.emplace_back("port", s.value("tx_port", ""));
      if (key == "rx_packets") labels.emplace_back("port", s.value("rx_port", ""));
      stream_families[i].add(labels, number(s, m.key) * m.scale);
    }
  }
  Family s_latency("lr_stream_latency_seconds", "summary", "One-way latency of the stream's frames.");
  Family s_jitter("lr_stream_jitter_seconds", "gauge", "Mean absolute difference of consecutive latencies.");
  for (const json& s : streams) {
    if (!s.contains("rx_packets")) continue;
    const std::string name = s.value("name", "");
    const json latency = s.value("latency_ns", json::object());
    for (const auto& [quantile, key] : {std::pair{"0.5", "p50"}, {"0.9", "p90"}, {"0.99", "p99"}, {"0.999", "p999"},
                                        {"0.9999", "p9999"}})
      s_latency.add({{"stream", name}, {"quantile", quantile}}, number(latency, key) * 1e-9);
    const double samples = number(latency, "samples");
    s_latency.add({{"stream", name}}, number(latency, "mean") * samples * 1e-9, "_sum");
    s_latency.add({{"stream", name}}, samples, "_count");
    s_jitter.add({{"stream", name}}, number(latency, "jitter") * 1e-9);
  }

  // The merged counter view (port.counters): a counter with a canonical name becomes
  // lr_nic_<canonical>_total{port, [priority | lane], source, name}; per-queue
  // driver counters lr_port_queue_<base>_total{port, queue, source}; the rest
  // lr_port_<source>_<name>_total{port}. Totals: Prometheus counters are cumulative.
  std::map<std::string, Family> xfamilies;
  static const std::regex per_queue(R"(^(rx|tx)_q(\d+)_(.+)$)");
  static const std::regex indexed(R"(^(.+)_(prio|lane)(\d+)$)");
  for (const auto& [port, view] : counters.items()) {
    for (const json& c : view.value("counters", json::array())) {
      const std::string raw = c.value("name", "");
      const std::string source = c.value("source", "");
      const json canonical = c.value("canonical", json());
      const json total = c.value("total", json());
      if (!total.is_number()) continue;
      std::smatch m;
      std::string metric;
      std::string help;
      std::vector<std::pair<std::string, std::string>> labels{{"port", port}};
      if (canonical.is_string()) {
        std::string base = canonical.get<std::string>();
        if (std::regex_match(base, m, indexed)) {
          labels.emplace_back(m[2].str() == "prio" ? "priority" : "lane", m[3].str());
          base = m[1].str();
        }
        metric = "lr_nic_" + metric_safe(base) + "_total";
        help = "Port counter " + base + " (one name across drivers; the driver's name and source in labels).";
        labels.emplace_back("source", source);
        labels.emplace_back("name", raw);
      } else if (std::regex_match(raw, m, per_queue)) {
        const std::string base = m[1].str() + "_" + m[3].str();
        metric = "lr_port_queue_" + metric_safe(base) + "_total";
        help = "Per-queue statistic " + base + " of the port.";
        labels.emplace_back("queue", m[2].str());
        labels.emplace_back("source", source);
      } else {
        metric = "lr_port_" + metric_safe(source + "_" + raw) + "_total";
        help = "Statistic " + raw + " of the port (" + source + ").";
      }
      auto it = xfamilies.find(metric);
      if (it == xfamilies.end()) it = xfamilies.emplace(metric, Family(metric, "counter", help)).first;
      it->second.add(labels, total.get<double>());
    }
  }

  std::string out;
  out += up.text();
  for (const Family& f : port_families) out += f.text();
  for (const Family* f : {&mc_frames, &pfc_xoff, &pfc_xon, &pfc_asked, &pause_xoff, &pause_xon, &pause_asked,
                          &netdev_sent, &netdev_refused})
    out += f->text();
  for (const Family& f : stream_families) out += f.text();
  out += s_latency.text();
  out += s_jitter.text();
  for (const auto& [name, family] : xfamilies) out += family.text();
  return out;
}

std::string prometheus_switch_text(const json& switches) {
  using Labels = std::vector<std::pair<std::string, std::string>>;
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
  for (const json& sw : switches) {
    const std::string name = sw.value("name", "");
    stalls.add({{"switch", name}}, number(sw, "stalls"));
    for (const json& p : sw.value("ports", json::array())) {
      for (const json& c : p.value("priorities", json::array())) {
        const Labels labels{{"switch", name}, {"port", p.value("name", "")},
                            {"priority", std::to_string(c.value("priority", 0))}};
        const auto with = [&](const char* key, const char* value) {
          Labels l = labels;
          l.emplace_back(key, value);
          return l;
        };
        rx.add(labels, number(c, "rx_frames"));
        rx_bytes.add(labels, number(c, "rx_bytes"));
        tx.add(labels, number(c, "tx_frames"));
        tx_bytes.add(labels, number(c, "tx_bytes"));
        drops.add(with("reason", "tail"), number(c, "drop_tail"));
        drops.add(with("reason", "headroom"), number(c, "drop_headroom"));
        drops.add(with("reason", "watchdog"), number(c, "drop_watchdog"));
        pfc_sent.add(with("kind", "xoff"), number(c, "pfc_xoff_sent"));
        pfc_sent.add(with("kind", "xon"), number(c, "pfc_xon_sent"));
        pfc_received.add(with("kind", "xoff"), number(c, "pfc_xoff_received"));
        pfc_received.add(with("kind", "xon"), number(c, "pfc_xon_received"));
        marked.add(labels, number(c, "ecn_marked"));
        watermark.add(labels, number(c, "queue_watermark_bytes"));
        paused.add(labels, number(c, "paused_ns") * 1e-9);
        storms.add(labels, number(c, "storms"));
      }
    }
  }
  std::string out;
  for (const Family* f : {&rx, &rx_bytes, &tx, &tx_bytes, &drops, &pfc_sent, &pfc_received, &marked, &watermark, &paused,
                          &storms, &stalls})
    out += f->text();
  return out;
}

}  // namespace lr::ctl
