// The Prometheus page from what a scrape reads (the control socket's JSON, through the
// contract's codecs): names, types, labels, units.

#include "control/views/prometheus.hpp"

#include <gtest/gtest.h>

namespace lr::ctl {
namespace {

using nlohmann::json;

const json kPorts = json::parse(R"([{"name":"p0","link_up":true,"link_speed_bps":40000000000,"ipackets":10,
  "opackets":12,"ibytes":640,"obytes":768,"imissed":1,"ierrors":0,"oerrors":0,"rx_no_signature":2}])");
const json kStreams = json::parse(R"([{"name":"s\"1","tx_port":"p0","rx_port":"p0","tx_packets":12,"rx_packets":10,
  "lost":2,"duplicate":0,"out_of_order":1,"late":0,"tx_pps_achieved":1000.5,"ecn_ce":3,
  "ecn_received":{"not_ect":0,"ect1":0,"ect0":7,"ce":3},
  "latency_ns":{"samples":10,"mean":1500,"p50":1000,"p90":2000,"p99":3000,"p999":3000,"p9999":3000,"jitter":250}},
  {"name":"txonly","tx_port":"p0","rx_port":null,"tx_packets":5,"tx_pps_achieved":10}])");
const json kXstats = json::parse(R"({"p0":{"counters":[
  {"name":"rx_good_packets","source":"xstats","canonical":"rx_packets","value":4,"total":10},
  {"name":"rx_q0_packets","source":"xstats","canonical":null,"value":7,"total":7},
  {"name":"rx_q1_packets","source":"xstats","canonical":null,"value":3,"total":3},
  {"name":"tx_q0_bytes","source":"xstats","canonical":null,"value":768,"total":768},
  {"name":"rx_prio3_pause","source":"ethtool","canonical":"rx_pause_prio3","value":1,"total":4},
  {"name":"corrected_bits_lane1","source":"fec","canonical":"fec_corrected_bits_lane1","value":0,"total":30},
  {"name":"peer_ifindex","source":"ethtool","canonical":null,"value":5,"total":5}]}})");

bool has_line(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos || text.rfind(line + "\n", 0) == 0;
}

TEST(Prometheus, PortCountersInBaseUnits) {
  const std::string text = prometheus_text(scrape_from_json(kPorts, kStreams, kXstats));
  EXPECT_TRUE(has_line(text, "lr_up 1"));
  EXPECT_TRUE(has_line(text, "# TYPE lr_port_rx_packets_total counter"));
  EXPECT_TRUE(has_line(text, "lr_port_rx_packets_total{port=\"p0\"} 10"));
  EXPECT_TRUE(has_line(text, "lr_port_link_speed_bytes_per_second{port=\"p0\"} 5000000000"));
  EXPECT_TRUE(has_line(text, "lr_port_rx_missed_packets_total{port=\"p0\"} 1"));
  EXPECT_TRUE(has_line(text, "lr_port_rx_unsigned_packets_total{port=\"p0\"} 2"));
}

TEST(Prometheus, StreamsWithEscapedLabelsAndLatencySummaryInSeconds) {
  const std::string text = prometheus_text(scrape_from_json(kPorts, kStreams, kXstats));
  EXPECT_TRUE(has_line(text, "lr_stream_tx_packets_total{stream=\"s\\\"1\",port=\"p0\"} 12"));
  EXPECT_TRUE(has_line(text, "lr_stream_lost_packets{stream=\"s\\\"1\"} 2"));
  EXPECT_TRUE(has_line(text, "# TYPE lr_stream_latency_seconds summary"));
  EXPECT_TRUE(has_line(text, "lr_stream_latency_seconds{stream=\"s\\\"1\",quantile=\"0.99\"} 3e-06"));
  EXPECT_TRUE(has_line(text, "lr_stream_latency_seconds_sum{stream=\"s\\\"1\"} 1.5e-05"));
  EXPECT_TRUE(has_line(text, "lr_stream_latency_seconds_count{stream=\"s\\\"1\"} 10"));
  EXPECT_TRUE(has_line(text, "lr_stream_tx_packets_total{stream=\"txonly\",port=\"p0\"} 5"));
  EXPECT_EQ(text.find("lr_stream_rx_packets_total{stream=\"txonly\""), std::string::npos) << "no RX side";
  EXPECT_TRUE(has_line(text, "lr_stream_rx_ecn_ce_packets_total{stream=\"s\\\"1\"} 3"));
  EXPECT_EQ(text.find("lr_stream_rx_ecn_ce_packets_total{stream=\"txonly\""), std::string::npos);
}

