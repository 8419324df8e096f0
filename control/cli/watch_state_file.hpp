#pragma once
// The state file `linerate optics watch` writes after each interval (DIR/watch.json, its
// format in docs/guide/optics-watch.md), read back into what its readers need: every key the
// watch leaves out because a port cannot give it stays absent here (an empty optional), never
// a zero; a file of another shape is refused naming the key.

#include <cstdint>
#include <expected>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "control/suites/optics/optics_watch_files.hpp"

namespace lr::ctl {

using optics::kOpticsWatchDir;
using optics::kWatchStateName;
/// A state file older than this many of its intervals answers nothing: the watch has stopped.
constexpr double kStaleIntervals = 3;

/// A monitor of the module, as the watch last read it.
struct WatchedMonitor {
  std::string quantity;  ///< "temperature", "voltage", "bias", "tx_power", "rx_power"
  unsigned lane = 0;     ///< 0: the module's own (temperature, voltage)
  double value = 0;      ///< in `unit` ("C", "V", "mA", "mW")
  std::string unit;
  bool alarm_flag = false;  ///< the module's own latched flags
  bool warning_flag = false;
};

struct WatchedModule {
  std::string type, vendor, part, serial;
  uint64_t changes = 0;  ///< modules swapped since the watch began
  std::vector<WatchedMonitor> monitors;  ///< empty: the module has no diagnostics
  /// quantity -> its low-warning threshold, in its monitor's unit; absent: the module set none
  std::map<std::string, double> low_warning;
};

/// A port of the state file: what Zabbix's items read. An optional left empty is a key the
/// file left out (the port cannot give it), never a zero.
struct WatchedPort {
  std::string port;
  bool current = false;  ///< the last interval's read arrived
  std::string missed;    ///< why not, when it did not
  std::optional<bool> link_up;
  std::optional<uint64_t> speed_bps;
  std::optional<uint64_t> flaps;
  std::optional<WatchedModule> module;
  std::optional<double> corrected_per_s;
  std::optional<uint64_t> corrected_codewords;
  std::optional<uint64_t> uncorrectable_codewords;
  std::optional<double> pre_fec_ber;
  std::map<std::string, std::string> unsupported;  ///< part ("FEC statistics") -> why the driver lacks it
  std::vector<std::string> problems;              ///< what failed in the last read ("module: ...")
};

struct WatchState {
  double time_s = 0;      ///< when the watch wrote it, seconds since the Unix epoch
  double interval_s = 0;  ///< how often it does
  std::vector<WatchedPort> ports;
};

/// The state file's text read, or what is wrong with it ("not JSON: ...",
/// "ports[1].link.flaps: not a count (\"x\")").
std::expected<WatchState, std::string> parse_watch_state(std::string_view text);

/// Why `state` is too old at `now_s` to answer from (older than kStaleIntervals of its
/// intervals: the watch is not running); nullopt when it is fresh.
std::optional<std::string> staleness(const WatchState& state, double now_s);

}  // namespace lr::ctl
