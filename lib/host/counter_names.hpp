#pragma once
// One naming scheme over the counters of every source: the driver's own names (ethdev
// xstats, `ethtool -S` of mlx5 / ice / i40e, ethtool FEC statistics) mapped to one
// canonical name where the meaning is the same, e.g. mlx5 "rx_prio3_pause" and i40e
// "rx_priority_3_xoff_packets" are both "rx_pause_prio3". Pure, unit-tested.

#include <string>

namespace lr::dp {

/// The canonical name of `name` from `source` ("ethdev", "xstats", "ethtool", "fec"), ""
/// when the counter has no cross-driver meaning (it is still shown under its own name).
std::string canonical_counter_name(const std::string& source, const std::string& name);

}  // namespace lr::dp
