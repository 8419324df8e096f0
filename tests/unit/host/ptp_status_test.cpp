// pmc's output as ptp4l gave it (tests/data/ptp: two ptp4l -S over a veth pair, recorded),
// read and judged: the grandmaster vouches for its own clock, a port not yet locked does
// not, nor hardware timestamping (CLOCK_REALTIME then follows the NIC's clock only through
// phc2sys), nor a ptp4l that did not answer; a SLAVE port does, to its offset.
#include "lib/host/ptp_status.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace lr::host {
namespace {

std::string recorded(const std::string& name) {
  std::ifstream in(std::string(LR_SOURCE_ROOT) + "/tests/data/ptp/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(PtpStatus, TheGrandmasterVouchesForItsOwnClock) {
  const PtpReading r = parse_pmc_output(recorded("pmc-grandmaster.txt"));
  EXPECT_TRUE(r.answered);
  EXPECT_EQ(r.port_state, "MASTER");
  EXPECT_EQ(r.timestamping, "SOFTWARE");
  EXPECT_EQ(r.clock_identity, "4e6daf.fffe.dfdbab");
  EXPECT_EQ(r.gm_identity, "4e6daf.fffe.dfdbab");
  EXPECT_FALSE(r.gm_present);
  EXPECT_EQ(r.master_offset_ns, 0);
  const PtpVerdict v = judge_ptp(r);
  EXPECT_TRUE(v.synchronised);
  EXPECT_EQ(v.error_ns, 0u);
  EXPECT_EQ(v.why, "this host's clock is the grandmaster 4e6daf.fffe.dfdbab");
}

TEST(PtpStatus, APortNotYetLockedDoesNot) {
  const PtpReading r = parse_pmc_output(recorded("pmc-slave-uncalibrated.txt"));
  EXPECT_EQ(r.port_state, "UNCALIBRATED");
  EXPECT_EQ(r.clock_identity, "82a6d5.fffe.900170");
  EXPECT_TRUE(r.gm_present);
  EXPECT_EQ(r.master_offset_ns, -866);
  const PtpVerdict v = judge_ptp(r);
  EXPECT_FALSE(v.synchronised);
  EXPECT_EQ(v.why, "ptp4l's port is UNCALIBRATED: not locked to a grandmaster (it hears 4e6daf.fffe.dfdbab)");
}

TEST(PtpStatus, ASlavePortVouchesToItsOffset) {
  std::string text = recorded("pmc-slave-uncalibrated.txt");
  for (size_t at; (at = text.find("UNCALIBRATED")) != std::string::npos;) text.replace(at, 12, "SLAVE");
  const PtpVerdict v = judge_ptp(parse_pmc_output(text));
  EXPECT_TRUE(v.synchronised);
  EXPECT_EQ(v.error_ns, 866u);
  EXPECT_EQ(v.why, "ptp4l keeps CLOCK_REALTIME on grandmaster 4e6daf.fffe.dfdbab, last -866 ns off");
  for (size_t at; (at = text.find("SOFTWARE")) != std::string::npos;) text.replace(at, 8, "HARDWARE");
  EXPECT_FALSE(judge_ptp(parse_pmc_output(text)).synchronised);  // phc2sys's part is not read
}

TEST(PtpStatus, NoAnswerIsNoVerdict) {
  const PtpVerdict v = judge_ptp(parse_pmc_output("sending: GET TIME_STATUS_NP\n"));
  EXPECT_FALSE(v.synchronised);
  EXPECT_EQ(v.why, "ptp4l did not answer");
  EXPECT_FALSE(judge_ptp(parse_pmc_output("garbage\n\t\tportState\n\t\t\n")).synchronised);
}

}  // namespace
}  // namespace lr::host
