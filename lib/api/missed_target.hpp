#pragma once
// The rule, shared by both programs, for a stream that sent less than its target: the
// data plane's own warning and the benchmarks' invalid trials say it in the same words.

#include <cstdint>
#include <string>
#include <vector>

#include "lib/api/stall_report.hpp"

namespace lr::api {

/// "stream 's' sent 0.000543 Mpps, 99.9 % below its target of 1.020000 Mpps (...)" when
/// the achieved rate misses a paced target by more than 0.5 %; "" otherwise. A stream
/// held by PFC / PAUSE for `held_fraction` of its time (pfc_honour) is held to the rate
/// it could send while not held, and the warning says how long it was held.
/// Without a full TX queue, the tester's lcores' stalls over the stream's `active_s`
/// seconds say why: when the host held a lcore up for half the time the shortfall is
/// worth or more, the host is named with the stall that did it, not the lcore's speed.
std::string missed_target(const std::string& stream, double target_pps, double achieved_pps, uint64_t tx_queue_full,
                          double held_fraction, const std::vector<LcoreStalls>& tester_lcores = {},
                          double active_s = 0);

}  // namespace lr::api
