#pragma once
// A flow's size, rate and duration (models 1.60.0 Flow.Size, Flow.Rate, Flow.Duration) into
// the stream's keys: fixed, increment, random and weight-pair sizes (IMIX); rates in pps,
// bps to gbps (L1, as linerate's) or percent; fixed packets, fixed seconds, bursts and
// continuous, with a delay.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "control/otg/otg_json.hpp"

namespace lr::otg {

void read_size(const nlohmann::json& size, const std::string& path, nlohmann::json& stream, Problems& p);

/// Returns the rate in frames per second (0: not known, a share of a port whose speed is not).
double read_rate(const nlohmann::json& rate, const std::string& path, uint64_t speed_bps, nlohmann::json& stream,
                 Problems& p);

/// `pps` and `speed_bps` turn bursts and gaps in bytes into times.
void read_duration(const nlohmann::json& duration, const std::string& path, double pps, uint64_t speed_bps,
                   nlohmann::json& stream, Problems& p);

}  // namespace lr::otg
