#pragma once
// What linuxptp's ptp4l says of this host's clock, read with its management client
// (`pmc -u -b 0 -s UDS 'GET TIME_STATUS_NP' 'GET PORT_DATA_SET' 'GET PORT_PROPERTIES_NP'
// 'GET DEFAULT_DATA_SET' 'GET TIME_PROPERTIES_DATA_SET'`), and whether CLOCK_REALTIME can
// then be trusted to follow a PTP grandmaster: the condition for a start at one instant, and
// for one-way latency, across hosts. Pure: the text (and, with hardware timestamping,
// CLOCK_REALTIME measured against the NIC's clock: phc_offset.hpp) in, the reading and the
// verdict out.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lib/host/phc_offset.hpp"

namespace lr::host {

/// pmc's answers, as far as they came.
struct PtpReading {
  bool answered = false;             ///< ptp4l answered at least TIME_STATUS_NP
  std::string port_state;            ///< PORT_DATA_SET portState: SLAVE, MASTER, UNCALIBRATED, LISTENING, ...
  std::string timestamping;          ///< PORT_PROPERTIES_NP: SOFTWARE or HARDWARE
  std::string clock_identity;        ///< DEFAULT_DATA_SET: this clock's
  std::string gm_identity;           ///< TIME_STATUS_NP: the grandmaster's
  bool gm_present = false;           ///< a grandmaster other than this clock is known
  std::optional<int64_t> master_offset_ns;  ///< the last offset from the master
  /// PORT_PROPERTIES_NP: the port's netdev (with HARDWARE, the one whose clock ptp4l steers).
  std::string interface;
  /// TIME_PROPERTIES_DATA_SET: currentUtcOffset (TAI - UTC), currentUtcOffsetValid, and
  /// ptpTimescale (the grandmaster's time is TAI; a PHC it steers then counts TAI).
  std::optional<int32_t> utc_offset_s;
  bool utc_offset_valid = false;
  std::optional<bool> ptp_timescale;
};

/// The reading of pmc's output (what it printed to stdout).
PtpReading parse_pmc_output(std::string_view text);

struct PtpVerdict {
  bool synchronised = false;   ///< CLOCK_REALTIME follows the grandmaster
  /// With it: how far off it may be (judge_ptp says of what).
  uint64_t error_ns = 0;
  std::string why;             ///< either way, in words
};

/// Whether `reading` vouches for CLOCK_REALTIME: ptp4l's port SLAVE to a present grandmaster,
/// or this clock being the grandmaster, and
/// - with software timestamping (ptp4l steers CLOCK_REALTIME itself): error_ns is
///   |master offset| (0 on the grandmaster);
/// - with hardware timestamping (ptp4l steers the NIC's clock, which CLOCK_REALTIME follows
///   only through phc2sys, not read): only with `phc`, CLOCK_REALTIME measured against that
///   clock, and, on PTP's timescale, a valid UTC offset; error_ns is |master offset| (0 on
///   the grandmaster) + |phc's offset| + phc's error. Without `phc`, or with its problem,
///   not vouched for.
PtpVerdict judge_ptp(const PtpReading& reading, const std::optional<PhcMeasurement>& phc = std::nullopt);

}  // namespace lr::host
