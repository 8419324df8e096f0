// The contract's smaller results, each read back as it was written: traffic.status,
// stats.histogram, stats.lcores, port.list (with and without an owner), the port
// controls' answers, port.counters, port.module, stream.list, stream.rate.set, the flow
// methods and methods.list; a run report's nested parts (written only when there is
// something to say, read back, a wrong type named by its whole path), a link event's time
// on its run's clock among them; and a field of the wrong type refused where it is.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "lib/api/flow_report.hpp"
#include "lib/api/json_fields.hpp"
#include "lib/api/lcore_report.hpp"
#include "lib/api/port_control_report.hpp"
#include "lib/api/rpc.hpp"
#include "lib/api/run_report.hpp"
#include "lib/api/stall_report.hpp"
#include "lib/api/switch_report.hpp"
#include "lib/api/traffic.hpp"

namespace lr::api {
namespace {

using nlohmann::json;

TEST(TrafficCodecs, StatusAndHistogramReadBack) {
  const TrafficStatus status = traffic_status_from_json(to_json(TrafficStatus{true, true}));
  EXPECT_TRUE(status.running);
  EXPECT_TRUE(status.tx_finished);
  const LatencyHistogram h{"s1", 7, {{0, 15, 2}, {1024, 1040, 5}}};
  const json j = to_json(h);
  EXPECT_EQ(j.dump(), R"({"buckets":[{"count":2,"high_ns":15,"low_ns":0},{"count":5,"high_ns":1040,"low_ns":1024}],)"
                      R"("samples":7,"stream":"s1"})");
  const LatencyHistogram back = latency_histogram_from_json(j);
  EXPECT_EQ(back.stream, "s1");
  EXPECT_EQ(back.samples, 7u);
  ASSERT_EQ(back.buckets.size(), 2u);
  EXPECT_EQ((std::tuple{back.buckets[1].low_ns, back.buckets[1].high_ns, back.buckets[1].count}),
            (std::tuple{1024u, 1040u, 5u}));
}

TEST(TrafficCodecs, LcoreReportReadsBack) {
  LcoreReport l{3, 1, {{"s1", 2, 0, 1, 1000, 4, 1, true}}, {{0, 1, 990, 126720, 3}}};
  const LcoreReport back = lcore_report_from_json(to_json(l));
  EXPECT_EQ((std::tuple{back.lcore, back.socket}), (std::tuple{3u, 1}));
  ASSERT_EQ(back.tx_lanes.size(), 1u);
  const LaneReport& lane = back.tx_lanes[0];
  EXPECT_EQ((std::tuple{lane.stream, lane.lane, lane.port_id, lane.queue, lane.tx_packets, lane.tx_queue_full,
                        lane.alloc_failures, lane.done}),
            (std::tuple{std::string("s1"), uint8_t{2}, uint16_t{0}, uint16_t{1}, uint64_t{1000}, uint64_t{4},
                        uint64_t{1}, true}));
  ASSERT_EQ(back.rx_queues.size(), 1u);
  const RxQueueReport& q = back.rx_queues[0];
  EXPECT_EQ((std::tuple{q.port_id, q.queue, q.rx_packets, q.rx_bytes, q.rx_no_signature}),
            (std::tuple{uint16_t{0}, uint16_t{1}, uint64_t{990}, uint64_t{126720}, uint64_t{3}}));
}

TEST(TrafficCodecs, PortListingHasTheIdentityAndTheOwnerOnly) {
  PortListing listing;
  listing.port.name = "p0";
  listing.port.device = "net_ring0";
  listing.port.driver = "net_ring";
  listing.port.link_up = true;
  listing.port.speed_bps = 10'000'000'000;
  listing.port.speed_from_profile = true;
  listing.port.counters.ipackets = 99;  // counters are not part of a listing
  listing.owner = 4;
  const json j = to_json(listing);
  EXPECT_FALSE(j.contains("ipackets"));
  EXPECT_EQ(j["owner"], 4);
  const PortListing back = port_listing_from_json(j);
  EXPECT_EQ((std::tuple{back.port.name, back.port.device, back.port.driver, back.port.link_up, back.port.speed_bps,
                        back.port.speed_from_profile, back.owner}),
            (std::tuple{std::string("p0"), std::string("net_ring0"), std::string("net_ring"), true,
                        uint64_t{10'000'000'000}, true, std::optional<uint64_t>(4)}));
  listing.owner.reset();
  EXPECT_TRUE(to_json(listing)["owner"].is_null());
  EXPECT_FALSE(port_listing_from_json(to_json(listing)).owner);
}

TEST(TrafficCodecs, PortControlAnswersReadBack) {
  const LinkReport link{{"p0", "kernel", "ens1f0"}, true, 50000, true, true, {"50000baseCR/Full"}, {"50000baseCR/Full"}, {}};
  const json link_json = to_json(link);
  EXPECT_EQ(link_json["netdev"], "ens1f0");
  const LinkReport link_back = link_report_from_json(link_json);
  EXPECT_EQ((std::tuple{link_back.served.port, link_back.served.backend, link_back.served.netdev, link_back.up,
                        link_back.speed_mbps, link_back.advertised}),
            (std::tuple{std::string("p0"), std::string("kernel"), std::string("ens1f0"), true, 50000u,
                        std::vector<std::string>{"50000baseCR/Full"}}));
  const FecReport fec{{"p0", "ethdev", ""}, {"rs", "auto"}, std::nullopt, {{0, {"off", "rs"}}, {50000, {"rs"}}}};
  const json fec_json = to_json(fec);
  EXPECT_TRUE(fec_json["active"].is_null());  // link down: none
  EXPECT_FALSE(fec_json.contains("netdev"));
  const FecReport fec_back = fec_report_from_json(fec_json);
  EXPECT_FALSE(fec_back.active);
  ASSERT_EQ(fec_back.capability.size(), 2u);
  EXPECT_EQ((std::tuple{fec_back.capability[1].speed_mbps, fec_back.capability[1].modes}),
            (std::tuple{50000u, std::vector<std::string>{"rs"}}));
  const PfcReport pfc{{"p0", "ethdev", ""}, {3, 4}, 8, {1, 2}, {3, 4}, false};
  const PfcReport pfc_back = pfc_report_from_json(to_json(pfc));
  EXPECT_EQ((std::tuple{pfc_back.priorities, pfc_back.capable_tcs, pfc_back.requests, pfc_back.read_back}),
            (std::tuple{std::vector<int>{3, 4}, 8u, std::vector<uint64_t>{1, 2}, std::optional<bool>(false)}));
  EXPECT_FALSE(to_json(PfcReport{}).contains("read_back"));  // only a set says it
  const PauseReport pause_back = pause_report_from_json(to_json(PauseReport{{"p0", "kernel", ""}, "rx", true, false, true}));
  EXPECT_EQ((std::tuple{pause_back.mode, pause_back.rx, pause_back.tx, pause_back.autoneg}),
            (std::tuple{std::string("rx"), true, false, true}));
}

// The error of `read(j)`, without nlohmann's prefix, or "(accepted)".
template <class Fn>
std::string refusal(Fn&& read, const json& j) {
  try {
    read(j);
  } catch (const json::exception& e) {
    return json_error_text(e);
  }
  return "(accepted)";
}

TEST(TrafficCodecs, PortCountersModuleAndFlowsReadBack) {
  const PortCounterView view{"p0", "eth2", {{"rx_discards_phy", "ethtool", "rx_missed", 7, 9}}, {"fec: not supported"}};
  const PortCounterView view_back = port_counter_view_from_json(json::parse(to_json(view).dump()));
  ASSERT_EQ(view_back.counters.size(), 1u);
  EXPECT_EQ((std::tuple{view_back.netdev, view_back.counters[0].canonical, view_back.counters[0].total, view_back.errors}),
            (std::tuple{std::string("eth2"), std::optional<std::string>("rx_missed"), uint64_t{9},
                        std::vector<std::string>{"fec: not supported"}}));
  EXPECT_EQ(refusal(port_counter_view_from_json, json::parse(R"({"counters": [{}, {"total": "many"}]})")),
            "counters[1].total: type must be number, but is string");

  const ModuleEeprom eeprom{"p0", "kernel", {0x0d, 0x00, 0xff, 0xa0}};
  const json eeprom_json = to_json(eeprom);
  EXPECT_EQ(eeprom_json["eeprom_hex"], "0d00ffa0");
  EXPECT_EQ(eeprom_json["size"], 4);
  EXPECT_EQ(module_eeprom_from_json(eeprom_json).bytes, eeprom.bytes);
  EXPECT_EQ(module_eeprom_from_json(json{{"eeprom_hex", "0D00FFA0"}}).bytes, eeprom.bytes);
  EXPECT_THROW(module_eeprom_from_json(json{{"eeprom_hex", "0d0"}}), std::invalid_argument);
  try {
    module_eeprom_from_json(json{{"eeprom_hex", "0dx0"}});
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "eeprom_hex: 'x' at 2 is not a hex digit");
  }

  const FlowList list{"p0", "ethdev", {{1, "pattern eth / end actions count / end", 5, 320, ""}, {2, "r", {}, {}, "no counter"}}};
  const FlowList list_back = flow_list_from_json(json::parse(to_json(list).dump()));
  ASSERT_EQ(list_back.rules.size(), 2u);
  EXPECT_EQ((std::tuple{list_back.rules[0].id, list_back.rules[0].hits, list_back.rules[0].bytes}),
            (std::tuple{1u, std::optional<uint64_t>(5), std::optional<uint64_t>(320)}));
  EXPECT_EQ((std::tuple{list_back.rules[1].hits, list_back.rules[1].counter_error}),
            (std::tuple{std::optional<uint64_t>(), std::string("no counter")}));
  EXPECT_EQ(flow_change_from_json(to_json(FlowChange{"p0", "ethdev", 7, std::nullopt})).id, 7u);
  EXPECT_EQ(flow_change_from_json(to_json(FlowChange{"p0", "ethdev", std::nullopt, 3})).destroyed, 3u);
  EXPECT_EQ(refusal(flow_list_from_json, json::parse(R"({"rules": [{"hits": true}]})")),
            "rules[0].hits: type must be number, but is boolean");
}

TEST(TrafficCodecs, StreamsAndMethodsReadBack) {
  const StreamListing listing{"s", "p0", std::nullopt, 64, 2, 1.5e6};
  const StreamListing listing_back = stream_listing_from_json(to_json(listing));
  EXPECT_EQ((std::tuple{listing_back.rx_port, listing_back.lanes, listing_back.target_pps}),
            (std::tuple{std::optional<std::string>(), 2u, std::optional<double>(1.5e6)}));
  EXPECT_FALSE(stream_listing_from_json(to_json(StreamListing{"s", "p0", "p1", 64, 1, std::nullopt})).target_pps);
  EXPECT_EQ(stream_rate_from_json(to_json(StreamRate{"s", std::nullopt})).target_pps, std::nullopt);  // max
  EXPECT_EQ(streams_named(json{{"added", {"a", "b"}}}), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(streams_named(json{{"stopped", {"c"}}}), std::vector<std::string>{"c"});
  EXPECT_TRUE(streams_named(json{{"running", true}}).empty());
  const MethodListing method{"port.set", "Sets a port's configuration.", true, {"port", "keep?"}, "port.config.set"};
  const MethodListing method_back = method_listing_from_json(to_json(method));
  EXPECT_EQ((std::tuple{method_back.name, method_back.mutating, method_back.params, method_back.deprecated}),
            (std::tuple{std::string("port.set"), true, std::vector<std::string>{"port", "keep?"},
                        std::string("port.config.set")}));
  EXPECT_FALSE(to_json(MethodListing{"hello", "", false, {}, ""}).contains("deprecated"));
}

TEST(TrafficCodecs, ReportPartsAreWrittenWhenThereIsSomethingAndNamedOnError) {
  RunReport run;
  PortReport& quiet = run.ports.emplace_back();
  quiet.name = "p0";
  PortReport& paused = run.ports.emplace_back();
  paused.name = "p1";
  paused.counters.ipackets = 12;
  paused.mac_control = MacControlReport{};
  paused.mac_control->pfc_frames = 3;
  paused.mac_control->pfc.push_back(PauseClassReport{3, 2, 1, 131070, 671.0});
  paused.nic_pause.push_back(NicPauseReport{3, 2, std::nullopt, std::nullopt, std::nullopt});
  const json j = json::parse(to_json(run).dump());
  // A run's streams, ports and lcores are always there; its switches and captures, and a
  // port's parts, only when it has some.
  EXPECT_EQ((std::tuple{j.contains("streams"), j.contains("lcores"), j.contains("switches"), j.contains("captures")}),
            (std::tuple{true, true, false, false}));
  EXPECT_EQ(j["schema"], "linerate.run_report/1");
  EXPECT_FALSE(j["ports"][0].contains("mac_control"));
  EXPECT_FALSE(j["ports"][0].contains("nic_pause"));
  EXPECT_EQ(j["ports"][1]["ipackets"], 12);
  EXPECT_EQ(j["ports"][1]["nic_pause"].dump(), R"([{"priority":3,"rx_frames":2}])");
  const RunReport back = run_report_from_json(j);
  ASSERT_EQ(back.ports.size(), 2u);
  EXPECT_FALSE(back.ports[0].mac_control);
  ASSERT_TRUE(back.ports[1].mac_control);
  ASSERT_EQ(back.ports[1].mac_control->pfc.size(), 1u);
  EXPECT_EQ((std::tuple{back.ports[1].counters.ipackets, back.ports[1].mac_control->pfc_frames,
                        back.ports[1].mac_control->pfc[0].priority, back.ports[1].mac_control->pfc[0].quanta,
                        back.ports[1].nic_pause[0].rx_frames, back.ports[1].nic_pause[0].tx_frames}),
            (std::tuple{uint64_t{12}, uint64_t{3}, 3, uint64_t{131070}, std::optional<uint64_t>(2),
                        std::optional<uint64_t>()}));
  EXPECT_EQ(refusal(run_report_from_json, json::parse(R"({"ports": [{}, {"mac_control": {"pfc": [{}, {"xoff": "x"}]}}]})")),
            "ports[1].mac_control.pfc[1].xoff: type must be number, but is string");
  EXPECT_EQ(refusal(run_report_from_json, json::parse(R"({"ports": [{"nic_counters": [{"canonical": 7}]}]})")),
            "ports[0].nic_counters[0].canonical: type must be string, but is number");
}

TEST(TrafficCodecs, ALinkEventHasItsRunTimeOnlyWhenItHasOne) {
  // port.link.history's events, and a run's before its start: no run_s key, as before it.
  const LinkEventReport seen{"2026-12-06T14:00:00.250Z", false, 0, "observed", std::nullopt};
  EXPECT_EQ(to_json(seen).dump(), R"({"at":"2026-12-06T14:00:00.250Z","cause":"observed","speed_mbps":0,"up":false})");
  EXPECT_FALSE(link_event_from_json(to_json(seen)).run_s);
  RunReport run;
  run.ports.emplace_back().link_events = {seen,
                                          {"2026-12-06T14:00:00.766Z", true, 10000, "set by session 2", 0.515625}};
  const json j = json::parse(to_json(run).dump());
  EXPECT_EQ(j["ports"][0]["link_events"][1]["run_s"], 0.515625);
  const RunReport back = run_report_from_json(j);
  ASSERT_EQ(back.ports[0].link_events.size(), 2u);
  EXPECT_EQ(
      (std::tuple{back.ports[0].link_events[0].run_s, back.ports[0].link_events[1].run_s,
                  back.ports[0].link_events[1].up, back.ports[0].link_events[1].cause}),
      (std::tuple{std::optional<double>(), std::optional<double>(0.515625), true, std::string("set by session 2")}));
  EXPECT_EQ(refusal(run_report_from_json, json::parse(R"({"ports": [{"link_events": [{}, {"run_s": "0.5"}]}]})")),
            "ports[0].link_events[1].run_s: type must be number, but is string");
  EXPECT_EQ(refusal(link_event_from_json, json::parse(R"({"up": true, "run_s": [0.5]})")),
            "run_s: type must be number, but is array");
}

}  // namespace
TEST(TrafficCodecs, ARunCutShortSaysWhyAndARunThatRanItsCourseHasNoSuchKey) {
  RunReport run;
  EXPECT_FALSE(to_json(run).contains("interrupted_by"));
  EXPECT_FALSE(run_report_from_json(to_json(run)).interrupted_by);
  run.interrupted = true;
  run.interrupted_by = "the data plane went away: the data plane at /run/dp.sock hung up: End of file";
  const json j = json::parse(to_json(run).dump());
  EXPECT_EQ(
      (std::tuple{j["interrupted"], j["interrupted_by"]}),
      (std::tuple{json(true), json("the data plane went away: the data plane at /run/dp.sock hung up: End of file")}));
  EXPECT_EQ(run_report_from_json(j).interrupted_by, run.interrupted_by);
  EXPECT_EQ(refusal(run_report_from_json, json::parse(R"({"interrupted_by": 7})")),
            "interrupted_by: type must be string, but is number");
}

TEST(TrafficCodecs, AnIntegerFieldTakesOnlyAWholeNumberItsTypeHolds) {
  // Whole numbers in range, written as integers or as floats, read as they are.
  EXPECT_EQ(run_report_from_json(json::parse(R"({"mbufs_not_returned": 7})")).mbufs_not_returned, 7u);
  EXPECT_EQ(run_report_from_json(json::parse(R"({"mbufs_not_returned": 7.0})")).mbufs_not_returned, 7u);
  EXPECT_EQ(run_plan_from_json(json::parse(R"({"ports": [{"hosts_tx_queue": 65535}]})")).ports[0].hosts_tx_queue,
            uint16_t{65535});
  // Beyond the type (a float there was undefined behaviour, an integer wrapped), a fraction, a
  // sign the type has not: refused at the field.
  EXPECT_EQ(refusal(run_report_from_json, json::parse(R"({"mbufs_not_returned": 1e30})")),
            "mbufs_not_returned: number 1e+30 is not a whole number from 0 to 18446744073709551615");
  EXPECT_EQ(refusal(run_report_from_json, json::parse(R"({"mbufs_not_returned": 18446744073709551616.0})")),
            "mbufs_not_returned: number 1.8446744073709552e+19 is not a whole number from 0 to 18446744073709551615");
  EXPECT_EQ(refusal(run_report_from_json, json::parse(R"({"mbufs_not_returned": -1})")),
            "mbufs_not_returned: number -1 is not a whole number from 0 to 18446744073709551615");
  EXPECT_EQ(refusal(run_report_from_json, json::parse(R"({"mbufs_not_returned": 2.5})")),
            "mbufs_not_returned: number 2.5 is not a whole number from 0 to 18446744073709551615");
  EXPECT_EQ(refusal(run_plan_from_json, json::parse(R"({"ports": [{"hosts_tx_queue": 65536}]})")),
            "ports[0].hosts_tx_queue: number 65536 is not a whole number from 0 to 65535");
}

TEST(TrafficCodecs, EveryIntegerOfAReportIsChecked) {
  // Those read outside the field lists: a timeline's bins (an array of counters), ECN counts,
  // an lcore's number, a queue's lcore, a FEC capability's speed.
  EXPECT_EQ(
      run_report_from_json(json::parse(R"({"streams": [{"timeline": {"tx": [1, 2.0]}}]})")).streams[0].timeline->tx,
      (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(refusal(run_report_from_json, json::parse(R"({"streams": [{"timeline": {"tx": [1, 1e30]}}]})")),
            "streams[0].timeline.tx[1]: number 1e+30 is not a whole number from 0 to 18446744073709551615");
  EXPECT_EQ(refusal(run_report_from_json, json::parse(R"({"streams": [{"timeline": {"rx_after": -2}}]})")),
            "streams[0].timeline.rx_after: number -2 is not a whole number from 0 to 18446744073709551615");
  EXPECT_EQ(
      refusal(run_report_from_json,
              json::parse(R"({"streams": [{"ecn_received": {"not_ect": 1, "ect1": 0, "ect0": 1e20, "ce": 0}}]})")),
      "streams[0].ecn_received.ect0: number 1e+20 is not a whole number from 0 to 18446744073709551615");
  EXPECT_EQ(refusal(lcore_report_from_json, json::parse(R"({"lcore": 4294967296.0})")),
            "lcore: number 4294967296.0 is not a whole number from 0 to 4294967295");
  EXPECT_EQ(refusal(run_plan_from_json, json::parse(R"({"ports": [{"rx_queues": [{"queue": 0, "lcore": 1e40}]}]})")),
            "ports[0].rx_queues[0]: number 1e+40 is not a whole number from 0 to 4294967295");
  // The emulated switch's report and the stall log, read by their members' names.
  EXPECT_EQ(switch_report_from_json(json::parse(R"({"ports": [{"name": "p", "rx_frames": 9.0}]})")).ports[0].rx_frames,
            9u);
  EXPECT_EQ(refusal(switch_report_from_json, json::parse(R"({"ports": [{"name": "p", "rx_frames": 2.2e24}]})")),
            "ports[0].rx_frames: number 2.2e+24 is not a whole number from 0 to 18446744073709551615");
  EXPECT_EQ(refusal(switch_report_from_json, json::parse(R"({"ports": [7]})")),
            "ports[0]: type must be object, but is number");
  EXPECT_EQ(refusal(lcore_stalls_from_json, json::parse(R"({"lcore": -1})")),
            "lcore: number -1 is not a whole number from 0 to 4294967295");
}

}  // namespace lr::api
