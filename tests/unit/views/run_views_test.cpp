// The human views of a run (one of each, shared by both programs) and the report's
// arithmetic, from structs and from the JSON the data plane writes.

#include "lib/views/run_views.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace lr::views {
namespace {

api::RunReport sample_report() {
  api::RunReport r;
  r.profile_path = "p.toml";
  r.duration_s = 2.5;
  api::StreamReport looped;
  looped.name = "a-stream-with-a-name-longer-than-sixteen";
  looped.tx_port = "p0";
  looped.rx_port = "p0";
  looped.tx_packets = 1000;
  looped.tx_bytes = 64000;
  looped.tx_pps_achieved = 1e6;
  looped.target_pps = 1.25e6;
  looped.tx_queue_full = 4096;
  looped.rx_packets = 998;
  looped.duplicate = 3;
  looped.lost = api::lost_frames(1000, 998, 3);
  looped.latency = {998, 900, 1000.5, 1000, 1100, 1500, 1600, 1700, 2000, 12.5};
  api::StreamReport tx_only;
  tx_only.name = "tx";
  tx_only.tx_port = "p0";
  tx_only.tx_packets = 5;
  tx_only.tx_pps_achieved = 2500;
  r.streams = {looped, tx_only};
  api::PortReport port;
  port.name = "p0";
  port.driver = "net_ring";
  port.counters.opackets = 1005;
  port.counters.ipackets = 998;
  port.rx_no_signature = 7;
  r.ports = {port};
  return r;
}

TEST(ReportArithmetic, LostCountsDuplicatesOnce) {
  EXPECT_EQ(api::lost_frames(1000, 998, 3), 5);   // 995 distinct frames arrived
  EXPECT_EQ(api::lost_frames(1000, 1000, 0), 0);
  EXPECT_EQ(api::lost_frames(10, 12, 0), -2);     // more arrived than were sent: shown, not hidden
}

TEST(ReportArithmetic, RatesIncludeThePreambleAndGap) {
  EXPECT_DOUBLE_EQ(api::l1_bps_of(1e6, 64000, 1000), 672e6);  // (64 + 20) * 8 bits per frame
  EXPECT_DOUBLE_EQ(api::l1_bps_of(1e6, 0, 0), 0);
  api::PortTraffic before{"p0", 100, 6400, 50, 3200};
  api::PortTraffic after{"p0", 1'000'100, 64'006'400, 500'050, 32'003'200};
  const api::PortRate r = api::port_rate(before, after, 2.0);
  EXPECT_DOUBLE_EQ(r.tx_pps, 500'000);
  EXPECT_DOUBLE_EQ(r.tx_l1_bps, 336e6);
  EXPECT_DOUBLE_EQ(r.rx_pps, 250'000);
  EXPECT_DOUBLE_EQ(api::port_rate(before, after, 0).tx_pps, 0);
}

TEST(RunViews, RunTableAlignsLongNamesAndMarksTransmitOnly) {
  const std::string table = run_table(sample_report());
  const std::string w(40 - 6, ' ');  // the longest name is 40 characters; "stream" is 6
  EXPECT_EQ(table,
            "stream" + w + "   tx_packets    tx_Mpps target_Mpps   tx_qfull   rx_packets       lost    dup    ooo   late"
            "   lat_min   lat_p50   lat_p99   lat_max\n"
            "a-stream-with-a-name-longer-than-sixteen         1000     1.0000      1.2500       4096          998          5"
            "      3      0      0     900ns    1000ns    1500ns    2000ns\n"
            "tx" + std::string(38, ' ') + "            5     0.0025         max          0            -   (transmit only)\n"
            "\nport         driver         opackets     ipackets   imissed   ierrors   oerrors no_signature\n"
            "p0           net_ring           1005          998         0         0         0            7\n");
  api::RunReport warned = sample_report();
  warned.warnings = {"stream 'x' sent less"};
  EXPECT_TRUE(run_table(warned).ends_with("\nwarning: stream 'x' sent less\n"));
}

TEST(RunViews, RunTableWarnsAboutMbufsNotReturned) {
  api::RunReport r = sample_report();
  r.mbufs_not_returned = 3;
  EXPECT_NE(run_table(r).find("WARNING: 3 mbufs did not return to their pools"), std::string::npos);
}

// top's timelines: each received stream's latest bins, scaled to its tallest, a blank
// where nothing came; all end at the latest bin any stream used.
TEST(RunViews, TimelineSparklinesEndAtTheLatestBinAndShowSilencesBlank) {
  api::StreamReport paused, background, sent_only;
  paused.name = "prio3";
  paused.rx_port = "p1";
  paused.timeline = api::TimelineReport{0.001, {8, 8, 8, 8, 8, 0}, {8, 4, 0, 0, 2, 0}, 0, 0, std::nullopt, std::nullopt};
  background.name = "prio0";
  background.rx_port = "p1";
  background.timeline = api::TimelineReport{0.001, {1, 1, 1, 1, 1, 0}, {1, 1, 1, 1, 1, 0}, 0, 0, std::nullopt, std::nullopt};
  sent_only.name = "tx";  // not received: no line
  sent_only.timeline = api::TimelineReport{0.001, {1, 1, 1, 1, 1, 0}, {}, 0, 0, std::nullopt, std::nullopt};
  EXPECT_EQ(timeline_sparklines({paused, background, sent_only}),
            "prio3    |█▄  ▂| received per 1 ms bin, the last 5; tallest 8\n"
            "prio0    |█████| received per 1 ms bin, the last 5; tallest 1\n");
  EXPECT_EQ(timeline_sparklines({paused}, 3), "prio3    |  █| received per 1 ms bin, the last 3; tallest 2\n");
  EXPECT_EQ(timeline_sparklines({sent_only}), "");
}

TEST(RunViews, LiveLineShowsEachPortsRateOverTheInterval) {
  const std::vector<api::PortTraffic> before{{"p0", 0, 0, 0, 0}, {"p1", 0, 0, 0, 0}};
  const std::vector<api::PortTraffic> after{{"p0", 2'000'000, 128'000'000, 0, 0}, {"p1", 0, 0, 1'000'000, 64'000'000}};
  EXPECT_EQ(live_line(3.04, before, after, 1.0),
            "[    3.0s]  p0: tx    2.000 Mpps   1.344 Gbit/s rx    0.000 Mpps   0.000 Gbit/s"
            "  p1: tx    0.000 Mpps   0.000 Gbit/s rx    1.000 Mpps   0.672 Gbit/s");
}

TEST(RunViews, LiveLineGivesEachPortALineBeyondTwo) {
  const std::vector<api::PortTraffic> before{{"a", 0, 0, 0, 0}, {"bb", 0, 0, 0, 0}, {"ccc", 0, 0, 0, 0}};
  const std::vector<api::PortTraffic> after{{"a", 1'000'000, 64'000'000, 0, 0}, {"bb", 0, 0, 0, 0},
                                            {"ccc", 0, 0, 1'000'000, 64'000'000}};
  EXPECT_EQ(live_line(1.0, before, after, 1.0),
            "[    1.0s]\n"
            "    a  : tx    1.000 Mpps   0.672 Gbit/s rx    0.000 Mpps   0.000 Gbit/s\n"
            "    bb : tx    0.000 Mpps   0.000 Gbit/s rx    0.000 Mpps   0.000 Gbit/s\n"
            "    ccc: tx    0.000 Mpps   0.000 Gbit/s rx    1.000 Mpps   0.672 Gbit/s");
}

TEST(RunViews, PlanTextNamesQueuesLcoresRatesAndLimits) {
  api::RunPlan plan;
  plan.ports.push_back({0, "p0", "net_ring0", "net_ring", -1, false, true, 10'000'000'000, true,
                        {{0, 1, false}}, {{0, 1, false}, {1, 2, true}}, ""});
  plan.ports.push_back({1, "n0", "net_null0", "net_null", -1, false, true, 10'000'000'000, true, {{0, 1, false}}, {},
                        "not polled: no stream receives here"});
  plan.streams.push_back({"vlan64", "p0", std::string("p0"), 64, 297619.05, 0, 3'000'000'000, {{0, 1, false}}});
  plan.streams.push_back({"blast", "p0", std::nullopt, 1518, 0, 1000, 0, {{1, 2, false}}});
  EXPECT_EQ(plan_text(plan),
            "plan:\n"
            "  port 0 'p0' net_ring0 (driver net_ring, socket any, checksums in software, link up 10 Gbit/s (from profile))\n"
            "    rx queue 0 -> lcore 1\n"
            "    tx queue 0 -> lcore 1\n"
            "    tx queue 1 -> lcore 2 (cross-NUMA)\n"
            "  port 1 'n0' net_null0 (driver net_null, socket any, checksums in software, link up 10 Gbit/s (from profile))\n"
            "    rx not polled: no stream receives here\n"
            "  stream 'vlan64' p0 -> p0: 64.0 B mean frame, 0.297619 Mpps, 3 s, lanes: q0@lcore1\n"
            "  stream 'blast' p0 -> (transmit only): 1518.0 B mean frame, max rate, 1000 frames, lanes: q1@lcore2\n");
}

TEST(RunViews, PfcHonourInThePlanAndTheTimeHeldAfterTheTable) {
  api::RunPlan plan;
  api::StreamPlan roce{"roce", "p0", std::string("p1"), 1024, 1e6, 0, 0, {{0, 1, false}}};
  roce.pfc_honoured = true;
  roce.pfc_priority = 3;
  api::StreamPlan untagged{"bulk", "p0", std::nullopt, 1518, 0, 0, 0, {{0, 1, false}}};
  untagged.pfc_honoured = true;
  plan.streams = {roce, untagged};
  const std::string text = plan_text(plan);
  EXPECT_NE(text.find("  stream 'roce' p0 -> p1: 1024.0 B mean frame, 1.000000 Mpps, until stopped, held by PFC "
                      "priority 3 and PAUSE, lanes: q0@lcore1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("max rate, until stopped, held by PAUSE only (its frames carry no priority), lanes:"),
            std::string::npos) << text;
  const nlohmann::json j = api::to_json(plan);
  EXPECT_EQ(j["streams"][0]["pfc_priority"], 3);
  EXPECT_EQ(api::to_json(api::run_plan_from_json(j)), j);

  api::RunReport r = sample_report();
  r.streams[0].paused_ns = 18'455'123;
  EXPECT_NE(run_table(r).find("\nstream 'a-stream-with-a-name-longer-than-sixteen' held 18.455 ms by PFC / PAUSE "
                              "received on p0\n"), std::string::npos);
  const nlohmann::json report = api::to_json(r);
  EXPECT_EQ(report["streams"][0]["paused_ns"], 18'455'123);
  EXPECT_FALSE(report["streams"][1].contains("paused_ns"));  // its port does not honour PFC
  EXPECT_EQ(api::to_json(api::run_report_from_json(report)), report);
}

TEST(RunViews, EcnCodepointsReceivedAfterTheTable) {
  api::RunReport r = sample_report();
  r.streams[0].ecn = api::EcnCounts{1, 0, 897, 100};
  EXPECT_NE(run_table(r).find("\nstream 'a-stream-with-a-name-longer-than-sixteen' ECN: 100 of 998 frames arrived "
                              "CE-marked (10.020 %); ECT(0) 897, ECT(1) 0, not-ECT 1\n"), std::string::npos)
      << run_table(r);
  const nlohmann::json j = api::to_json(r);
  EXPECT_EQ(j["streams"][0]["ecn_ce"], 100);
  EXPECT_EQ(j["streams"][0]["ecn_received"]["ect0"], 897);
  EXPECT_FALSE(j["streams"][1].contains("ecn_ce"));
  EXPECT_EQ(api::to_json(api::run_report_from_json(j)), j);
}

// What the CLI reads back is what the data plane wrote: every field, through JSON.
TEST(RunReportJson, RoundTripKeepsEveryField) {
  const api::RunReport r = sample_report();
  const nlohmann::json j = api::to_json(r);
  EXPECT_EQ(j["schema"], "linerate.run_report/1");
  EXPECT_TRUE(j["streams"][1]["rx_port"].is_null());
  EXPECT_FALSE(j["streams"][1].contains("lost"));       // transmit-only: no receive fields
  EXPECT_EQ(j["streams"][0]["target_pps"], 1.25e6);
  EXPECT_TRUE(j["streams"][1]["target_pps"].is_null());  // unpaced
  const api::RunReport back = api::run_report_from_json(j);
  EXPECT_EQ(api::to_json(back), j);
  EXPECT_EQ(run_table(back), run_table(r));
}

api::PortReport paused_port() {
  api::PortReport p;
  p.name = "p1";
  api::MacControlReport mc;
  mc.pfc_frames = 3;
  mc.pause_frames = 1;
  mc.other_frames = 2;
  mc.first_s = 0.25;
  mc.last_s = 1.5;
  mc.pfc = {{3, 2, 1, 131070, 1677.696e3}, {5, 0, 1, 0, 0}};
  mc.pause = api::PauseClassReport{-1, 1, 0, 100, 1280};
  p.mac_control = mc;
  p.nic_pause = {{3, 7, std::nullopt, 700, std::nullopt}};
  return p;
}

TEST(RunViews, PauseTextNamesEachPriorityAndThePauseAsked) {
  EXPECT_EQ(pause_text({paused_port()}),
            "port p1: MAC Control frames received: 3 PFC, 1 PAUSE, 2 with another opcode; first at 0.250000 s, last at 1.500000 s\n"
            "    priority 3: 2 XOFF, 1 XON, 131070 quanta = 1.678 ms of pause asked\n"
            "    priority 5: 0 XOFF, 1 XON, 0 quanta\n"
            "    PAUSE: 1 XOFF, 0 XON, 100 quanta = 0.001 ms of pause asked\n"
            "port p1: the NIC's pause counters (frames it consumed or sent itself)\n"
            "    priority 3: rx 7 frames, 700 us paused; tx - frames, - us\n");
  api::PortReport unknown_speed = paused_port();
  unknown_speed.mac_control->pfc[0].pause_ns = 0;
  EXPECT_NE(pause_text({unknown_speed}).find("131070 quanta (the port's speed is unknown: no pause time)"), std::string::npos);
  EXPECT_EQ(pause_text({api::PortReport{}}), "");
}

TEST(RunReportJson, MacControlAndNicPauseRoundTrip) {
  api::RunReport r = sample_report();
  r.ports.push_back(paused_port());
  const nlohmann::json j = api::to_json(r);
  EXPECT_FALSE(j["ports"][0].contains("mac_control"));  // no frame: no section
  EXPECT_EQ(j["ports"][1]["mac_control"]["pfc"][0]["priority"], 3);
  EXPECT_FALSE(j["ports"][1]["mac_control"]["pause"].contains("priority"));
  EXPECT_FALSE(j["ports"][1]["nic_pause"][0].contains("tx_frames"));  // a counter the NIC lacks stays absent
  const api::RunReport back = api::run_report_from_json(j);
  EXPECT_EQ(api::to_json(back), j);
  EXPECT_NE(run_table(back).find("priority 3: 2 XOFF"), std::string::npos);
}

api::SwitchReport sample_switch() {
  api::SwitchReport sw;
  sw.name = "dut";
  sw.lcore = 2;
  sw.buffer_bytes = 1000000;
  sw.buffer_watermark_bytes = 199680;
  sw.stalls = 3;
  sw.longest_stall_us = 250;
  api::SwitchPortReport in;
  in.name = "dut-a";
  in.device = "cable:a";
  in.speed_bps = 10000000000;
  in.shape_bps = 10000000000;
  in.rx_frames = 150;
  in.tx_pfc_frames = 9;
  in.pause_first_s = 0.5;
  api::SwitchPriorityReport lossless;
  lossless.priority = 3;
  lossless.lossless = true;
  lossless.rx_frames = 150;
  lossless.rx_bytes = 153600;
  lossless.drop_headroom = 2;
  lossless.pfc_xoff_sent = 5;
  lossless.pfc_xon_sent = 4;
  in.priorities.push_back(lossless);
  api::SwitchPortReport out;
  out.name = "dut-r";
  out.device = "cable:r";
  api::SwitchPriorityReport lossy;
  lossy.priority = 0;
  lossy.tx_frames = 100;
  lossy.drop_tail = 7;
  lossy.ecn_marked = 11;
  lossy.queue_watermark_bytes = 204800;
  lossy.paused_ns = 1500000;
  lossy.storms = 1;
  lossy.storm_detected_s = 0.02;
  out.priorities.push_back(lossy);
  sw.ports = {in, out};
  return sw;
}

TEST(RunReportJson, SwitchesRoundTripAndShow) {
  api::RunReport r = sample_report();
  EXPECT_FALSE(api::to_json(r).contains("switches"));  // no switch: no section
  r.switches.push_back(sample_switch());
  const nlohmann::json j = api::to_json(r);
  EXPECT_EQ(j["switches"][0]["ports"][0]["priorities"][0]["drop_headroom"], 2);
  EXPECT_EQ(j["switches"][0]["ports"][1]["priorities"][0]["storm_restored_s"], -1);
  const api::RunReport back = api::run_report_from_json(j);
  EXPECT_EQ(api::to_json(back), j);
  const std::string text = switch_text(back.switches);
  EXPECT_NE(text.find("switch 'dut' (lcore 2): lossy buffer 1000000 B, its watermark 199680 B; 0 frames left queued at "
                      "the end; its lcore was held up 3 times over 20 us (longest 250 us)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("dut-a      3L         150           0          0          2         0           5/4           0/0"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("dut-r       0           0         100          7          0         0           0/0           0/0"
                      "         11       204800      1.500"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("dut-r priority 0: PFC watchdog: 1 storms, last detected at 0.020000 s, 0 restorations"),
            std::string::npos)
      << text;
  EXPECT_NE(run_table(back).find("switch 'dut'"), std::string::npos);
}

TEST(RunViews, TxBuffersAndScheduledLcoresInThePlanAndTheJson) {
  api::RunPlan plan;
  plan.tx_buffers = "shared";
  plan.tx_buffers_why = "10000 streams, more than the 256 that get a pool each";
  plan.scheduled_lcores = {1, 3};
  EXPECT_EQ(plan_text(plan),
            "plan:\n"
            "  TX frames copied per frame from each stream's template into its port's shared pool: 10000 streams, more "
            "than the 256 that get a pool each\n"
            "  lcore 1 visits its TX lanes by deadline (more than 64: each lane when its next frame is due)\n"
            "  lcore 3 visits its TX lanes by deadline (more than 64: each lane when its next frame is due)\n");
  const nlohmann::json j = api::to_json(plan);
  EXPECT_EQ(j["tx_buffers"], (nlohmann::json{{"mode", "shared"}, {"why", plan.tx_buffers_why}}));
  EXPECT_EQ(j["scheduled_lcores"], (nlohmann::json{1, 3}));
  EXPECT_EQ(api::to_json(api::run_plan_from_json(j)), j);
  plan.tx_buffers = "per_stream";
  plan.tx_buffers_why = "a pool per stream, filled with its frame: 2 streams, 14.0 MiB";
  plan.scheduled_lcores.clear();
  EXPECT_EQ(plan_text(plan), "plan:\n  TX frames from a pool per stream, filled with its frame: 2 streams, 14.0 MiB\n");
  EXPECT_FALSE(api::to_json(plan).contains("scheduled_lcores"));
}

TEST(RunViews, MacControlThroughTheNetdevInThePlanTheTableAndTheJson) {
  api::RunPlan plan;
  plan.ports.push_back({0, "a", "net_af_packet0,iface=lra", "net_af_packet", -1, false, true, 10'000'000'000, true,
                        {{0, 1, false}}, {{0, 1, false}}, ""});
  plan.ports[0].mac_control_tx = "kernel netdev lra (AF_PACKET)";
  plan.ports.push_back(plan.ports[0]);
  plan.ports[1].name = "b";
  plan.ports[1].mac_control_tx = "PMD";  // the plain case says nothing
  EXPECT_NE(plan_text(plan).find("    tx queue 0 -> lcore 1\n    MAC Control TX: kernel netdev lra (AF_PACKET)\n  port 0 'b'"),
            std::string::npos)
      << plan_text(plan);
  EXPECT_EQ(api::to_json(api::run_plan_from_json(api::to_json(plan))), api::to_json(plan));

  api::PortReport a;
  a.name = "a";
  a.mac_control_netdev = api::MacControlNetdevReport{"lra", 398, 2, "No buffer space available"};
  EXPECT_EQ(pause_text({a}), "port a: MAC Control frames sent through kernel netdev lra (AF_PACKET): 398 taken by the "
                             "kernel, 2 refused (last: No buffer space available)\n");
  const nlohmann::json j = api::to_json(a);
  EXPECT_EQ(j["mac_control_netdev"]["send_failures"], 2);
  EXPECT_EQ(api::to_json(api::port_report_from_json(j)), j);
}

TEST(RunViews, TheHostsTxQueueInThePlanAndTheJson) {
  api::RunPlan plan;
  plan.ports.push_back({0,
                        "a",
                        "net_af_packet0,iface=lra,qpairs=2",
                        "net_af_packet",
                        -1,
                        false,
                        true,
                        10'000'000'000,
                        true,
                        {{0, 1, false}, {1, 1, false}},
                        {{0, 1, false}},
                        ""});
  plan.ports[0].hosts_tx_queue = 1;
  plan.ports.push_back(plan.ports[0]);
  plan.ports[1].name = "b";
  plan.ports[1].hosts_tx_queue.reset();  // no hosts: nothing said
  const std::string text = plan_text(plan);
  EXPECT_NE(text.find("    tx queue 0 -> lcore 1\n    tx queue 1 -> the emulated hosts' thread\n  port 0 'b'"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("emulated hosts", text.find("port 0 'b'")), std::string::npos) << text;
  const nlohmann::json j = api::to_json(plan);
  EXPECT_EQ(j["ports"][0]["hosts_tx_queue"], 1);
  EXPECT_TRUE(j["ports"][1]["hosts_tx_queue"].is_null());
  EXPECT_EQ(api::to_json(api::run_plan_from_json(j)), j);
}

TEST(RunViews, TimelineGapsAfterTheTableAndTheJson) {
  EXPECT_FALSE(api::longest_gap({}).has_value());
  EXPECT_FALSE(api::longest_gap({0, 0, 5, 5, 0, 0}).has_value()) << "before the first and after the last frame: no gap";
  const auto gap = api::longest_gap({3, 0, 4, 0, 0, 0, 2, 0, 0, 1});
  ASSERT_TRUE(gap.has_value());
  EXPECT_EQ((std::pair{gap->first_bin, gap->bins}), (std::pair<size_t, size_t>{3, 3}));

  api::RunReport r = sample_report();
  r.streams[0].timeline = api::TimelineReport{0.001, {100, 100, 100, 100, 100}, {100, 0, 0, 0, 100}, 0, 0, {}, {}};
  r.streams[1].timeline = api::TimelineReport{0.001, {50, 50}, {}, 7, 0, {}, {}};
  const std::string table = run_table(r);
  EXPECT_NE(table.find("\nstream 'a-stream-with-a-name-longer-than-sixteen' timeline: 5 bins of 1 ms; no frame "
                       "received for 3 bins, from 1.000 ms to 4.000 ms\n"), std::string::npos) << table;
  EXPECT_EQ(table.find("timeline: 2 bins"), std::string::npos) << "transmit only: no gap to say" << table;
  r.streams[0].timeline->rx = {1, 1, 0, 1};
  EXPECT_NE(run_table(r).find("timeline: 4 bins of 1 ms; no frame received for 1 bin, from 2.000 ms to 3.000 ms\n"),
            std::string::npos);
  r.streams[0].timeline->rx = {1, 1};
  EXPECT_NE(run_table(r).find("timeline: 2 bins of 1 ms; frames received in every bin\n"), std::string::npos);
  r.streams[0].timeline->rx = {100, 0, 0, 0, 100};
  const nlohmann::json j = api::to_json(r);
  EXPECT_EQ(j["streams"][0]["timeline"]["rx"], nlohmann::json({100, 0, 0, 0, 100}));
  EXPECT_EQ(j["streams"][1]["timeline"]["tx_after"], 7);
  EXPECT_FALSE(j["streams"][0]["timeline"].contains("tx_after"));
  EXPECT_EQ(api::to_json(api::run_report_from_json(j)), j);
}

TEST(RunViews, RoceStreamInThePlanSaysItsHeaders) {
  api::RunPlan plan;
  api::StreamPlan roce{"rdma", "p0", std::string("p1"), 1086, 1e5, 0, 0, {{0, 1, false}}};
  roce.kind = "roce";
  roce.roce = "rc-write-only to QP 17, P_Key 0xffff, PSN from 0, R_Key 0x1234 at 0x10000";
  plan.streams = {roce};
  EXPECT_NE(plan_text(plan).find("  stream 'rdma' p0 -> p1: 1086 B RoCEv2 frames, rc-write-only to QP 17, P_Key 0xffff, "
                                 "PSN from 0, R_Key 0x1234 at 0x10000, 0.100000 Mpps, until stopped, lanes: q0@lcore1\n"),
            std::string::npos)
      << plan_text(plan);
  const nlohmann::json j = api::to_json(plan);
  EXPECT_EQ(j["streams"][0]["kind"], "roce");
  EXPECT_EQ(api::to_json(api::run_plan_from_json(j)), j);
}

TEST(RunPlanJson, SwitchesInThePlan) {
  api::RunPlan plan;
  api::SwitchPlan sw;
  sw.name = "dut";
  sw.lcore = 2;
  sw.lossless = {3, 4};
  sw.ports = {{"dut-a", "cable:a", true, 10000000000, 10000000000, "dut-r"},
              {"dut-r", "cable:r", false, 10000000000, 5000000000, ""}};
  plan.switches.push_back(sw);
  const nlohmann::json j = api::to_json(plan);
  EXPECT_EQ(api::to_json(api::run_plan_from_json(j)), j);
  EXPECT_EQ(plan_text(plan),
            "plan:\n"
            "  switch 'dut' on lcore 2: lossless priorities 3, 4; forwarding by port\n"
            "    port 'dut-a' cable:a (link up, 10 Gbit/s) -> dut-r\n"
            "    port 'dut-r' cable:r (link down, 10 Gbit/s, shaped to 5 Gbit/s)\n");
  EXPECT_FALSE(api::to_json(api::RunPlan{}).contains("switches"));
}

TEST(NicPause, PerPriorityCountersFromTheMergedView) {
  auto counter = [](std::string name, std::string source, std::string canonical, uint64_t value) {
    return api::NicCounter{std::move(name), std::move(source), std::move(canonical), value, value};
  };
  const std::vector<api::NicCounter> mlx5{
      counter("rx_prio3_pause", "xstats", "rx_pause_prio3", 12),
      counter("rx_prio3_pause", "ethtool", "rx_pause_prio3", 13),  // the same counter from a second source
      counter("rx_prio3_pause_duration", "ethtool", "rx_pause_duration_us_prio3", 900),
      counter("tx_prio0_pause", "ethtool", "tx_pause_prio0", 0),
      counter("rx_packets", "xstats", "rx_packets", 5)};
  const std::vector<api::NicPauseReport> r = api::nic_pause_counters(mlx5);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].priority, 0);
  EXPECT_EQ(r[0].tx_frames, 0u);
  EXPECT_FALSE(r[0].rx_frames.has_value());
  EXPECT_EQ(r[1].priority, 3);
  EXPECT_EQ(r[1].rx_frames, 12u);  // the first source, not the sum of both
  EXPECT_EQ(r[1].rx_duration_us, 900u);
  // Nothing paused: nothing to show.
  EXPECT_TRUE(api::nic_pause_counters({counter("tx_prio0_pause", "ethtool", "tx_pause_prio0", 0)}).empty());
}

TEST(RunReportJson, WrongTypeIsAnError) {
  nlohmann::json j = api::to_json(sample_report());
  j["streams"][0]["tx_packets"] = "many";
  EXPECT_THROW(api::run_report_from_json(j), nlohmann::json::exception);
}

}  // namespace
}  // namespace lr::views
