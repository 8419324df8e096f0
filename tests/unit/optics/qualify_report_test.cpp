// A qualified port as report.json holds it, read back by the views: the verdicts, the
// criteria with their measured numbers, and every sample's counters (as changes since the
// first sample) and monitors.
#include "control/suites/optics/qualify_report.hpp"

#include <gtest/gtest.h>

namespace lr::optics {
namespace {

using nlohmann::json;

TEST(QualifyReport, APortReadsBackAsItWasWritten) {
  PortEvidence e;
  e.port = "m0";
  e.module_error = "module EEPROM read is not supported";
  QualifySample first;
  first.t_s = 0;
  first.counters = {{"rx_packets", 1000}, {"fec_corrected_bits", 7}};
  first.monitors.push_back({"rx_power[1]", "mW", 0.6, 0, 0, 0, 0});
  QualifySample second = first;
  second.t_s = 1.5;
  second.counters = {{"rx_packets", 4001000}, {"fec_corrected_bits", 107}};
  second.monitors[0].value = 0.58;
  e.samples = {first, second};
  PortVerdict v;
  v.verdict = Verdict::kIncomplete;
  v.unmeasured = {"module"};
  v.criteria.push_back({"module", Verdict::kSkipped, "–", "–", "no module read", std::nullopt});
  v.criteria.push_back({"frame_loss", Verdict::kPass, "0 lost of 8575 sent", "0", "by sequence", 0.0});
  v.criteria.push_back({"pre_fec_ber", Verdict::kWarn, "1.2e-9", "< 2.4e-4", "", 1.2e-9});
  const json report{{"ports", {port_result_json(e, v)}}};
  const std::vector<QualifiedPort> ports = qualified_ports_from_json(json::parse(report.dump()));
  ASSERT_EQ(ports.size(), 1u);
  const QualifiedPort& p = ports[0];
  EXPECT_EQ(p.port, "m0");
  EXPECT_EQ(p.verdict, Verdict::kIncomplete);
  EXPECT_EQ(p.unmeasured, std::vector<std::string>{"module"});
  EXPECT_FALSE(p.module);
  EXPECT_EQ(p.module_error, "module EEPROM read is not supported");
  ASSERT_EQ(p.criteria.size(), 3u);
  EXPECT_EQ(p.criteria[0].verdict, Verdict::kSkipped);
  EXPECT_FALSE(p.criteria[0].value);
  ASSERT_NE(p.criterion("pre_fec_ber"), nullptr);
  EXPECT_EQ(p.criterion("pre_fec_ber")->verdict, Verdict::kWarn);
  EXPECT_DOUBLE_EQ(*p.criterion("pre_fec_ber")->value, 1.2e-9);
  EXPECT_EQ(p.criterion("crc_errors"), nullptr);
  ASSERT_EQ(p.samples.size(), 2u);
  EXPECT_DOUBLE_EQ(p.samples[1].t_s, 1.5);
  EXPECT_DOUBLE_EQ(p.samples[1].counters.at("rx_packets"), 4000000);  // since the first sample
  EXPECT_DOUBLE_EQ(p.samples[1].counters.at("fec_corrected_bits"), 100);
  ASSERT_EQ(p.samples[1].monitors.size(), 1u);
  EXPECT_EQ(p.samples[1].monitors[0].name, "rx_power[1]");
  EXPECT_DOUBLE_EQ(p.samples[1].monitors[0].value, 0.58);
  EXPECT_EQ(verdict_from_name("FAIL"), Verdict::kFail);
  EXPECT_EQ(verdict_from_name("no such verdict"), Verdict::kIncomplete);  // never a pass
  EXPECT_THROW(qualified_ports_from_json(json::parse(R"({"ports": [{"criteria": [{"value": "high"}]}]})")), json::exception);
}

}  // namespace
}  // namespace lr::optics
