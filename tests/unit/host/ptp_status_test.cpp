// pmc's output as ptp4l gave it (tests/data/ptp: two ptp4l -S over a veth pair, recorded),
// read and judged: the grandmaster vouches for its own clock, a port not yet locked does
// not, nor a ptp4l that did not answer; a SLAVE port does, to its offset. With hardware
// timestamping (CLOCK_REALTIME then follows the NIC's clock only through phc2sys) only
// when CLOCK_REALTIME was measured against that clock and, on PTP's timescale, the UTC
// offset is valid: each shown both ways.
#include "lib/host/ptp_status.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <optional>
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

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
    text.replace(at, from.size(), to);
  return text;
}

// TIME_PROPERTIES_DATA_SET in ptp4l 3.1.1's layout (recorded from a ptp4l -S grandmaster),
// with the two flags each test needs.
std::string time_properties(int valid, int timescale) {
  return fmt::format(
      "sending: GET TIME_PROPERTIES_DATA_SET\n"
      "\t82a6d5.fffe.900170-0 seq 5 RESPONSE MANAGEMENT TIME_PROPERTIES_DATA_SET \n"
      "\t\tcurrentUtcOffset      37\n\t\tleap61                0\n\t\tleap59                0\n"
      "\t\tcurrentUtcOffsetValid {}\n\t\tptpTimescale          {}\n"
      "\t\ttimeTraceable         1\n\t\tfrequencyTraceable    1\n\t\ttimeSource            0x20\n",
      valid, timescale);
}

// The recorded listening port made SLAVE, on hardware timestamping, with time properties.
std::string hardware_slave(int valid = 1, int timescale = 1) {
  return replaced(replaced(recorded("pmc-slave-uncalibrated.txt"), "UNCALIBRATED", "SLAVE"), "SOFTWARE", "HARDWARE") +
         time_properties(valid, timescale);
}

// CLOCK_REALTIME 120 ns ahead of the PHC's UTC, read within 40 ns.
std::optional<PhcMeasurement> measured(const std::string& interface = "lrptpb") {
  return PhcMeasurement{interface, "/dev/ptp2", 120, 40, ""};
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
}

TEST(PtpStatus, TimePropertiesAndTheInterfaceAreRead) {
  const PtpReading r = parse_pmc_output(hardware_slave(0, 1));
  EXPECT_EQ(r.timestamping, "HARDWARE");
  EXPECT_EQ(r.interface, "lrptpb");
  EXPECT_EQ(r.utc_offset_s, 37);
  EXPECT_FALSE(r.utc_offset_valid);
  EXPECT_EQ(r.ptp_timescale, true);
  const PtpReading v = parse_pmc_output(hardware_slave(1, 0));
  EXPECT_TRUE(v.utc_offset_valid);
  EXPECT_EQ(v.ptp_timescale, false);
  const PtpReading none = parse_pmc_output(recorded("pmc-grandmaster.txt"));
  EXPECT_FALSE(none.utc_offset_s);
  EXPECT_FALSE(none.ptp_timescale);
}

TEST(PtpStatus, HardwareTimestampingVouchesOnlyWhenTheNicsClockWasMeasured) {
  const PtpReading r = parse_pmc_output(hardware_slave());
  const PtpVerdict v = judge_ptp(r, measured());
  EXPECT_TRUE(v.synchronised);
  EXPECT_EQ(v.error_ns, 866u + 120u + 40u);
  EXPECT_EQ(v.why,
            "ptp4l keeps lrptpb's clock (/dev/ptp2) on grandmaster 4e6daf.fffe.dfdbab, last -866 ns off; "
            "CLOCK_REALTIME reads 120 ns from that clock less 37 s (TAI - UTC), measured within 40 ns: "
            "within 866 + 120 + 40 = 1026 ns");
  const PtpVerdict unmeasured = judge_ptp(r);
  EXPECT_FALSE(unmeasured.synchronised);
  EXPECT_EQ(unmeasured.why, "hardware timestamping: CLOCK_REALTIME against the NIC's clock of lrptpb was not measured");
  const PtpVerdict unread = judge_ptp(r, PhcMeasurement{"lrptpb", "", 0, 0, "lrptpb has no PTP hardware clock"});
  EXPECT_FALSE(unread.synchronised);
  EXPECT_EQ(unread.error_ns, 0u);
  EXPECT_EQ(unread.why,
            "hardware timestamping: CLOCK_REALTIME against the NIC's clock of lrptpb could not be read: lrptpb has no "
            "PTP hardware clock");
}

