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

using bench::rfc2889::AddressTrialRow;
using bench::rfc2889::HostReresolution;
using bench::rfc2889::Result;

// neighbor_caching as the suite writes it: a search over 80 hosts that found 41.
Result neighbor_caching() {
  Result r;
  r.test = "neighbor_caching";
  r.section = "-";
  r.sender_device = "left";
  r.hosts_device = "right";
  r.host_rate_fps = 2000;
  r.trials = std::vector<AddressTrialRow>{{80, 2000, std::nullopt, 0, 39, 2, false},
                                          {41, 2000, std::nullopt, 0, 0, 0, true},
                                          {42, 2000, "interrupted", 0, 0, 0, false}};
  r.hosts = 41;
  r.why = "41 hosts forwarded to without loss, not 42";
  return r;
}

// neighbor_reresolution as the suite writes it: two hosts back, one never.
Result neighbor_reresolution() {
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
  r.why = "2 of 3 hosts forwarded to again 12.5 to 14.2 ms (median 13.4) after the link came up";
  return r;
}

// The answer of neighbor_caching: the hosts found, a lower bound said as one, none as why.
TEST(Rfc2889Views, NeighborCachingAnswers) {
  const Result found = neighbor_caching();
  EXPECT_EQ(rfc2889_answer(found), "41 hosts (41 hosts forwarded to without loss, not 42)");
  Result capped = neighbor_caching();
  capped.hosts = 60;
  capped.at_least = true;
  capped.why = "every one of the 60 hosts was forwarded to without loss: the table holds at least that";
  EXPECT_EQ(
      rfc2889_answer(capped),
      "at least 60 hosts (every one of the 60 hosts was forwarded to without loss: the table holds at least that)");
  Result none = neighbor_caching();
  none.hosts.reset();
  none.why = "frames were lost already with min_hosts (1)";
  EXPECT_EQ(rfc2889_answer(none), "frames were lost already with min_hosts (1)");
  Result cut = neighbor_caching();
  cut.hosts.reset();
  cut.hosts_at_least = 40;
  cut.verdict = "SKIPPED";
  cut.why = "the search stopped at a trial the host spoiled three times (x); at least 40 hosts were forwarded to";
  EXPECT_EQ(rfc2889_answer(cut),
            "SKIPPED: the search stopped at a trial the host spoiled three times (x); at least 40 "
            "hosts were forwarded to");
  // Another test's count is not neighbor_caching's answer.
  Result other = neighbor_caching();
  other.test = "address_caching";
  other.addresses.reset();
  EXPECT_EQ(rfc2889_answer(other), "41 hosts forwarded to without loss, not 42");
  EXPECT_EQ(rfc2889_answer(neighbor_reresolution()), neighbor_reresolution().why);
}

// The page: each neighbour test's answer and its table (headers, a row's cells; a number
// that is not there shown as the page shows any: "–"); the text and CSV lines.
TEST(Rfc2889Views, NeighborTestsOnThePage) {
  const json report = {
      {"schema", "linerate.rfc2889/1"},
      {"results", {bench::rfc2889::to_json(neighbor_caching()), bench::rfc2889::to_json(neighbor_reresolution())}}};
  const std::string html = rfc2889_html(report);
  EXPECT_NE(html.find("<h2>neighbor_caching</h2>\n<p>41 hosts (41 hosts forwarded to without loss, not 42)</p>\n"
                      "<table><tr><th class=\"num\">hosts</th><th class=\"num\">frames/s</th>"
                      "<th class=\"num\">lost resolving</th><th class=\"num\">lost</th><th>result</th></tr>\n"
                      "<tr><td class=\"num\">80</td><td class=\"num\">2000</td><td class=\"num\">2</td>"
                      "<td class=\"num\">39</td><td>lost</td></tr>\n"
                      "<tr><td class=\"num\">41</td><td class=\"num\">2000</td><td class=\"num\">0</td>"
                      "<td class=\"num\">0</td><td>forwarded</td></tr>\n"
                      "<tr><td class=\"num\">42</td><td class=\"num\">2000</td><td class=\"num\">–</td>"
                      "<td class=\"num\">–</td><td>invalid: interrupted</td></tr>\n</table>\n"),
            std::string::npos)
      << html;
  // An address is text (one decimal point makes a number, three an address).
  EXPECT_NE(html.find("<h2>neighbor_reresolution</h2>\n<p>2 of 3 hosts forwarded to again 12.5 to 14.2 ms (median "
                      "13.4) after the link came up</p>\n"
                      "<table><tr><th>host</th><th>address</th>"
                      "<th class=\"num\">forwarded again after (ms)</th><th class=\"num\">lost</th></tr>\n"
                      "<tr><td>right[0]</td><td>198.19.0.1</td><td class=\"num\">12.5</td>"
                      "<td class=\"num\">3</td></tr>\n"
                      "<tr><td>right[1]</td><td>198.19.0.2</td><td class=\"num\">–</td>"
                      "<td class=\"num\">41</td></tr>\n"
                      "<tr><td>right[2]</td><td>198.19.0.3</td><td class=\"num\">14.25</td>"
                      "<td class=\"num\">4</td></tr>\n</table>\n"),
            std::string::npos)
      << html;
  // The summary's row of each: no frame size, the verdict, the answer.
  EXPECT_NE(html.find("<tr><td>neighbor_caching</td><td>-</td><td>–</td><td>measured</td>"
                      "<td>41 hosts (41 hosts forwarded to without loss, not 42)</td></tr>"),
            std::string::npos)
      << html;

  const std::string text = rfc2889_text(report);
  EXPECT_NE(text.find("\nneighbor_caching                   -       - measured  41 hosts (41 hosts forwarded to "
                      "without loss, not 42)\n"),
            std::string::npos)
      << text;
  const std::string csv = rfc2889_csv(report);
  EXPECT_NE(csv.find("\nneighbor_caching,-,,measured,,,,,,\"41 hosts (41 hosts forwarded to without loss, not 42)\"\n"),
            std::string::npos)
      << csv;
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
