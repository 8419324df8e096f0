#pragma once
// What qualification reads from a port every interval: its counters under their
// canonical names (the FEC blocks and bits, CRC and symbol errors, link-down events,
// whatever the driver calls them) and its module's monitors, with the link state. Built
// from the data plane's RPC answers, or from a kernel netdev directly (the tests replay
// recorded mlx5 series through the kernel-interface fake this way).

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lib/api/run_report.hpp"
#include "lib/host/module/decoded_module.hpp"
#include "lib/host/port_settings.hpp"

namespace lr::optics {

struct QualifySample {
  double t_s = 0;                           ///< since the traffic started
  bool link_up = true;
  uint32_t speed_mbps = 0;
  std::map<std::string, uint64_t> counters; ///< canonical name -> cumulative value
  std::vector<module::Monitor> monitors;    ///< the module's; empty when it has none
};

/// Counters under their canonical names (those without one are left out); where two
/// sources count the same thing (ethdev and `ethtool -S`), the larger.
std::map<std::string, uint64_t> canonical_counters(const std::vector<dp::NamedCounter>& counters);

/// The same from a `port.counters` answer (each counter's canonical name and total).
std::map<std::string, uint64_t> canonical_counters(const std::vector<api::NicCounter>& port_counters);

/// The monitors of any module layout.
const std::vector<module::Monitor>& module_monitors(const module::DecodedModule& decoded);
const module::ModuleIdentity& module_identity(const module::DecodedModule& decoded);

/// What changed between two samples of a counter (0 when either lacks it, or it went
/// backwards: a reset is not an event).
uint64_t counter_delta(const QualifySample& from, const QualifySample& to, const std::string& name);

/// True when some sample has `name`.
bool has_counter(const std::vector<QualifySample>& samples, const std::string& name);

/// The names in the samples that start with `prefix` (per-lane counters, "fec_corrected_bits_lane").
std::vector<std::string> counters_named(const std::vector<QualifySample>& samples, const std::string& prefix);

}  // namespace lr::optics