TEST(Prometheus, MergedCountersWithQueuePriorityLaneAndSourceLabels) {
  const std::string text = prometheus_text(scrape_from_json(kPorts, kStreams, kXstats));
  EXPECT_TRUE(has_line(text, "lr_port_queue_rx_packets_total{port=\"p0\",queue=\"0\",source=\"xstats\"} 7"));
  EXPECT_TRUE(has_line(text, "lr_port_queue_rx_packets_total{port=\"p0\",queue=\"1\",source=\"xstats\"} 3"));
  EXPECT_TRUE(has_line(text, "lr_nic_rx_packets_total{port=\"p0\",source=\"xstats\",name=\"rx_good_packets\"} 10"));
  EXPECT_TRUE(has_line(
      text, "lr_nic_rx_pause_total{port=\"p0\",priority=\"3\",source=\"ethtool\",name=\"rx_prio3_pause\"} 4"));
  EXPECT_TRUE(has_line(
      text, "lr_nic_fec_corrected_bits_total{port=\"p0\",lane=\"1\",source=\"fec\",name=\"corrected_bits_lane1\"} 30"));
  EXPECT_TRUE(has_line(text, "lr_port_ethtool_peer_ifindex_total{port=\"p0\"} 5"));
  // One HELP/TYPE per family, even with several queues.
  size_t count = 0;
  for (size_t at = 0; (at = text.find("# TYPE lr_port_queue_rx_packets_total", at)) != std::string::npos; ++at) ++count;
  EXPECT_EQ(count, 1u);
}

TEST(Prometheus, MacControlFramesReceivedPerPriorityWithThePauseAskedInSeconds) {
  const json ports = json::parse(R"([{"name":"p1","mac_control":{"pfc_frames":3,"pause_frames":1,"other_frames":0,
    "pfc":[{"priority":3,"xoff":2,"xon":1,"quanta":131070,"pause_ns":1677696}],
    "pause":{"xoff":1,"xon":0,"quanta":100,"pause_ns":1280}}},{"name":"p2"}])");
  const std::string text = prometheus_text(scrape_from_json(ports, json::array(), json::object()));
  EXPECT_TRUE(has_line(text, "lr_port_rx_mac_control_frames_total{port=\"p1\",opcode=\"pfc\"} 3"));
  EXPECT_TRUE(has_line(text, "lr_port_rx_mac_control_frames_total{port=\"p1\",opcode=\"other\"} 0"));
  EXPECT_TRUE(has_line(text, "lr_port_rx_pfc_xoff_frames_total{port=\"p1\",priority=\"3\"} 2"));
  EXPECT_TRUE(has_line(text, "lr_port_rx_pfc_xon_frames_total{port=\"p1\",priority=\"3\"} 1"));
  EXPECT_TRUE(has_line(text, "lr_port_rx_pfc_pause_asked_seconds_total{port=\"p1\",priority=\"3\"} 0.001677696"));
  EXPECT_TRUE(has_line(text, "lr_port_rx_pause_xoff_frames_total{port=\"p1\"} 1"));
  EXPECT_TRUE(has_line(text, "lr_port_rx_pause_asked_seconds_total{port=\"p1\"} 1.28e-06"));
  EXPECT_EQ(text.find("mac_control_frames_total{port=\"p2\""), std::string::npos) << "a port that received none has none";
}

TEST(Prometheus, MacControlFramesSentThroughTheKernelNetdev) {
  const json ports = json::parse(R"([{"name":"a","mac_control_netdev":{"netdev":"ens2f0","frames_sent":398,
    "send_failures":2,"last_error":"No buffer space available"}},{"name":"b"}])");
  const std::string text = prometheus_text(scrape_from_json(ports, json::array(), json::object()));
  EXPECT_TRUE(has_line(text, "lr_port_tx_mac_control_netdev_frames_total{port=\"a\",netdev=\"ens2f0\"} 398"));
  EXPECT_TRUE(has_line(text, "lr_port_tx_mac_control_netdev_failures_total{port=\"a\",netdev=\"ens2f0\"} 2"));
  EXPECT_EQ(text.find("netdev_frames_total{port=\"b\""), std::string::npos) << "sent through its PMD: none";
}

TEST(Prometheus, DownPageSaysSo) { EXPECT_EQ(prometheus_down_text(), "# HELP lr_up Whether the exporter reached the data plane (1) or not (0).\n# TYPE lr_up gauge\nlr_up 0\n"); }

TEST(Prometheus, CapturesMatchedWrittenAndDropped) {
  Scrape scrape;
  api::CaptureReport c;
  c.id = 2;
  c.spec.port = "p0";
  c.spec.file = "/tmp/a.pcapng";
  c.state = "capturing";
  c.matched = 20000;
  c.captured = 4523;
  c.capture_dropped = 15477;
  scrape.captures = {c};
  const std::string text = prometheus_text(scrape);
  EXPECT_TRUE(has_line(text, "# TYPE lr_capture_frames_total counter"));
  EXPECT_TRUE(has_line(text, "lr_capture_frames_total{capture=\"2\",port=\"p0\",file=\"/tmp/a.pcapng\",kind=\"matched\"} 20000"));
  EXPECT_TRUE(has_line(text, "lr_capture_frames_total{capture=\"2\",port=\"p0\",file=\"/tmp/a.pcapng\",kind=\"written\"} 4523"));
  EXPECT_TRUE(has_line(text, "lr_capture_frames_total{capture=\"2\",port=\"p0\",file=\"/tmp/a.pcapng\",kind=\"dropped\"} 15477"));
  EXPECT_TRUE(has_line(text, "lr_capture_running{capture=\"2\",port=\"p0\",file=\"/tmp/a.pcapng\"} 1"));
}

