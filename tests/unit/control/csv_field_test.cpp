// A report's values as CSV fields: integers as written, other numbers without the last bits
// of a double's arithmetic, strings quoted when RFC 4180 asks.
#include "control/views/bench_csv.hpp"

#include <gtest/gtest.h>

namespace lr::ctl {
namespace {

using nlohmann::json;

TEST(CsvField, NumbersToTheirMeasurementNotTheirLastBits) {
  EXPECT_EQ(csv_field(json(23.729999999999585)), "23.73");
  EXPECT_EQ(csv_field(json(100.00427642832706)), "100.004276");
  EXPECT_EQ(csv_field(json(3750000.0)), "3750000");
  EXPECT_EQ(csv_field(json(1e-12)), "1e-12");
  EXPECT_EQ(csv_field(json(18446744073709551615ULL)), "18446744073709551615");
  EXPECT_EQ(csv_field(json(-3)), "-3");
  EXPECT_EQ(csv_field(json("a, \"b\"")), "\"a, \"\"b\"\"\"");
  EXPECT_EQ(csv_field(json(nullptr)), "");
  EXPECT_EQ(csv_field(json(true)), "true");
}

}  // namespace
}  // namespace lr::ctl
