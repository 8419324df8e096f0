#pragma once
// Converts a stream's rate (% of line, L1 bit/s, L2 bit/s, pps) into frames per second
// on a link of known speed, refusing rates the link cannot carry, and from there into the
// TSC interval each lane paces by (stream_pacing: the one place a rate becomes TSC).

#include <cstdint>
#include <string>
#include <vector>

#include "lib/api/run_report.hpp"
#include "lib/common/result.hpp"
#include "lib/profile/profile.hpp"

namespace lr::plan {

/// Frames per second for `stream` on a link of `link_bps` (0: unknown). kMax gives 0
/// (unpaced); a MAC Control stream with refresh = "auto" sends twice per pause time of its
/// largest quanta. Errors: kInvalid (% rate on a link of unknown speed; above line rate).
Result<double> stream_pps(const api::StreamSpec& stream, uint64_t link_bps, const std::string& port_name);

/// A stream's rate as its lanes pace it.
struct StreamPacing {
  double pps = 0;                 ///< the whole stream, all lanes together; 0: unpaced (rate = "max")
  uint64_t lane_interval_fp = 0;  ///< Q16 TSC cycles between one lane's frames (pps / lanes); 0: unpaced
};

/// The one conversion of a stream's rate into its lanes' pacing: stream_pps, then each of
/// its `stream.lanes` lanes sends 1/lanes of it on a `tsc_hz` clock. Used when a run is
/// planned and when a rate changes during one. Errors: as stream_pps.
Result<StreamPacing> stream_pacing(const api::StreamSpec& stream, uint64_t link_bps, const std::string& port_name,
                                   uint64_t tsc_hz);

/// `ns` nanoseconds in cycles of a `tsc_hz` clock, rounded down.
uint64_t ns_to_tsc(uint64_t ns, uint64_t tsc_hz) noexcept;

/// One pause quantum: 512 bit times at the link's speed (IEEE 802.3 31B, 802.1Qbb).
inline constexpr uint32_t kPauseQuantumBits = 512;

/// How long `quanta` (one frame's, or a sum of them) pause a link of `link_bps` (0:
/// unknown, gives 0): 65535 quanta are 838.85 us at 40G and 671.08 us at 50G.
double pause_ns(uint64_t quanta, uint64_t link_bps) noexcept;

/// A stream as its TX port carries it.
struct PortLoad {
  std::string stream;
  std::string port;
  uint64_t port_bps = 0;   ///< 0: unknown (nothing to check)
  double pps = 0;          ///< 0: unpaced (rate = "max")
  double frame_bytes_mean = 0;
};

/// Refuses paced streams that add up to more than their port's line rate (naming the
/// streams, their shares and the excess); returns warnings for a "max" stream sharing a
/// port with paced ones (they get what it leaves, not their rates).
Result<std::vector<std::string>> check_port_loads(const std::vector<PortLoad>& streams);

/// The mean target over a stream's `active_s` seconds of sending, from its rate changes
/// (the first at 0 s); 0 when a segment was unpaced (nothing to hold it to).
double mean_target_pps(const std::vector<api::RateChange>& changes, double active_s);
}  // namespace lr::plan
