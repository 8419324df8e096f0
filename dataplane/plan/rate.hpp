#pragma once
// Converts a stream's rate (% of line, L1 bit/s, L2 bit/s, pps) into frames per second
// on a link of known speed, and refuses rates the link cannot carry.

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