TEST(PtpStatus, ARealtimeClockFarFromTheNicsIsNotFollowingIt) {
  // No phc2sys: CLOCK_REALTIME kept by NTP, 37 s off the NIC's TAI less nothing, or just 2 ms.
  const PtpReading r = parse_pmc_output(hardware_slave());
  const PtpVerdict at_limit = judge_ptp(r, PhcMeasurement{"lrptpb", "/dev/ptp2", -1'000'000, 40, ""});
  EXPECT_TRUE(at_limit.synchronised);
  EXPECT_EQ(at_limit.error_ns, 866u + 1'000'000u + 40u);
  const PtpVerdict far = judge_ptp(r, PhcMeasurement{"lrptpb", "/dev/ptp2", -2'000'000, 40, ""});
  EXPECT_FALSE(far.synchronised);
  EXPECT_EQ(far.error_ns, 0u);
  EXPECT_EQ(far.why,
            "hardware timestamping: CLOCK_REALTIME reads -2000000 ns from lrptpb's clock (/dev/ptp2), more than 1 ms: "
            "it does not follow that clock (is phc2sys running, with -w?)");
}

TEST(PtpStatus, OnPtpTimescaleTheUtcOffsetMustBeValid) {
  const PtpVerdict invalid = judge_ptp(parse_pmc_output(hardware_slave(0, 1)), measured());
  EXPECT_FALSE(invalid.synchronised);
  EXPECT_EQ(invalid.why,
            "hardware timestamping: the grandmaster's time is TAI (ptpTimescale) and its UTC offset (37 s) is not "
            "marked valid (currentUtcOffsetValid 0): CLOCK_REALTIME cannot be compared with the NIC's clock");
  // On an arbitrary timescale the PHC is taken as UTC: no offset to trust.
  const PtpVerdict arbitrary = judge_ptp(parse_pmc_output(hardware_slave(0, 0)), measured());
  EXPECT_TRUE(arbitrary.synchronised);
  EXPECT_EQ(arbitrary.error_ns, 1026u);
  EXPECT_EQ(arbitrary.why,
            "ptp4l keeps lrptpb's clock (/dev/ptp2) on grandmaster 4e6daf.fffe.dfdbab, last -866 ns off; "
            "CLOCK_REALTIME reads 120 ns from that clock, measured within 40 ns: within 866 + 120 + 40 = 1026 ns");
  // No TIME_PROPERTIES_DATA_SET answer: the timescale is unknown.
  std::string unanswered = hardware_slave();
  unanswered.resize(unanswered.find("sending: GET TIME_PROPERTIES_DATA_SET"));
  const PtpVerdict unknown = judge_ptp(parse_pmc_output(unanswered), measured());
  EXPECT_FALSE(unknown.synchronised);
  EXPECT_EQ(unknown.why,
            "hardware timestamping: ptp4l did not say its timescale (TIME_PROPERTIES_DATA_SET): CLOCK_REALTIME "
            "cannot be compared with the NIC's clock");
}

TEST(PtpStatus, AHardwareGrandmasterVouchesThroughItsMeasuredClock) {
  const std::string text = replaced(recorded("pmc-grandmaster.txt"), "SOFTWARE", "HARDWARE") + time_properties(1, 1);
  const PtpVerdict v = judge_ptp(parse_pmc_output(text), measured("lrptpa"));
  EXPECT_TRUE(v.synchronised);
  EXPECT_EQ(v.error_ns, 160u);
  EXPECT_EQ(v.why,
            "this host's clock is the grandmaster 4e6daf.fffe.dfdbab: lrptpa's clock (/dev/ptp2); CLOCK_REALTIME "
            "reads 120 ns from that clock less 37 s (TAI - UTC), measured within 40 ns: within 0 + 120 + 40 = 160 ns");
  EXPECT_FALSE(judge_ptp(parse_pmc_output(text)).synchronised);
  // Not locked: said as with software timestamping, measured or not.
  const PtpVerdict unlocked =
      judge_ptp(parse_pmc_output(replaced(recorded("pmc-slave-uncalibrated.txt"), "SOFTWARE", "HARDWARE") +
                                 time_properties(1, 1)),
                measured());
  EXPECT_FALSE(unlocked.synchronised);
  EXPECT_EQ(unlocked.why, "ptp4l's port is UNCALIBRATED: not locked to a grandmaster (it hears 4e6daf.fffe.dfdbab)");
}

TEST(PtpStatus, NoAnswerIsNoVerdict) {
  const PtpVerdict v = judge_ptp(parse_pmc_output("sending: GET TIME_STATUS_NP\n"));
  EXPECT_FALSE(v.synchronised);
  EXPECT_EQ(v.why, "ptp4l did not answer");
  EXPECT_FALSE(judge_ptp(parse_pmc_output("garbage\n\t\tportState\n\t\t\n")).synchronised);
}

}  // namespace
}  // namespace lr::host
