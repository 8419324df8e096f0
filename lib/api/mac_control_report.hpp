#pragma once
// MAC Control frames (PFC, PAUSE) a port received, in a port report: counted by linerate
// where the port hands them to software, and the NIC's own per-priority pause counters
// where it consumes them. Structs, JSON and the arithmetic both processes share. Pure.

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lr::api {

struct NicCounter;

/// One pause class a port was asked to pause: a PFC priority, or PAUSE's one.
struct PauseClassReport {
  int priority = -1;      ///< 0-7; -1 for 802.3x PAUSE
  uint64_t xoff = 0;      ///< frames with quanta > 0
  uint64_t xon = 0;       ///< frames with quanta 0
  uint64_t quanta = 0;    ///< sum of the XOFF frames' quanta
  double pause_ns = 0;    ///< what those quanta ask at the port's speed (0: speed unknown); refreshed pauses overlap
};
nlohmann::json to_json(const PauseClassReport& c);

/// The MAC Control frames linerate received on a port (only where the port delivers them).
struct MacControlReport {
  uint64_t pfc_frames = 0;
  uint64_t pause_frames = 0;
  uint64_t other_frames = 0;              ///< EtherType 0x8808 with another opcode
  double first_s = 0;                     ///< first arrival, since the run started
  double last_s = 0;
  std::vector<PauseClassReport> pfc;      ///< priorities some frame enabled, ascending
  std::optional<PauseClassReport> pause;  ///< when PAUSE frames arrived
};
nlohmann::json to_json(const MacControlReport& m);
MacControlReport mac_control_from_json(const nlohmann::json& j);

/// A priority's pause counters as the NIC kept them (mlx5 rx_prio<p>_pause and
/// _pause_duration, i40e / ice priority xoff counters), this run.
struct NicPauseReport {
  int priority = 0;
  std::optional<uint64_t> rx_frames;       ///< canonical rx_pause_prio<p>
  std::optional<uint64_t> tx_frames;       ///< canonical tx_pause_prio<p>
  std::optional<uint64_t> rx_duration_us;  ///< canonical rx_pause_duration_us_prio<p>
  std::optional<uint64_t> tx_duration_us;  ///< canonical tx_pause_duration_us_prio<p>
};
nlohmann::json to_json(const NicPauseReport& n);
NicPauseReport nic_pause_from_json(const nlohmann::json& j);

/// A port's MAC Control frames sent through its kernel netdev (mac_control_tx): what the
/// kernel took and refused. The streams count the frames their lanes handed over.
struct MacControlNetdevReport {
  std::string netdev;
  uint64_t frames_sent = 0;
  uint64_t send_failures = 0;
  std::string last_error;  ///< "" or the last refusal's strerror
};
nlohmann::json to_json(const MacControlNetdevReport& n);
MacControlNetdevReport mac_control_netdev_from_json(const nlohmann::json& j);

/// The per-priority pause counters among a port's merged counters, ascending by
/// priority: every priority with a counter, or none when all of them are zero.
std::vector<NicPauseReport> nic_pause_counters(const std::vector<NicCounter>& counters);

}  // namespace lr::api
