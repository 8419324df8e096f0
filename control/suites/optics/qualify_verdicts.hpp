#pragma once
// The verdicts of optics qualification, per port, from what was read before the traffic
// (module, link, FEC) and the samples taken during it: each criterion PASS, WARN, FAIL or
// SKIPPED (with the reason: a counter the driver lacks is never a silent pass), with the
// number measured and the bound it was held to. Pure: the tests replay recorded series.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "control/suites/optics/qualify_sample.hpp"
#include "control/suites/optics/qualify_section.hpp"
#include "lib/profile/profile.hpp"

namespace lr::optics {

/// A port is INCOMPLETE, not qualified, when a criterion qualification rests on (the
/// module, the FEC mode asked for, the error counts: uncorrectable blocks, pre-FEC BER and
/// its confidence; frame loss where a stream was received) was SKIPPED: what was measured
/// passed, but that proves too little.
enum class Verdict { kPass, kWarn, kFail, kSkipped, kIncomplete };
const char* verdict_name(Verdict verdict);  ///< "PASS", "WARN", "FAIL", "SKIPPED", "INCOMPLETE"

struct Criterion {
  std::string name;      ///< "fec_uncorrectable", "pre_fec_ber", ...
  Verdict verdict = Verdict::kSkipped;
  std::string measured;  ///< the number, with its unit
  std::string bound;     ///< what it was held to
  std::string note;      ///< one line: why, or how it was measured
  std::optional<double> value;  ///< the measured number itself, where there is one
};

/// A link that went down during the traffic.
struct LinkDrop {
  double t_s = 0;       ///< since the traffic started
  std::string at;       ///< UTC, when known
  std::string seen_by;  ///< "link poll", "link_down_events counter", "sample"
};

struct PortEvidence {
  std::string port;
  // Before the traffic.
  std::optional<module::DecodedModule> module;
  std::string module_error;  ///< why there is no module (no kernel netdev, no EEPROM, a decode error)
  bool link_up = false;
  uint64_t speed_bps = 0;
  unsigned lanes = 0;        ///< from the link mode, 0 when unknown
  std::string fec_active;    ///< "off", "rs", "baser", "llrs"; "" when the port cannot say
  std::string fec_error;
  // During it.
  std::vector<QualifySample> samples;
  std::vector<LinkDrop> link_drops;
  // The streams received on the port.
  unsigned streams_received = 0;
  uint64_t frames_sent = 0;      ///< by the streams received here
  uint64_t frames_received = 0;
  int64_t frames_lost = 0;
  double target_pps = 0;         ///< what those streams were asked to send (0: unpaced)
  double achieved_pps = 0;       ///< what they sent
  // The tester's own side of a loss.
  uint64_t rx_missed = 0;        ///< imissed + rx_nombuf of this port: frames its RX ring could not take in
  /// The longest stall of a tester lcore while the traffic ran: frames arriving meanwhile
  /// may overflow the RX ring, uncounted on a driver without imissed (af_packet).
  double tester_stall_us = 0;
  double tester_stall_at_s = 0;  ///< since the traffic started
  unsigned tester_stall_lcore = 0;
};

/// A tester lcore held up this long while frames were lost makes the loss indistinguishable
/// from the tester's own (its RX ring overflowing), unless the port counted the misses.
constexpr double kLossStallLimitUs = 1000;

struct PortVerdict {
  std::vector<Criterion> criteria;
  /// FAIL if a criterion failed; else INCOMPLETE if one qualification rests on was
  /// SKIPPED (`unmeasured` names them); else the worse of WARN and PASS.
  Verdict verdict = Verdict::kPass;
  std::vector<std::string> unmeasured;
  double bits = 0;                   ///< line bits over the time the link was up
  double seconds_up = 0;
};

PortVerdict judge_port(const PortEvidence& evidence, const optics::QualifyCfg& cfg);

/// The field's rules of thumb for a module, next to its own thresholds: temperature above
/// 75 °C, RX power below -12 dBm, bias above 15 mA. One line per monitor beyond one.
std::vector<std::string> rule_of_thumb_breaches(const std::vector<module::Monitor>& monitors);

}  // namespace lr::optics
