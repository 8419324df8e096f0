// [report]: the device under test, notes and operator a suite's report names; the data
// plane ignores the section, and a key it does not have is refused at its line with the
// nearest name.
#include "control/reports/report_section.hpp"

#include <gtest/gtest.h>

#include <string>

#include "lib/profile/load_toml.hpp"

namespace lr::report {
namespace {

constexpr const char* kPort = "[[port]]\nname = \"p0\"\ndevice = \"net_ring0\"\n";

ReportSection read(const std::string& text) {
  return read_report_section(profile::load_profile_text(text, "lab.toml"), text);
}

TEST(ReportSection, NamesTheDeviceTheNotesAndTheOperator) {
  const ReportSection none = read(kPort);
  EXPECT_EQ(none.dut, "");
  EXPECT_EQ(none.operator_name, "");
  const ReportSection set =
      read(std::string(kPort) + "[report]\ndut = \"leaf-3 Et1/2\"\nnotes = \"EOS 4.31\"\noperator = \"J. Tester\"\n");
  EXPECT_EQ(set.dut, "leaf-3 Et1/2");
  EXPECT_EQ(set.notes, "EOS 4.31");
  EXPECT_EQ(set.operator_name, "J. Tester");
}

TEST(ReportSection, AKeyItDoesNotHaveIsRefusedAtItsLine) {
  const std::string text = std::string(kPort) + "[report]\ndutt = \"leaf-3\"\n";
  try {
    read(text);
    FAIL() << "accepted";
  } catch (const profile::ConfigError& error) {
    EXPECT_EQ(std::string(error.what()).substr(0, 41), "lab.toml:5:1: key 'report.dutt': unknown ") << error.what();
    EXPECT_NE(std::string(error.what()).find("did you mean 'dut'"), std::string::npos) << error.what();
  }
  try {
    read(std::string(kPort) + "[report]\ndut = 3\n");
    FAIL() << "accepted";
  } catch (const profile::ConfigError& error) {
    EXPECT_EQ(std::string(error.what()), "lab.toml:5:7: key 'report.dut': expected a string, found an integer");
  }
}

}  // namespace
}  // namespace lr::report
