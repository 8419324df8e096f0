// The lossless plan's report read back: each case's outcome with its checks and what the
// device's counters should show, every run with its data plane report (timelines
// included) and why the host spoiled it.
#include "control/suites/bench/lossless_report.hpp"

#include <gtest/gtest.h>

namespace lr::bench {
namespace {

using nlohmann::json;

TEST(LosslessReport, CasesAndRunsReadBackAsTheyWereWritten) {
  CaseOutcome pause = judge("pfc_pause", {exactly("test: frames lost", 0, 0, "frames"),
                                          at_most("test: last frame after the storm's first PFC frame", 4.8, 500, "us")},
                            "priority 3 held");
  CaseOutcome ecn = judge("ecn", {at_least("CE marks", 3, 10, "frames")}, "marks followed the curve");
  ecn.checks.push_back({"CE marks at 100 kB", 0, "frames", "(reported)", true, "a device that never marks passes it too"});
  json pause_json = to_json(pause);
  pause_json["compare_with_dut"] = {"'test': 24307 frames sent to the device"};
  json report{{"cases", {pause_json, to_json(ecn)}},
              {"trials",
               {{{"case", "pfc_pause"}, {"label", ""}, {"invalid_reason", "the switch was held up 2603 us"}, {"report", json::object()}},
                {{"case", "pfc_pause"},
                 {"label", ""},
                 {"invalid_reason", ""},
                 {"report",
                  {{"streams",
                    {{{"name", "test"}, {"tx_port", "sender-a"}, {"rx_port", "receiver"}, {"target_pps", 239463.6},
                      {"timeline", {{"bin_s", 0.0003}, {"tx", {5, 5}}, {"rx", {4, 6}}}}},
                     {{"name", "storm"}, {"tx_port", "receiver"}, {"rx_port", nullptr},
                      {"timeline", {{"bin_s", 0.0003}, {"tx", {0, 1}}, {"rx", json::array()}}}}}}}}}}}};
  const LosslessReport r = lossless_report_from_json(json::parse(report.dump()));
  ASSERT_EQ(r.cases.size(), 2u);
  EXPECT_EQ(r.cases[0].outcome.name, "pfc_pause");
  EXPECT_EQ(r.cases[0].outcome.verdict, CaseVerdict::kPass);
  EXPECT_EQ(r.cases[0].outcome.checks.size(), 2u);
  EXPECT_EQ(r.cases[0].outcome.checks[1].bound, "<= 500 us");
  EXPECT_DOUBLE_EQ(r.cases[0].outcome.checks[1].value, 4.8);
  EXPECT_EQ(r.cases[0].compare_with_dut, std::vector<std::string>{"'test': 24307 frames sent to the device"});
  EXPECT_EQ(r.cases[1].outcome.verdict, CaseVerdict::kFail);
  EXPECT_EQ(r.cases[1].outcome.checks[1].not_judged, "a device that never marks passes it too");
  EXPECT_EQ(to_json(r.cases[1].outcome), to_json(ecn));
  ASSERT_EQ(r.runs.size(), 2u);
  EXPECT_FALSE(r.runs[0].valid());
  const LosslessRun* first = r.first_valid_run("pfc_pause");
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first, &r.runs[1]);
  ASSERT_EQ(first->report.streams.size(), 2u);
  EXPECT_EQ(first->report.streams[0].timeline->rx, (std::vector<uint64_t>{4, 6}));
  EXPECT_FALSE(first->report.streams[1].rx_port);
  EXPECT_EQ(r.first_valid_run("ecn"), nullptr);
  EXPECT_FALSE(r.own_switch());
}

}  // namespace
}  // namespace lr::bench
