// `linerate optics history`'s views over hand-written history lines: the table's rows (a
// module swap, a reading that did not arrive), the chart's script (thresholds drawn, a
// swap marked), and the drift since qualification with its exact changes.

#include "control/views/optics_history_views.hpp"

#include <gtest/gtest.h>

namespace lr::ctl {
namespace {

using nlohmann::json;

json monitor(const char* quantity, int lane, double value, const char* unit) {
  json m{{"quantity", quantity}, {"value", value}, {"unit", unit}, {"alarm_flag", false}, {"warning_flag", false}};
  if (lane != 0) m["lane"] = lane;
  return m;
}

// A reading at `t` (Unix seconds) of a module `serial` with RX power `rx_mw` on lanes 1-2.
json line(double t, const std::string& serial, double rx_mw, double bias_ma = 7.5) {
  return {
      {"port", "eth9"},
      {"current", true},
      {"time", t},
      {"link", {{"up", true}, {"flaps", 0}}},
      {"module",
       {{"type", "QSFP28"},
        {"vendor", "ACME OPTICS"},
        {"part", "QSFP28-SR4"},
        {"serial", serial},
        {"monitors",
         {monitor("temperature", 0, 40.25, "C"), monitor("bias", 1, bias_ma, "mA"), monitor("bias", 2, bias_ma, "mA"),
          monitor("rx_power", 1, rx_mw, "mW"), monitor("rx_power", 2, 1.0, "mW")}},
        {"thresholds", {{"rx_power", {{"unit", "mW"}, {"low_warning", 0.1}, {"low_alarm", 0.05}}}}}}},
      {"fec", {{"corrected_per_second", 12.5}, {"uncorrectable_codewords", 0}, {"pre_fec_ber", 2.5e-9}}}};
}

TEST(OpticsHistoryTable, RowsWithLanesAModuleSwapAndAReadingThatDidNotArrive) {
  const std::vector<json> lines{
      line(1796601600, "QSN42", 1.0),
      {{"port", "eth9"}, {"current", false}, {"time", 1796601610}, {"missed", "read not finished within 5 s"}},
      line(1796601620, "QSN77", 0.5)};
  const std::string table = history_table(lines, 0);
  EXPECT_NE(table.find("2026-12-07 00:00:00  module ACME OPTICS QSFP28-SR4 QSFP28 (serial QSN42)\n"), std::string::npos)
      << table;
  EXPECT_NE(table.find("2026-12-07 00:00:00  up        0    40.2  7.50/7.50                -                        "
                       "0.00/0.00                          12.5         0   2.50e-09\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("2026-12-07 00:00:10  not read: read not finished within 5 s\n"), std::string::npos) << table;
  EXPECT_NE(table.find("2026-12-07 00:00:20  module now ACME OPTICS QSFP28-SR4 QSFP28 (serial QSN77)\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("-3.01/0.00"), std::string::npos) << table;  // 0.5 mW
  // The last row only: the header, and the swap still said since it is that row's.
  const std::string last = history_table(lines, 1);
  EXPECT_EQ(std::count(last.begin(), last.end(), '\n'), 3);
}

TEST(OpticsHistoryChart, RxPowerPerLaneWithTheModulesThresholdsAndTheSwapMarked) {
  const std::string script = history_chart_script({line(100, "QSN42", 1.0), line(110, "QSN77", 0.5)}, "eth9");
  EXPECT_NE(script.find("$rx1 << EOD\n100 0\n110 -3.010299956639812\nEOD\n"), std::string::npos) << script;
  EXPECT_NE(script.find("-10 with lines dt 3 lw 2 title 'low_warning'"), std::string::npos) << script;
  EXPECT_NE(script.find("-13.010299956639813 with lines dt 3 lw 2 title 'low_alarm'"), std::string::npos) << script;
  EXPECT_NE(script.find("set arrow from 110,graph 0 to 110,graph 1"), std::string::npos) << script;
  EXPECT_NE(script.find("$fec << EOD\n100 12.5\n110 12.5\nEOD\n"), std::string::npos) << script;
  EXPECT_EQ(history_chart_script({{{"port", "veth0"}, {"current", true}, {"time", 1}, {"module", nullptr}}}, "veth0"),
            "");
}

json qualification_report() {
  return {{"started_at", "2026-11-30T09:00:00Z"},
          {"ports",
           {{{"port", "a"},
             {"verdict", "PASS"},
             {"module", {{"vendor", "ACME OPTICS"}, {"part", "QSFP28-SR4"}, {"serial", "QSN42"}}},
             {"criteria", {{{"name", "pre_fec_ber"}, {"verdict", "PASS"}, {"measured", "1.0e-09"}}}},
             {"samples",
              {{{"t_s", 60},
                {"link_up", true},
                {"counters", json::object()},
                {"monitors",
                 {{{"name", "temperature"}, {"unit", "C"}, {"value", 35.25}},
                  {{"name", "bias[1]"}, {"unit", "mA"}, {"value", 7.5}},
                  {{"name", "rx_power[1]"}, {"unit", "mW"}, {"value", 1.0}}}}}}}}}}};
}

TEST(OpticsDriftSinceQualified, EachMonitorThenAndNowWithItsChange) {
  std::string error;
  const std::string text = drift_since_qualified({line(1796601600, "QSN42", 0.5, 8.25)}, qualification_report(), error);
  ASSERT_EQ(error, "");
  EXPECT_NE(text.find("module ACME OPTICS QSFP28-SR4 QSFP28 (serial QSN42) qualified 2026-11-30T09:00:00Z on a (PASS)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("temperature C          35.250       40.250         +5 C\n"), std::string::npos) << text;
  EXPECT_NE(text.find("bias[1] mA              7.500        8.250      +10.0 %\n"), std::string::npos) << text;
  EXPECT_NE(text.find("rx_power[1] dBm         0.000       -3.010     -3.01 dB\n"), std::string::npos) << text;
  EXPECT_NE(text.find("pre-FEC BER           1.0e-09     2.50e-09\n"), std::string::npos) << text;
}

TEST(OpticsDriftSinceQualified, AnotherModuleIsRefusedSayingWhichSerial) {
  std::string error;
  EXPECT_EQ(drift_since_qualified({line(1, "QSN77", 0.5)}, qualification_report(), error), "");
  EXPECT_EQ(error, "the report has no qualified port with the module of serial QSN77");
  EXPECT_EQ(drift_since_qualified({}, qualification_report(), error), "");
  EXPECT_EQ(error, "the history has no module to compare");
}

}  // namespace
}  // namespace lr::ctl
