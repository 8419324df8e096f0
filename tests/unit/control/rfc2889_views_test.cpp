// RFC 2889's views from report.json alone: the answer per result, the CSV rows, and a
// report whose fields are missing or of another type read as nothing, never a crash.
#include "control/views/rfc2889_views.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace lr::ctl {
namespace {

using nlohmann::json;

json corpus_report() {
  std::ifstream file(std::string(LR_SOURCE_ROOT) + "/tests/fuzz/corpus/report_views/rfc2889.json");
  std::stringstream text;
  text << file.rdbuf();
  return json::parse(text.str());
}

TEST(Rfc2889Views, AnswersRowsAndPage) {
  const json report = corpus_report();
  const std::string csv = rfc2889_csv(report);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "test,section,frame_size,verdict,load_percent,offered_fps,forwarded_fps,loss_percent,wrong_port_frames,answer");
  EXPECT_NE(csv.find("address_caching,5.7,,measured,,,,,,\"999 addresses (999 addresses learned without flooding, 1000 "
                     "flooded (with the test port's station, the table held 1000))\""),
            std::string::npos);
  EXPECT_NE(csv.find("fully_meshed,5.1,512,measured,100,9360400,9360400,0,0,"), std::string::npos);
  const std::string text = rfc2889_text(report);
  EXPECT_NE(text.find("errored_frames                   5.9       - PASS      oversize: all 1000 oversize frames "
                      "filtered"),
            std::string::npos);
  EXPECT_NE(rfc2889_html(report).find("<h2>address_learning</h2>"), std::string::npos);

  json skipped{{"test", "forward_pressure"}, {"verdict", "SKIPPED"}, {"why", "no short gap"}};
  EXPECT_EQ(rfc2889_answer(skipped), "SKIPPED: no short gap");
  json meshed{{"test", "fully_meshed"}, {"verdict", "measured"}, {"points", json::array()}, {"throughput_percent", 75.5},
              {"forwarding_rate_at_max_load_fps", 2e6}, {"max_load_percent", 100}};
  EXPECT_EQ(rfc2889_answer(meshed), "throughput 75.5 %; forwarding rate at 100 %: 2 Mfps");
}

TEST(Rfc2889Views, FieldsOfAnotherTypeReadAsNothing) {
  const json odd = json::parse(R"({"schema": "linerate.rfc2889/1", "results": [5, "x", null,
    {"test": 7, "points": 3, "trials": "x"},
    {"test": "fully_meshed", "points": [1, {"invalid": 2}, {"load_percent": "a", "local": 4}], "throughput_search": {}},
    {"test": "address_caching", "addresses": "many", "at_least": "yes", "trials": [null, {"passed": 3}]},
    {"test": "broadcast", "ports": [7, {"port": 1}], "latency": 3, "forwarding_rate_fps": 1},
    {"test": "congestion_control", "uncongested": {"stream": 1}, "congested": 5}]})");
  EXPECT_NO_THROW(rfc2889_text(odd));
  EXPECT_NO_THROW(rfc2889_csv(odd));
  EXPECT_NO_THROW(rfc2889_html(odd));
  EXPECT_NO_THROW(rfc2889_html(json::array()));
  EXPECT_NO_THROW(rfc2889_csv(json("text")));
}

}  // namespace
}  // namespace lr::ctl
