// Whether one-way latency between two data planes is measured, the shift that puts the
// sender's stamps on the receiver's clock, and its bound; each refusal's words.
#include "control/client/fleet_clocks.hpp"

#include <gtest/gtest.h>

namespace lr::ctl {
namespace {

using nlohmann::json;

json locked(const std::string& gm, int64_t offset_ns, int64_t latency_clock_offset_ns) {
  return {{"synchronised", true},
          {"why", "following the grandmaster"},
          {"error_ns", offset_ns < 0 ? -offset_ns : offset_ns},
          {"tsc_utc_error_ns", 20},
          {"latency_clock_offset_ns", latency_clock_offset_ns},
          {"ptp", {{"gm_identity", gm}, {"master_offset_ns", offset_ns}}}};
}

TEST(FleetClocks, OneGrandmasterMeasuresWithTheShiftAndTheBound) {
  const LatencyAcross a =
      latency_across(locked("aa.fffe.01", 150, 1'000'000), "h1:7300", locked("aa.fffe.01", -70, 1'085'842), "h2:7300");
  EXPECT_TRUE(a.measured);
  EXPECT_EQ(a.shift_ns, 85'842);           // the receiver's offset minus the sender's
  EXPECT_EQ(a.bound_ns, 150u + 70u + 40u);  // both offsets from the grandmaster, both maps' errors
  EXPECT_EQ(a.why, "both clocks follow PTP grandmaster aa.fffe.01");
}

TEST(FleetClocks, TwoGrandmastersOrAnUnlockedClockWithholdIt) {
  const LatencyAcross two =
      latency_across(locked("aa.fffe.01", 0, 0), "h1:7300", locked("bb.fffe.02", 0, 0), "h2:7300");
  EXPECT_FALSE(two.measured);
  EXPECT_EQ(two.why,
            "one-way latency between data planes needs both clocks on one PTP grandmaster; the data plane "
            "at h1:7300 follows aa.fffe.01, the one at h2:7300 follows bb.fffe.02");
  json unlocked = locked("aa.fffe.01", 0, 0);
  unlocked["synchronised"] = false;
  unlocked["why"] = "ptp4l's port is UNCALIBRATED";
  const LatencyAcross one = latency_across(locked("aa.fffe.01", 0, 0), "h1:7300", unlocked, "h2:7300");
  EXPECT_FALSE(one.measured);
  EXPECT_EQ(one.why,
            "one-way latency between data planes needs both clocks on one PTP grandmaster; the clock of "
            "the data plane at h2:7300 is not vouched for: ptp4l's port is UNCALIBRATED");
  json old = locked("aa.fffe.01", 0, 0);
  old.erase("latency_clock_offset_ns");
  EXPECT_FALSE(latency_across(locked("aa.fffe.01", 0, 0), "h1:7300", old, "h2:7300").measured);
}

TEST(FleetClocks, TheBoundWidensByHowFarTheTwoDriftedApart) {
  // The sender's clock drifted 100 ns from UTC, the receiver's -30: 130 apart, plus the two
  // readings' errors after the run.
  EXPECT_EQ(drift_apart_ns(locked("g", 0, 1000), locked("g", 0, 1100), locked("g", 0, 5000), locked("g", 0, 4970)),
            130u + 40u);
  // Both drifted alike (one TSC, one rate): nothing apart.
  EXPECT_EQ(drift_apart_ns(locked("g", 0, 1000), locked("g", 0, 1500), locked("g", 0, 7000), locked("g", 0, 7500)),
            40u);
}

}  // namespace
}  // namespace lr::ctl
