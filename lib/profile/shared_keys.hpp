#pragma once
// Readers of the keys more than one section writes alike: the switch and the lossless
// plan (in control/) both name priorities, sizes, an ECN curve and a PFC watchdog; ports and
// switches both map DSCPs to priorities.

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "lib/profile/table_reader.hpp"

namespace lr::profile {

/// An array of PFC priorities (0-7), in the order given; `not_an_array` says what to write.
std::optional<std::vector<uint8_t>> read_priorities(TableReader& in, const char* key, const char* not_an_array);

/// A size in bytes: an integer, or a string with its unit ("64KB", "1MiB").
std::optional<uint64_t> read_bytes(TableReader& in, const char* key);

/// `dscp_to_priority = { 26 = 3 }`: DSCP (0-63) -> priority (0-7).
std::map<uint8_t, uint8_t> read_dscp_map(TableReader& in, const toml::table& map);

struct EcnCurve {
  uint64_t kmin_bytes = 0;
  uint64_t kmax_bytes = 0;
  double pmax = 0;
};

/// WRED's curve: `ecn = { kmin, kmax, pmax }`, all three required (`required` says so).
EcnCurve read_ecn_curve(TableReader& r, const char* required);

struct WatchdogTimes {
  uint64_t detect_ns = 0;
  uint64_t restore_ns = 0;
  bool forward = false;  ///< false: drop during a storm
};

/// A PFC watchdog: `watchdog = { detect, restore, action? }` (a switch's, or what a plan
/// expects of the device's).
WatchdogTimes read_watchdog(TableReader& r);

}  // namespace lr::profile
