#pragma once
// What a software switch (`[[switch]]`) counted in a run: per port and priority, in a
// run report and over the RPC. Structs and JSON; pure.

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "lib/api/stall_report.hpp"

namespace lr::api {

/// One priority of one switch port. rx at the ingress port; tx, tail and watchdog drops,
/// ECN marks and the queue watermark at the egress port; headroom drops, PFC sent and the
/// priority group's watermark at the ingress port; PFC received where it was heard.
struct SwitchPriorityReport {
  int priority = 0;
  bool lossless = false;
  uint64_t rx_frames = 0;
  uint64_t rx_bytes = 0;            ///< incl. FCS
  uint64_t tx_frames = 0;
  uint64_t tx_bytes = 0;
  uint64_t drop_tail = 0;           ///< lossy: queue limit or shared buffer full
  uint64_t drop_headroom = 0;       ///< lossless: arrived with the priority group past xoff + headroom
  uint64_t drop_watchdog = 0;       ///< lossless: dropped by the PFC watchdog during a storm
  uint64_t pfc_xoff_sent = 0;
  uint64_t pfc_xon_sent = 0;
  uint64_t pfc_xoff_received = 0;
  uint64_t pfc_xon_received = 0;
  uint64_t ecn_marked = 0;
  uint64_t queue_watermark_bytes = 0;
  uint64_t group_watermark_bytes = 0;  ///< lossless: the most bytes its ingress priority group held
  uint64_t paused_ns = 0;              ///< the egress queue held by PFC it received
  uint64_t storms = 0;                 ///< PFC watchdog detections
  uint64_t restorations = 0;
  double storm_detected_s = -1;        ///< the last detection, since the run started (-1: none)
  double storm_restored_s = -1;
};

struct SwitchPortReport {
  std::string name;
  std::string device;
  uint64_t speed_bps = 0;
  uint64_t shape_bps = 0;         ///< what it sends at most (the speed when not shaped)
  uint64_t rx_frames = 0;         ///< every frame it received, MAC Control included
  uint64_t rx_mac_control = 0;    ///< PFC and PAUSE frames received (consumed, not forwarded)
  double pause_first_s = -1;      ///< the first PFC / PAUSE frame's arrival, since the run started (-1: none;
                                  ///< a few us below 0 when the switch's CPU reads the TSC behind the sender's)
  double pause_last_s = -1;
  uint64_t rx_unroutable = 0;     ///< dropped: no forwarding entry for the ingress port
  uint64_t rx_flooded = 0;        ///< learning: sent to every other port (unknown or group destination)
  uint64_t rx_filtered = 0;       ///< learning: for a station on the port it came from, dropped
  uint64_t rx_oversize = 0;       ///< longer than the switch's max_frame: dropped at ingress
  uint64_t tx_pfc_frames = 0;     ///< PFC frames it sent (each may carry several priorities)
  uint64_t ecn_copy_failures = 0; ///< frames sent unmarked: no buffer to copy them into for marking
  uint64_t tx_refused = 0;        ///< frames its TX queue refused at first (sent later): the receiver was slow
  double egress_lost_us = 0;      ///< sending time lost while backlogged: its lcore held up beyond its catch_up (5 ms by default)
  double egress_busy_s = 0;       ///< time it had frames to send (queued and not paused): its rate is tx over this
  std::vector<SwitchPriorityReport> priorities;  ///< those with any count, or lossless
};

struct SwitchReport {
  std::string name;
  unsigned lcore = 0;
  uint64_t buffer_bytes = 0;
  uint64_t buffer_watermark_bytes = 0;  ///< the lossy queues' largest total
  uint64_t left_in_queues = 0;          ///< frames still queued when the run ended (freed, never sent)
  /// The emulation's own limit: loop iterations longer than 20 us (its lcore held up by
  /// another thread on its CPU), when it neither forwarded nor sent PFC.
  uint64_t stalls = 0;
  double longest_stall_us = 0;
  double stalled_us = 0;  ///< all the stalls together
  /// The longest stalls (at most 256, longest first; `stalls` counts them all): where they fell says which
  /// measurements they could have touched.
  std::vector<Stall> longest_stalls;
  uint64_t mac_learned = 0;             ///< learning: new addresses it took this run
  uint64_t mac_table_full = 0;          ///< learning: new addresses it refused this run, its table full (they flood)
  uint64_t mac_entries = 0;             ///< learning: addresses in its table (they outlive a run until they age)
  uint64_t mac_learn_limited = 0;       ///< learning: new addresses it refused this run, above its learning rate
  uint64_t mac_aged = 0;                ///< learning: addresses that aged out this run
  bool input_queued = false;            ///< queueing = "input": its drops count at the ingress port
  double catch_up_us = 0;               ///< how far its ports catch up after its lcore was held up
  std::vector<SwitchPortReport> ports;
};

/// A software switch as the plan shows it before a run: its lcore, its ports (device,
/// link, speed, shaped rate) and where each forwards.
struct SwitchPortPlan {
  std::string name;
  std::string device;
  bool link_up = false;
  uint64_t speed_bps = 0;
  uint64_t shape_bps = 0;
  std::string forward_to;  ///< the egress port; "" with learning or without an entry
};

struct SwitchPlan {
  std::string name;
  unsigned lcore = 0;
  bool learn = false;
  std::vector<int> lossless;  ///< priorities
  std::vector<SwitchPortPlan> ports;
};

nlohmann::json to_json(const SwitchReport& s);
SwitchReport switch_report_from_json(const nlohmann::json& j);
nlohmann::json to_json(const SwitchPlan& s);
SwitchPlan switch_plan_from_json(const nlohmann::json& j);

}  // namespace lr::api
