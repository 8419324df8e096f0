#pragma once
// CLOCK_REALTIME against a NIC's PTP hardware clock (PHC), measured. With hardware
// timestamping ptp4l steers the PHC, not CLOCK_REALTIME; phc2sys (or chrony) carries the PHC
// over to CLOCK_REALTIME. Rather than trust that, linerate reads both clocks side by side:
// the interface's PHC (ETHTOOL_GET_TS_INFO's phc_index: /dev/ptpN), then
// PTP_SYS_OFFSET_EXTENDED, whose samples each bracket one PHC read between two reads of
// CLOCK_REALTIME. The narrowest bracket gives the offset and its error.
//
// Times here are in ns since the epoch of their clock, from 0 to 2^32 s (the year 2106): a
// sample outside that is refused, so that every sum and difference below fits in int64.
// Thread: any (mgmt's clock watch).

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "lib/host/kernel/kernel_io.hpp"

namespace lr::host {

/// One PTP_SYS_OFFSET_EXTENDED sample: CLOCK_REALTIME before, the PHC, CLOCK_REALTIME after.
struct PhcSample {
  int64_t before_ns = 0;
  int64_t phc_ns = 0;
  int64_t after_ns = 0;
};

/// What the PHC counts: PTP's timescale (TAI, ptpTimescale set: UTC = PHC - the TAI-UTC
/// offset) or an arbitrary one (taken as UTC itself).
enum class PhcTimescale { kPtp, kArbitrary };

struct PhcOffset {
  int64_t offset_ns = 0;  ///< CLOCK_REALTIME minus the PHC's UTC
  uint64_t error_ns = 0;  ///< |truth - offset_ns| at most: half the narrowest sample's window, rounded up
};

/// CLOCK_REALTIME minus (PHC minus `utc_offset_s` with kPtp, the PHC itself with kArbitrary),
/// from the sample whose before/after window is narrowest (the first of equals): the PHC was
/// read somewhere in that window, so its midpoint is within half the window of the truth.
/// Pure. Empty when no sample has a window (none given, or each one's after before its before).
std::optional<PhcOffset> realtime_minus_phc(std::span<const PhcSample> samples, PhcTimescale timescale,
                                            int32_t utc_offset_s);

/// An interface's PHC and CLOCK_REALTIME's offset from it, or why it could not be read.
struct PhcMeasurement {
  std::string interface;          ///< the netdev ptp4l's port uses
  std::string device;             ///< its PHC, /dev/ptpN ("" when it has none or it was not found)
  int64_t realtime_offset_ns = 0; ///< as PhcOffset::offset_ns (with `problem` empty)
  uint64_t error_ns = 0;          ///< as PhcOffset::error_ns
  std::string problem;            ///< "" when measured; else what failed, naming the interface and device
};

/// The PHC of `interface`: `device` set, or `problem` ("eth2 has no PTP hardware clock"; the
/// ethtool ioctl's error). Through `io`, which tests replace.
PhcMeasurement find_phc(dp::KernelIo& io, const std::string& interface);

/// Reads `found.device` against CLOCK_REALTIME (9 samples; a few microseconds) and fills the
/// offset and error, or `problem` (the device not opened, the ioctl refused: errno's text).
/// `found` as find_phc returned it; with a problem already, returned as it is.
PhcMeasurement read_phc(PhcMeasurement found, PhcTimescale timescale, int32_t utc_offset_s);

/// find_phc, then read_phc.
PhcMeasurement measure_phc(dp::KernelIo& io, const std::string& interface, PhcTimescale timescale,
                           int32_t utc_offset_s);

}  // namespace lr::host