TEST(Prometheus, EmulatedHostsCountsAndNeighboursByState) {
  Scrape scrape;
  api::PortNeighbors p;
  p.port = "p0";
  p.hosts = 2;
  p.counts = {5, 2, 20000, 1, 3, 464, 9, 1};
  p.neighbors.resize(3);
  p.neighbors[0].state = "resolved";
  p.neighbors[1].state = "resolved";
  p.neighbors[2].state = "failed";
  scrape.neighbors = {p};
  const std::string text = prometheus_text(scrape);
  EXPECT_TRUE(has_line(text, "# TYPE lr_hosts_received_frames_total counter"));
  EXPECT_TRUE(has_line(text, "lr_hosts_received_frames_total{port=\"p0\",verdict=\"answered\"} 5"));
  EXPECT_TRUE(has_line(text, "lr_hosts_received_frames_total{port=\"p0\",verdict=\"not_for_us\"} 20000"));
  EXPECT_TRUE(has_line(text, "lr_hosts_received_frames_total{port=\"p0\",verdict=\"dropped\"} 464"));
  EXPECT_TRUE(has_line(text, "lr_hosts_sent_frames_total{port=\"p0\",result=\"sent\"} 9"));
  EXPECT_TRUE(has_line(text, "lr_hosts_sent_frames_total{port=\"p0\",result=\"failed\"} 1"));
  EXPECT_TRUE(has_line(text, "lr_hosts{port=\"p0\"} 2"));
  EXPECT_TRUE(has_line(text, "lr_hosts_neighbors{port=\"p0\",state=\"resolved\"} 2"));
  EXPECT_TRUE(has_line(text, "lr_hosts_neighbors{port=\"p0\",state=\"incomplete\"} 0"));
  EXPECT_TRUE(has_line(text, "lr_hosts_neighbors{port=\"p0\",state=\"failed\"} 1"));
  EXPECT_EQ(prometheus_text(Scrape{}).find("lr_hosts"), std::string::npos);  // no hosts: no family
}

TEST(Prometheus, SwitchCountersPerPortAndPriority) {
  const json switches = json::parse(R"([{"name":"dut","stalls":4,"ports":[{"name":"dut-a","priorities":[
    {"priority":3,"lossless":true,"rx_frames":100,"rx_bytes":102400,"tx_frames":0,"tx_bytes":0,"drop_tail":0,
     "drop_headroom":2,"drop_watchdog":0,"pfc_xoff_sent":7,"pfc_xon_sent":6,"pfc_xoff_received":0,
     "pfc_xon_received":0,"ecn_marked":0,"queue_watermark_bytes":0,"paused_ns":0,"storms":0}]},
    {"name":"dut-r","priorities":[{"priority":0,"tx_frames":50,"drop_tail":9,"ecn_marked":5,
     "queue_watermark_bytes":200704,"paused_ns":1500000000}]}]}])");
  const std::string text = prometheus_text(scrape_from_json(json::array(), json::array(), json::object(), switches));
  EXPECT_TRUE(has_line(text, "# TYPE lr_switch_drops_total counter"));
  EXPECT_TRUE(has_line(text, "lr_switch_rx_frames_total{switch=\"dut\",port=\"dut-a\",priority=\"3\"} 100"));
  EXPECT_TRUE(has_line(text, "lr_switch_drops_total{switch=\"dut\",port=\"dut-a\",priority=\"3\",reason=\"headroom\"} 2"));
  EXPECT_TRUE(has_line(text, "lr_switch_drops_total{switch=\"dut\",port=\"dut-r\",priority=\"0\",reason=\"tail\"} 9"));
  EXPECT_TRUE(has_line(text, "lr_switch_pfc_sent_frames_total{switch=\"dut\",port=\"dut-a\",priority=\"3\",kind=\"xoff\"} 7"));
  EXPECT_TRUE(has_line(text, "lr_switch_pfc_sent_frames_total{switch=\"dut\",port=\"dut-a\",priority=\"3\",kind=\"xon\"} 6"));
  EXPECT_TRUE(has_line(text, "lr_switch_ecn_marked_total{switch=\"dut\",port=\"dut-r\",priority=\"0\"} 5"));
  EXPECT_TRUE(has_line(text, "lr_switch_queue_watermark_bytes{switch=\"dut\",port=\"dut-r\",priority=\"0\"} 200704"));
  EXPECT_TRUE(has_line(text, "lr_switch_paused_seconds_total{switch=\"dut\",port=\"dut-r\",priority=\"0\"} 1.5"));
  EXPECT_TRUE(has_line(text, "lr_switch_lcore_stalls_total{switch=\"dut\"} 4"));
  EXPECT_EQ(prometheus_text(scrape_from_json(json::array(), json::array(), json::object(), json::array())).find("lr_switch_rx_frames_total{"), std::string::npos);
}

}  // namespace
}  // namespace lr::ctl
