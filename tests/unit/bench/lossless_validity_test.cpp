// The lossless plan's validity: a run linerate's own switch spoiled says how, the link that
// refused its frames named before a port that only lost sending time.

#include <gtest/gtest.h>

#include "control/suites/bench/lossless/validity.hpp"
#include "lib/api/switch_report.hpp"

namespace lr::bench::lossless {
namespace {

api::RunReport with_switch_ports(double a_lost_us, double r_lost_us, uint64_t r_refused) {
  api::SwitchReport sw;
  sw.name = "dut";
  api::SwitchPortReport a, r;
  a.name = "dut-a";
  a.egress_lost_us = a_lost_us;
  r.name = "dut-r";
  r.egress_lost_us = r_lost_us;
  r.tx_refused = r_refused;
  sw.ports = {a, r};
  api::RunReport report;
  report.switches = {sw};
  return report;
}

TEST(LosslessValidity, ALinkThatRefusedTheSwitchsFramesIsNamedBeforeAPortThatLostTime) {
  EXPECT_EQ(invalid_reason(with_switch_ports(300, 812, 64), 0.003, {}, false),
            "linerate's switch 'dut', the device here, lost 812 us of sending on port 'dut-r', whose link refused 64 "
            "frames: the tester's port at its other end was not reading in time (its lcore held up by the host), or "
            "the switch itself was held up: no hardware link refuses, so the run says nothing of the device");
  EXPECT_EQ(invalid_reason(with_switch_ports(300, 812, 0), 0.003, {}, false),
            "linerate's switch 'dut', the device here, was held up by the host long enough that port 'dut-a' lost "
            "300 us of sending: no hardware switch stops, so the run says nothing of the device");
  // Frames refused at first but sent in time: no sending time lost, the run stands.
  EXPECT_EQ(invalid_reason(with_switch_ports(0, 0, 64), 0.003, {}, false), "");
}

}  // namespace
}  // namespace lr::bench::lossless
