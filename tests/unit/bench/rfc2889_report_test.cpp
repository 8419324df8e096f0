// The RFC 2889 report's codec: a report the suite wrote (the views' corpus) reads into the
// types and writes back to the same JSON, result by result; each shape's bytes fixed (the
// answers a search did not find written as null, a cut-short search's bound instead); a
// value of the wrong type refused where it is.
#include "control/reports/rfc2889_report.hpp"

#include <gtest/gtest.h>

#include "tests/support/report_corpus.hpp"

namespace lr::bench::rfc2889 {
namespace {

using nlohmann::json;

json corpus_report() { return test::report_corpus("rfc2889.json"); }

TEST(Rfc2889Report, AReportTheSuiteWroteReadsAndWritesBackTheSame) {
  const json report = corpus_report();
  ASSERT_GE(report.at("results").size(), 10u);
  for (const json& written : report.at("results")) {
    const Result r = rfc2889_result_from_json(written);
    EXPECT_EQ(to_json(r), written) << written.dump().substr(0, 300);
    EXPECT_EQ(rfc2889_result_from_json(to_json(r)), r);
  }
  EXPECT_EQ(rfc2889_report_from_json(report).results.size(), report.at("results").size());
}

TEST(Rfc2889Report, EachShapeIsWrittenAsTheSuiteHasAlwaysWrittenIt) {
  // A meshed pattern whose every load lost frames: no throughput, said as null; a point
  // with no valid run is its load and why.
  Result meshed;
  meshed.test = "unidirectional";
  meshed.section = "5.4";
  meshed.frame_size = 64;
  MeshedPoint lossy;
  static_cast<FrameCounts&>(lossy) = {1000, 900, 100, 10, 5000, 4500, 2};
  lossy.load_percent = 10;
  lossy.local = FrameCounts{10, 10, 0, 0, 50, 50, 0};
  MeshedPoint spoiled;
  spoiled.load_percent = 5;
  spoiled.invalid = "the host held the tester up";
  meshed.points = std::vector<MeshedPoint>{lossy};
  meshed.throughput_search = std::vector<MeshedPoint>{spoiled};
  meshed.why = "frames were lost at every load down to 10 %";
  meshed.forwarding_rate_at_max_load_fps = 4500;
  meshed.max_load_percent = 10;
  EXPECT_EQ(to_json(meshed).dump(),
            R"({"forwarding_rate_at_max_load_fps":4500.0,"frame_size":64,"max_load_percent":10.0,"points":[)"
            R"({"forwarded_fps":4500.0,"load_percent":10.0,"local":{"forwarded_fps":50.0,"loss_percent":0.0,)"
            R"("lost_frames":0,"offered_fps":50.0,"rx_frames":10,"tx_frames":10,"wrong_port_frames":0},)"
            R"("loss_percent":10.0,"lost_frames":100,"offered_fps":5000.0,"rx_frames":900,"tx_frames":1000,)"
            R"("wrong_port_frames":2}],"section":"5.4","test":"unidirectional","throughput_percent":null,)"
            R"("throughput_search":[{"invalid":"the host held the tester up","load_percent":5.0}],)"
            R"("verdict":"measured","why":"frames were lost at every load down to 10 %"})");

  // address_caching that found none: addresses null; address_learning cut short: its bound,
  // no learning_rate_fps at all.
  Result caching;
  caching.test = "address_caching";
  caching.section = "5.7";
  caching.learning_port = "t1";
  caching.test_port = "t2";
  caching.monitor_port = "t3";
  caching.address_rate_fps = 1000;
  caching.age_time_s = 300;
  caching.trials = std::vector<AddressTrialRow>{{8192, 1000, std::nullopt, 12, 0, 0, false},
                                                {1, 1000, "interrupted", 0, 0, 0, false}};
  caching.why = "frames flooded already at min_addresses (1)";
  EXPECT_EQ(to_json(caching).dump(),
            R"({"address_rate_fps":1000.0,"addresses":null,"age_time_s":300.0,"learning_port":"t1",)"
            R"("monitor_port":"t3","section":"5.7","test":"address_caching","test_port":"t2","trials":[)"
            R"({"addresses":8192,"flooded_frames":12,"learning_frames_lost":0,"learning_rate_fps":1000.0,)"
            R"("lost_frames":0,"passed":false},{"addresses":1,"invalid":"interrupted","learning_rate_fps":1000.0}],)"
            R"j("verdict":"measured","why":"frames flooded already at min_addresses (1)"})j");
  Result learning;
  learning.test = "address_learning";
  learning.section = "5.8";
  learning.verdict = "SKIPPED";
  learning.addresses = 999;
  learning.address_rate_fps = 1000;
  learning.resolution_percent = 1;
  learning.trials = std::vector<AddressTrialRow>{};
  learning.learning_rate_at_least_fps = 2500;
  learning.why = "the search stopped";
  EXPECT_EQ(to_json(learning).dump(),
            R"({"address_rate_fps":1000.0,"addresses":999,"learning_rate_at_least_fps":2500.0,)"
            R"("resolution_percent":1.0,"section":"5.8","test":"address_learning","trials":[],"verdict":"SKIPPED",)"
            R"("why":"the search stopped"})");
  // Skipped before it searched (no trials): nothing said of an answer.
  Result early;
  early.test = "address_learning";
  early.section = "5.8";
  early.verdict = "SKIPPED";
  early.why = "not within age_time";
  EXPECT_EQ(to_json(early).dump(),
            R"({"section":"5.8","test":"address_learning","verdict":"SKIPPED","why":"not within age_time"})");

  Result errored;
  errored.test = "errored_frames";
  errored.section = "5.9";
  errored.verdict = "FAIL";
  errored.undersize = ErroredCheck{std::nullopt, "SKIPPED", "cannot be sent", {}, {}};
  errored.oversize = ErroredCheck{1519, "FAIL", "3 of 1000 forwarded", 1000, 3};
  EXPECT_EQ(to_json(errored).dump(),
            R"({"oversize":{"forwarded_frames":3,"frame_size":1519,"tx_frames":1000,"verdict":"FAIL",)"
            R"("why":"3 of 1000 forwarded"},"section":"5.9","test":"errored_frames",)"
            R"("undersize":{"verdict":"SKIPPED","why":"cannot be sent"},"verdict":"FAIL"})");

  for (const Result* r : {&meshed, &caching, &learning, &early, &errored})
    EXPECT_EQ(rfc2889_result_from_json(json::parse(to_json(*r).dump())), *r) << r->test;

  const RunRow run{"broadcast", "64 B", "", json{{"streams", json::array()}}};
  EXPECT_EQ(to_json(run).dump(), R"({"invalid_reason":"","label":"64 B","report":{"streams":[]},"test":"broadcast"})");
}

// neighbor_caching: the devices, the rate, the trials and the answer; none found is null,
// a cut-short search's bound is said instead, and before a search nothing is said.
TEST(Rfc2889Report, NeighborCachingIsWrittenAndReadBackTheSame) {
  Result caching;
  caching.test = "neighbor_caching";
  caching.section = "-";
  caching.sender_device = "left";
  caching.hosts_device = "right";
  caching.host_rate_fps = 2000;
  caching.trials =
      std::vector<AddressTrialRow>{{80, 2000, std::nullopt, 0, 27, 1, false}, {53, 2000, std::nullopt, 0, 0, 0, true}};
  caching.hosts = 53;
  caching.why = "53 hosts forwarded to without loss, not 54";
  EXPECT_EQ(to_json(caching).dump(),
            R"({"host_rate_fps":2000.0,"hosts":53,"hosts_device":"right","section":"-","sender_device":"left",)"
            R"("test":"neighbor_caching","trials":[{"addresses":80,"flooded_frames":0,"learning_frames_lost":1,)"
            R"("learning_rate_fps":2000.0,"lost_frames":27,"passed":false},{"addresses":53,"flooded_frames":0,)"
            R"("learning_frames_lost":0,"learning_rate_fps":2000.0,"lost_frames":0,"passed":true}],)"
            R"("verdict":"measured","why":"53 hosts forwarded to without loss, not 54"})");

  Result none = caching;  // lost frames already at min_hosts
  none.hosts.reset();
  none.trials = std::vector<AddressTrialRow>{{1, 2000, std::nullopt, 0, 1, 0, false}};
  none.why = "frames were lost already with min_hosts (1)";
  EXPECT_EQ(to_json(none).dump(),
            R"({"host_rate_fps":2000.0,"hosts":null,"hosts_device":"right","section":"-","sender_device":"left",)"
            R"("test":"neighbor_caching","trials":[{"addresses":1,"flooded_frames":0,"learning_frames_lost":0,)"
            R"("learning_rate_fps":2000.0,"lost_frames":1,"passed":false}],"verdict":"measured",)"
            R"j("why":"frames were lost already with min_hosts (1)"})j");

  Result cut = none;  // the search stopped: its bound, and no hosts at all
  cut.verdict = "SKIPPED";
  cut.hosts_at_least = 40;
  cut.trials =
      std::vector<AddressTrialRow>{{40, 2000, std::nullopt, 0, 0, 0, true}, {60, 2000, "interrupted", 0, 0, 0, false}};
  cut.why = "the search stopped";
  const json cut_json = to_json(cut);
  EXPECT_FALSE(cut_json.contains("hosts"));
  EXPECT_EQ(cut_json.at("hosts_at_least"), 40);
  EXPECT_EQ(cut_json.at("trials").at(1).dump(),
            R"({"addresses":60,"invalid":"interrupted","learning_rate_fps":2000.0})");

  Result early;  // skipped before its search: no trials, nothing said of an answer
  early.test = "neighbor_caching";
  early.section = "-";
  early.verdict = "SKIPPED";
  early.why = "interrupted";
  EXPECT_EQ(to_json(early).dump(),
            R"({"section":"-","test":"neighbor_caching","verdict":"SKIPPED","why":"interrupted"})");
  // address_caching's rule is its own: a neighbour result's missing addresses are not said.
  EXPECT_FALSE(to_json(none).contains("addresses"));

  for (const Result* r : {&caching, &none, &cut, &early}) {
    const Result read = rfc2889_result_from_json(json::parse(to_json(*r).dump()));
    EXPECT_EQ(read, *r) << r->why.value_or("");
    EXPECT_EQ(to_json(read), to_json(*r));
  }
  EXPECT_EQ(rfc2889_result_from_json(to_json(caching)).hosts, std::optional<uint64_t>(53));
  EXPECT_EQ(rfc2889_result_from_json(to_json(cut)).hosts_at_least, std::optional<uint64_t>(40));
}

// neighbor_reresolution: the flap, each host's time (null: never forwarded to again) and
// the spread, written and read back the same.
TEST(Rfc2889Report, NeighborReresolutionIsWrittenAndReadBackTheSame) {
  Result r;
  r.test = "neighbor_reresolution";
  r.section = "-";
  r.sender_device = "left";
  r.hosts_device = "right";
  r.link_down_s = 0.3;
  r.timeline_bin_ms = 0.1;
  r.reresolution = std::vector<HostReresolution>{{"right[0]", "198.19.0.1", 12.5, 3},
                                                 {"right[1]", "198.19.0.2", std::nullopt, 41},
                                                 {"right[2]", "198.19.0.3", 14.25, 4}};
  r.reresolved_min_ms = 12.5;
  r.reresolved_median_ms = 13.375;
  r.reresolved_max_ms = 14.25;
  r.hosts_not_reresolved = 1;
  r.why = "2 of 3 hosts forwarded to again";
  EXPECT_EQ(to_json(r).dump(),
            R"({"hosts_device":"right","hosts_not_reresolved":1,"link_down_s":0.3,"reresolution":[)"
            R"({"address":"198.19.0.1","host":"right[0]","lost_frames":3,"reresolved_ms":12.5},)"
            R"({"address":"198.19.0.2","host":"right[1]","lost_frames":41,"reresolved_ms":null},)"
            R"({"address":"198.19.0.3","host":"right[2]","lost_frames":4,"reresolved_ms":14.25}],)"
            R"("reresolved_max_ms":14.25,"reresolved_median_ms":13.375,"reresolved_min_ms":12.5,"section":"-",)"
            R"("sender_device":"left","test":"neighbor_reresolution","timeline_bin_ms":0.1,"verdict":"measured",)"
            R"("why":"2 of 3 hosts forwarded to again"})");
  const Result read = rfc2889_result_from_json(json::parse(to_json(r).dump()));
  EXPECT_EQ(read, r);
  ASSERT_TRUE(read.reresolution && read.reresolution->size() == 3);
  EXPECT_EQ((*read.reresolution)[1].reresolved_ms, std::nullopt);
  EXPECT_EQ((*read.reresolution)[2].reresolved_ms, std::optional<double>(14.25));
  EXPECT_EQ(read.hosts_not_reresolved, std::optional<uint64_t>(1));

  // No host forwarded to again: no spread, every time null, all of them counted.
  Result silent = r;
  for (HostReresolution& h : *silent.reresolution) h.reresolved_ms.reset();
  silent.reresolved_min_ms.reset();
  silent.reresolved_median_ms.reset();
  silent.reresolved_max_ms.reset();
  silent.hosts_not_reresolved = 3;
  const json written = to_json(silent);
  EXPECT_FALSE(written.contains("reresolved_min_ms"));
  EXPECT_EQ(written.at("reresolution").at(0).dump(),
            R"({"address":"198.19.0.1","host":"right[0]","lost_frames":3,"reresolved_ms":null})");
  EXPECT_EQ(rfc2889_result_from_json(written), silent);
}

TEST(Rfc2889Report, AValueOfTheWrongTypeIsRefusedWhereItIs) {
  const auto refusal = [](const char* text) {
    try {
      rfc2889_report_from_json(json::parse(text));
    } catch (const json::exception& e) {
      return std::string(e.what());
    }
    return std::string("read");
  };
  EXPECT_NE(refusal(R"({"results": [{"test": 7}]})").find("results[0].test"), std::string::npos);
  EXPECT_NE(refusal(R"({"results": [{"test": "x", "points": 3}]})").find("results[0].points"), std::string::npos);
  EXPECT_NE(refusal(R"({"results": [{"test": "x", "trials": [{"passed": 3}]}]})").find("results[0].trials"),
            std::string::npos);
  // The neighbour tests' fields, each at its path.
  EXPECT_EQ(refusal(R"({"results": [{"test": "neighbor_reresolution", "reresolution": [{"host": "right[0]"},
                                                          {"host": "right[1]", "reresolved_ms": "soon"}]}]})"),
            "[json.exception.other_error.501] results[0].reresolution[1].reresolved_ms: type must be number, but is "
            "string");
  EXPECT_EQ(refusal(R"({"results": [{}, {"test": "neighbor_caching", "hosts": "53"}]})"),
            "[json.exception.other_error.501] results[1].hosts: type must be number, but is string");
  EXPECT_EQ(refusal(R"({"results": [{"test": "neighbor_caching", "hosts": -1}]})"),
            "[json.exception.other_error.501] results[0].hosts: number -1 is not a whole number from 0 to "
            "18446744073709551615");
  EXPECT_EQ(refusal(R"({"results": [{"test": "neighbor_reresolution", "reresolution": {"host": "right[0]"}}]})"),
            "[json.exception.other_error.501] results[0].reresolution: type must be array, but is object");
  EXPECT_EQ(refusal(R"({"results": [{"test": "neighbor_reresolution", "sender_device": 1}]})"),
            "[json.exception.other_error.501] results[0].sender_device: type must be string, but is number");
  // A report without results, or not an object, has none.
  EXPECT_TRUE(rfc2889_report_from_json(json::parse(R"({"schema": "linerate.rfc2889/1"})")).results.empty());
  EXPECT_TRUE(rfc2889_report_from_json(json::array()).results.empty());
}

}  // namespace
}  // namespace lr::bench::rfc2889
