#pragma once
// The PFC / PAUSE storm the receiver sends into the device's egress: its quanta, where it
// sits in a case's traffic, and the checks on a stream it must hold or must not.

#include <cstdint>
#include <string>
#include <vector>

#include "control/suites/bench/lossless/timeline.hpp"
#include "control/suites/bench/lossless_verdicts.hpp"
#include "control/suites/bench/bench_sections.hpp"
#include "lib/profile/profile.hpp"

namespace lr::bench::lossless {

constexpr uint16_t kStormQuanta = 65535;  ///< each storm frame's pause: the longest there is

// The storm sits in the middle of the traffic.
uint64_t storm_at_ns(const bench::LosslessCfg& cfg);
Sent planned_storm(const bench::LosslessCfg& cfg);

// A stream held by the storm from `t0` to `t1`: its last frame came within the reaction
// allowance after the storm began, and none came again before the storm's last frame.
void held_checks(std::vector<Check>& checks, const std::string& who, const api::StreamReport& stream, double t0, double t1,
                 double allowance_s);

// A stream that went on through the storm: nothing lost, and no silence near its length.
void flowing_checks(std::vector<Check>& checks, const std::string& who, const api::StreamReport& stream, double storm_s);

}  // namespace lr::bench::lossless
