// RFC 2889's views from report.json alone, read through its codec: the answer per result,
// the CSV rows, and a report whose fields are missing (nothing) or of another type (refused).
#include "control/views/rfc2889_views.hpp"

#include <gtest/gtest.h>

#include "tests/support/report_corpus.hpp"

namespace lr::ctl {
namespace {

using nlohmann::json;

json corpus_report() { return test::report_corpus("rfc2889.json"); }

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

  bench::rfc2889::Result skipped;
  skipped.test = "forward_pressure";
  skipped.verdict = "SKIPPED";
  skipped.why = "no short gap";
  EXPECT_EQ(rfc2889_answer(skipped), "SKIPPED: no short gap");
  bench::rfc2889::Result meshed;
  meshed.test = "fully_meshed";
  meshed.points = std::vector<bench::rfc2889::MeshedPoint>{};
  meshed.throughput_percent = 75.5;
  meshed.forwarding_rate_at_max_load_fps = 2e6;
  meshed.max_load_percent = 100;
  EXPECT_EQ(rfc2889_answer(meshed), "throughput 75.5 %; forwarding rate at 100 %: 2 Mfps");
}

// The views read the report through its codec: what is missing reads as nothing, a value
// of the wrong type is refused (nlohmann::json::exception, which `linerate report` says).
TEST(Rfc2889Views, MissingFieldsReadAsNothingAndWrongTypesAreRefused) {
  const json sparse = json::parse(R"({"schema": "linerate.rfc2889/1", "results": [{},
    {"test": "fully_meshed", "points": [{"load_percent": 10}, {"load_percent": 20, "invalid": "x"}]},
    {"test": "address_caching", "trials": [{}]}, {"test": "broadcast", "ports": [{}], "forwarding_rate_fps": 1},
    {"test": "congestion_control", "uncongested": {}}]})");
  EXPECT_NO_THROW(rfc2889_text(sparse));
  EXPECT_NO_THROW(rfc2889_csv(sparse));
  EXPECT_NO_THROW(rfc2889_html(sparse));
  EXPECT_NO_THROW(rfc2889_html(json::array()));
  EXPECT_NO_THROW(rfc2889_csv(json("text")));
  const json odd = json::parse(R"({"results": [{"test": "fully_meshed", "points": [{"load_percent": "a"}]}]})");
  EXPECT_THROW(rfc2889_csv(odd), json::exception);
  EXPECT_THROW(rfc2889_html(odd), json::exception);
}

}  // namespace
}  // namespace lr::ctl
