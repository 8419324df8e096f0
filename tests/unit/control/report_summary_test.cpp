// The first screen of a suite's page: the hand-over (device under test, tester, ports
// with driver and speed, operator) travels through report.json and is on the page; the
// tables align numbers right and text left and leave out the columns of tests not run.
#include <gtest/gtest.h>

#include "control/reports/hand_over.hpp"
#include "control/views/bench_csv.hpp"
#include "control/views/bench_html.hpp"
#include "control/views/html_page.hpp"
#include "control/views/summary_html.hpp"

namespace lr {
namespace {

using nlohmann::json;

report::HandOver bridge_hand_over() {
  report::HandOver h;
  h.dut = "leaf-3 <Et1/2>";
  h.notes = "EOS 4.31";
  h.linerate_version = "9.8.7";
  h.host = "lab-7";
  h.operator_name = "J. Tester";
  h.ports.push_back({"a", "net_af_packet0,iface=lra", "net_af_packet", 100'000'000, true, 10'000'000'000, true});
  h.ports.push_back({"b", "0000:3b:00.1", "mlx5_pci", 40'000'000'000, false, 40'000'000'000, false});
  return h;
}

TEST(HandOver, TravelsThroughTheReportUnchanged) {
  json report{{"suite", "rfc2544"}};
  report::write_hand_over(report, bridge_hand_over());
  EXPECT_EQ(report["tester"]["ports"][1]["speed_bps"], 40'000'000'000ULL);
  EXPECT_EQ(report["dut"]["name"], "leaf-3 <Et1/2>");
  const std::optional<report::HandOver> back = report::read_hand_over(json::parse(report.dump()));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->dut, "leaf-3 <Et1/2>");
  EXPECT_EQ(back->notes, "EOS 4.31");
  EXPECT_EQ(back->operator_name, "J. Tester");
  ASSERT_EQ(back->ports.size(), 2u);
  EXPECT_EQ(back->ports[0].speed_bps, 100'000'000u);
  EXPECT_TRUE(back->ports[0].speed_from_profile);
  EXPECT_EQ(back->ports[1].driver, "mlx5_pci");
  EXPECT_FALSE(back->ports[1].link_up);
  EXPECT_FALSE(report::read_hand_over(json{{"suite", "rfc2544"}}));  // a report from before
  EXPECT_FALSE(report::read_hand_over(json{{"tester", 3}}));
}

TEST(HandOver, OperatorIsTheProfilesElseWhoRanIt) {
  const std::vector<api::PortReport> ports(1);
  EXPECT_EQ(report::hand_over({"dut", "", "Ops"}, ports).operator_name, "Ops");
  EXPECT_FALSE(report::hand_over({"dut", "", ""}, ports).operator_name.empty());
  EXPECT_EQ(report::hand_over({}, ports).linerate_version, LR_VERSION);
}

TEST(Summary, NamesTheDeviceTheTesterItsPortSpeedsAndWhen) {
  json report{{"profile", "lab.toml"}, {"started_at", "2026-12-03T23:59:30Z"}, {"finished_at", "2026-12-04T00:01:05Z"}};
  report::write_hand_over(report, bridge_hand_over());
  const std::string page = ctl::html::summary(report, "RFC 2544 report", "<table id=\"headline\"></table>");
  EXPECT_NE(page.find("<h1>linerate RFC 2544 report: leaf-3 &lt;Et1/2&gt;</h1>"), std::string::npos) << page;
  EXPECT_NE(page.find("<table id=\"headline\"></table>"), std::string::npos);
  EXPECT_NE(page.find("linerate 9.8.7 on lab-7"), std::string::npos);
  EXPECT_NE(page.find("rates refer to 100 Mbit/s (the profile's speed; the link says 10 Gbit/s)"), std::string::npos);
  EXPECT_NE(page.find("rates refer to 40 Gbit/s (the link's speed), link down at the start"), std::string::npos);
  EXPECT_NE(page.find("J. Tester"), std::string::npos);
  EXPECT_NE(page.find("2026-12-03 23:59:30 to 2026-12-04 00:01:05 UTC (1 min 35 s)"), std::string::npos) << page;
  EXPECT_EQ(page.find("Interrupted"), std::string::npos);

  report["dut"]["name"] = nullptr;
  report["interrupted"] = true;
  const std::string unnamed = ctl::html::summary(report, "RFC 2544 report", "");
  EXPECT_NE(unnamed.find("<h1>linerate RFC 2544 report</h1>"), std::string::npos);
  EXPECT_NE(unnamed.find("not named"), std::string::npos);
  EXPECT_NE(unnamed.find("Interrupted"), std::string::npos);
}

TEST(Summary, SettingsCarryUnitsNotRawJson) {
  const std::string page = ctl::html::settings(json{{"settings",
      {{"rest_s", 0.02}, {"headroom_bytes", 3750000}, {"watchdog", {{"detect_s", 0.15}}}, {"tests", {"throughput"}}}}});
  EXPECT_NE(page.find("<td>rest</td><td>20 ms</td>"), std::string::npos) << page;
  EXPECT_NE(page.find("<td>headroom</td><td>3.75 MB</td>"), std::string::npos);
  EXPECT_NE(page.find("<td>watchdog</td><td>detect 150 ms</td>"), std::string::npos);
  EXPECT_NE(page.find("<td>tests</td><td>throughput</td>"), std::string::npos);
  EXPECT_EQ(page.find('{'), std::string::npos);
  EXPECT_EQ(page.find('['), std::string::npos);
}

TEST(HtmlTable, NumbersRightTextLeft) {
  const std::string t = ctl::html::table({"size", "rate", "limited by", "bound"},
                                         {{"64", "3.75 MB", "device", "&lt;= 500 us"}, {"128", "–", "line rate", "= 0 frames"}});
  EXPECT_NE(t.find("<th class=\"num\">size</th><th class=\"num\">rate</th><th>limited by</th><th>bound</th>"),
            std::string::npos) << t;
  EXPECT_NE(t.find("<td class=\"num\">64</td><td class=\"num\">3.75 MB</td><td>device</td><td>&lt;= 500 us</td>"),
            std::string::npos) << t;
  EXPECT_NE(t.find("<td class=\"num\">–</td><td>line rate</td><td>= 0 frames</td>"), std::string::npos) << t;
}

TEST(HtmlTable, ColumnsOfTestsNotRunAreLeftOut) {
  std::vector<std::string> header{"size", "throughput", "back-to-back"};
  std::vector<std::vector<std::string>> rows{{"64", "26.9", "–"}, {"128", "47.4", ""}};
  ctl::html::drop_empty_columns(header, rows);
  EXPECT_EQ(header, (std::vector<std::string>{"size", "throughput"}));
  EXPECT_EQ(rows, (std::vector<std::vector<std::string>>{{"64", "26.9"}, {"128", "47.4"}}));
}

TEST(BenchPage, ABackToBackSearchWithoutABurstHasANoteNotABrokenChart) {
  // Every trial the host spoiled: the search found no burst, and there is nothing to plot.
  const json report{{"suite", "rfc2544"},
                    {"back_to_back", {{{"frame_size", 64}, {"searches", 2}, {"note", "every trial invalid"}}}}};
  const std::string page = ctl::bench_html(report);
  EXPECT_NE(page.find("No chart: no search found a burst"), std::string::npos);
  EXPECT_EQ(page.find("chart not drawn"), std::string::npos);
  const json with_burst{{"suite", "rfc2544"},
                        {"back_to_back", {{{"frame_size", 64}, {"searches", 2}, {"mean_frames", 100.0}}}}};
  EXPECT_NE(ctl::bench_html(with_burst).find("id=\"chart-back-to-back\""), std::string::npos);
}

// An NDR run by MLRsearch: each goal's bounds and conditional throughput are in the page
// and the CSV, with the note of a goal that found no upper bound.
TEST(BenchPage, MlrsearchGoalsAreShownWithTheirBoundsAndConditionalThroughput) {
  const json report = json::parse(R"({"suite": "ndr", "mlrsearch": [{"frame_size": 128, "goals": [
      {"name": "ndr", "loss_ratio": 0, "exceed_ratio": 0.5, "relevant_lower_bound_percent": 47.25,
       "relevant_upper_bound_percent": 47.5, "conditional_throughput_percent": 47.3125,
       "conditional_throughput_pps": 3997000.0, "tester_limited": false},
      {"name": "pdr", "loss_ratio": 0.02, "exceed_ratio": 0.5, "relevant_lower_bound_percent": 100.0,
       "relevant_upper_bound_percent": null, "conditional_throughput_percent": 100.0, "tester_limited": true,
       "note": "no upper bound below what the tester could offer"}],
      "loads": [], "trials": 0}]})");
  const std::string page = ctl::bench_html(report);
  EXPECT_NE(page.find("<h2>MLRsearch (RFC 9971)</h2>"), std::string::npos);
  for (const char* cell : {"<td>ndr</td>", "47.2500", "47.5000", "47.3125", "3.997000", "<td>pdr</td>", "0.02",
                           "no upper bound below what the tester could offer"})
    EXPECT_NE(page.find(cell), std::string::npos) << cell;
  const std::string csv = ctl::bench_csv(report);
  EXPECT_NE(csv.find("result,mlrsearch ndr,128,47.25,,,,,,,,,47.3125,3997000,,,,,,,,,,"
                     "\"loss ratio 0, exceed ratio 0.5, upper bound 47.5 %\"\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("result,mlrsearch pdr,128,100,,,,,,,,,100,,,,,,,,,,,\"loss ratio 0.02, exceed ratio 0.5, upper "
                     "bound none; no upper bound below what the tester could offer\"\n"),
            std::string::npos)
      << csv;
  // No MLRsearch, no section.
  EXPECT_EQ(ctl::bench_html(json{{"suite", "ndr"}}).find("MLRsearch"), std::string::npos);
}

}  // namespace
}  // namespace lr
