#pragma once
// The results of a run: the report's structs and their JSON form (schema in
// config/README.md), defined once and linked by both processes: the data plane writes
// them, the `linerate` CLI reads them back (from_json) for its views. Also the report's
// arithmetic, so both sides compute `lost` and rates one way. Pure: no DPDK.

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lib/api/capture_spec.hpp"
#include "lib/api/mac_control_report.hpp"
#include "lib/api/neighbor_report.hpp"
#include "lib/api/switch_report.hpp"

namespace lr::api {

// Each struct's JSON form is declared after it: to_json, and X_from_json, which reads it back
// (a field absent keeps its default, one the struct does not know is ignored) and throws
// nlohmann::json::exception, naming the field, on one of the wrong type.

/// What a port itself counted (rte_eth_stats), cumulative or over a run.
struct PortCounters {
  uint64_t ipackets = 0;
  uint64_t opackets = 0;
  uint64_t ibytes = 0;
  uint64_t obytes = 0;
  uint64_t imissed = 0;
  uint64_t ierrors = 0;
  uint64_t oerrors = 0;
  uint64_t rx_nombuf = 0;

  /// Counters since `baseline` (what one run added).
  PortCounters operator-(const PortCounters& baseline) const noexcept;
  /// Each counter under its rte_eth_stats name (the report's key), in the order above.
  std::array<std::pair<const char*, uint64_t>, 8> named() const noexcept;
};

/// What linerate itself sent and received on a port so far (stats.ports; the live line).
struct PortTraffic {
  std::string name;
  uint64_t tx_packets = 0;
  uint64_t tx_bytes = 0;  ///< incl. FCS
  uint64_t rx_packets = 0;
  uint64_t rx_bytes = 0;  ///< incl. FCS
};
nlohmann::json to_json(const PortTraffic& traffic);
PortTraffic port_traffic_from_json(const nlohmann::json& port);

struct LatencySummary {
  uint64_t samples = 0;
  uint64_t min_ns = 0;
  double mean_ns = 0;
  uint64_t p50_ns = 0;
  uint64_t p90_ns = 0;
  uint64_t p99_ns = 0;
  uint64_t p999_ns = 0;
  uint64_t p9999_ns = 0;
  uint64_t max_ns = 0;
  double jitter_ns = 0;
};

/// The ECN codepoints (RFC 3168) of a stream's frames as they arrived.
struct EcnCounts {
  uint64_t not_ect = 0;
  uint64_t ect1 = 0;
  uint64_t ect0 = 0;
  uint64_t ce = 0;  ///< marked Congestion Experienced on the way
};

/// A stream's target rate from a moment of the run on: at the start, then every change.
struct RateChange {
  double at_s = 0;        ///< since the run started
  double target_pps = 0;  ///< 0: unpaced ("max")
};

/// Frames counted in fixed time bins since the run's start ([run] timeline), up to the
/// last bin with a frame in it; `after` what came after the span the bins cover.
struct TimelineReport {
  double bin_s = 0;
  std::vector<uint64_t> tx;  ///< a stream's frames sent per bin (a port's: empty)
  std::vector<uint64_t> rx;  ///< frames received per bin (a port's: MAC Control frames)
  uint64_t tx_after = 0;
  uint64_t rx_after = 0;
  /// A stream's longest silence between two frames received, to the cycle, since the
  /// run's start: from the frame before to the frame after. None when fewer than two
  /// frames came, or they came through more than one lcore (each sees only its own).
  std::optional<std::pair<double, double>> longest_rx_gap_s;
  /// A stream's first and last frame received, to the cycle, since the run's start (over
  /// every lcore that received it). None when none came.
  std::optional<std::pair<double, double>> rx_span_s;
};
nlohmann::json to_json(const TimelineReport& t);
TimelineReport timeline_from_json(const nlohmann::json& j);

struct StreamReport {
  std::string name;
  std::string tx_port;
  std::optional<std::string> rx_port;
  double frame_bytes_mean = 0;
  double target_pps = 0;        ///< 0: unpaced ("max")
  uint64_t tx_packets = 0;
  uint64_t tx_bytes = 0;        ///< incl. FCS
  double tx_pps_achieved = 0;
  double tx_l1_bps_achieved = 0;
  uint64_t tx_queue_full = 0;
  /// Frames a paced stream's schedule gave up: due while its lcore was held up, too slow or
  /// paused longer than its catch-up, or due before its end and not sent (pacer.hpp).
  uint64_t tx_forgone = 0;
  // Receive side: meaningful only with rx_port.
  uint64_t rx_packets = 0;
  uint64_t rx_bytes = 0;
  int64_t lost = 0;             ///< tx - (rx - duplicate): negative if more arrived than were sent
  uint64_t duplicate = 0;
  uint64_t out_of_order = 0;
  uint64_t late = 0;
  uint64_t beyond_window = 0;
  uint64_t misdelivered = 0;
  LatencySummary latency;
  /// Sent by another data plane (receive_only): tx_packets are the sender's to give, so
  /// `lost` is not known here (null in the JSON).
  bool receive_only = false;
  /// Why what arrived is not known, where it is not (the data plane that received it went
  /// away mid-run): rx_packets and lost are then null in the JSON.
  std::optional<std::string> rx_unknown;
  /// Why latency (and `late`) is not given, where it is not: a stream another data plane
  /// sent carries another clock's stamps. The JSON's latency_ns is then null.
  std::optional<std::string> latency_withheld;
  /// Latency measured between two data planes' clocks: how far each figure may be off
  /// (fleet_clocks.hpp), and which grandmaster vouches for both (latency_clocks).
  std::optional<uint64_t> latency_bound_ns;
  std::optional<std::string> latency_clocks;
  std::vector<RateChange> rate_changes;  ///< the target at the start and every change (run reports)
  /// Its TX port honours PFC (pfc_honour): how long it was held (the mean of its lanes').
  std::optional<uint64_t> paused_ns;
  /// A stream sending ECN-capable frames (ecn set), with an RX port: the codepoints received.
  std::optional<EcnCounts> ecn;
  std::optional<TimelineReport> timeline;  ///< [run] timeline: its frames sent and received per bin
};
nlohmann::json to_json(const StreamReport& stream);
StreamReport stream_report_from_json(const nlohmann::json& stream);

/// One counter of a port's merged view (every source: ethdev, xstats, the kernel's).
struct NicCounter {
  std::string name;                      ///< the driver's own name
  std::string source;                    ///< ethdev, xstats, ethtool, fec
  std::optional<std::string> canonical;  ///< linerate's name for its meaning, if it has one
  uint64_t value = 0;                    ///< this run
  uint64_t total = 0;
};
nlohmann::json to_json(const NicCounter& counter);
NicCounter nic_counter_from_json(const nlohmann::json& counter);

/// A link state change seen on a port.
struct LinkEventReport {
  std::string at;  ///< ISO 8601, UTC, milliseconds
  bool up = false;
  uint32_t speed_mbps = 0;
  std::string cause;  ///< "observed", "set by session 3", "start"
  /// Seconds from the run's start (its timeline's bin 0) to the event, on the clock of the
  /// run's timelines: a run report's events at or after its start only (left out elsewhere).
  std::optional<double> run_s;
};
nlohmann::json to_json(const LinkEventReport& event);
LinkEventReport link_event_from_json(const nlohmann::json& event);

/// A port setting linerate changed (FEC, pause, PFC, link, MTU): what the port had before
/// the first change, what linerate set last, and whether it was put back.
struct SettingChange {
  std::string setting;  ///< fec, pause, pfc, link, mtu
  std::string before;   ///< "" when the port could not say (ethdev cannot read PFC)
  std::string set_to;
  bool keep = false;    ///< asked to stay (profile or command `keep`)
  std::string restore;  ///< at_exit (not yet), restored, unchanged, kept, failed
  std::string error;    ///< why a restore failed
};
nlohmann::json to_json(const SettingChange& change);
SettingChange setting_change_from_json(const nlohmann::json& j);

struct PortReport {
  std::string name;
  std::string device;
  std::string driver;
  uint16_t port_id = 0;
  int socket = -1;
  bool link_up = false;
  uint64_t link_speed_bps = 0;    ///< what the link reports
  uint64_t speed_bps = 0;         ///< what rates refer to: the profile's `speed`, else the link's
  bool speed_from_profile = false;
  PortCounters counters;
  uint64_t rx_no_signature = 0;   ///< frames linerate received without a signature
  uint64_t rx_after_drain = 0;    ///< frames still queued when the drain interval ended
  std::optional<MacControlReport> mac_control;  ///< when linerate received MAC Control frames (PFC, PAUSE)
  std::optional<MacControlNetdevReport> mac_control_netdev;  ///< when it sent them through the kernel netdev
  std::optional<TimelineReport> mac_control_timeline;  ///< [run] timeline: MAC Control frames received per bin (rx)
  // A run report's ports only (empty elsewhere): read after the drain, before the ports stop.
  std::vector<NicCounter> nic_counters;
  std::vector<LinkEventReport> link_events;
  std::vector<SettingChange> settings_changed;
  std::vector<NicPauseReport> nic_pause;  ///< the NIC's per-priority pause counters (see nic_pause_counters)
};
nlohmann::json to_json(const PortReport& port);
PortReport port_report_from_json(const nlohmann::json& port);

/// A port's counters as port.counters answers: every counter of every source (or those
/// a filter kept), and the sources that could not be read.
struct PortCounterView {
  std::string port;
  std::string netdev;  ///< its kernel netdev, "" when it has none
  std::vector<NicCounter> counters;
  std::vector<std::string> errors;
};
nlohmann::json to_json(const PortCounterView& view);
PortCounterView port_counter_view_from_json(const nlohmann::json& view);

/// A port as port.list lists it: who it is, its link and speed, and the session that owns it.
struct PortListing {
  PortReport port;               ///< its identity, link and speed (no counters)
  std::optional<uint64_t> owner; ///< the session that owns it; none: free
};
nlohmann::json to_json(const PortListing& listing);
PortListing port_listing_from_json(const nlohmann::json& listing);

/// When a run began, on the UTC clock: what a start across several data planes is judged by.
struct RunStart {
  std::optional<int64_t> asked_utc_ns;  ///< traffic.start's at_utc_ns: the instant asked for; none: at once
  int64_t start_utc_ns = 0;             ///< the instant every lane was set to begin at
  /// The first TX lcore's first clock read once begun (its first burst follows at once);
  /// none without TX lanes.
  std::optional<int64_t> first_tx_utc_ns;
  uint64_t tsc_utc_error_ns = 0;  ///< how far the TSC's UTC reading may be off (CLOCK_REALTIME's own error aside)
};
nlohmann::json to_json(const RunStart& start);
RunStart run_start_from_json(const nlohmann::json& start);

struct RunReport {
  std::string profile_path;
  std::string started_at;   ///< ISO 8601, UTC
  std::optional<RunStart> start;  ///< the start on the UTC clock, to the nanosecond
  double duration_s = 0;
  bool interrupted = false; ///< stopped by SIGINT / SIGTERM, or cut short (interrupted_by)
  /// Why the run was cut short, when not by a signal ("the data plane went away: ..."): its
  /// counts are the last seen, not final. Left out of the JSON when none.
  std::optional<std::string> interrupted_by;
  std::vector<StreamReport> streams;
  std::vector<PortReport> ports;
  std::vector<SwitchReport> switches;  ///< the software switches (`[[switch]]`) the data plane ran
  /// The tester's worker lcores: when each was held up (the host's doing, never the device's).
  std::vector<LcoreStalls> lcores;
  /// The captures that ran during the run (linerate capture, [[capture]]): file, filter,
  /// frames matched, written and dropped, what a trigger caught.
  std::vector<CaptureReport> captures;
  /// The emulated hosts' ports: the neighbours their streams were sent to (resolved, with
  /// their MACs and when), the slow path's counts and the host events of the run.
  std::vector<PortNeighbors> neighbors;
  uint64_t mbufs_not_returned = 0;
  std::vector<std::string> warnings;
};
nlohmann::json to_json(const RunReport& report);
RunReport run_report_from_json(const nlohmann::json& report);

/// Frames lost: sent minus received once (duplicates do not make up for losses);
/// negative when more distinct frames arrived than were sent.
constexpr int64_t lost_frames(uint64_t tx_packets, uint64_t rx_packets, uint64_t duplicate) noexcept {
  return static_cast<int64_t>(tx_packets) - static_cast<int64_t>(rx_packets - duplicate);
}

/// L1 bit/s of `pps` frames whose mean size is bytes / packets (FCS included): 0 without frames.
double l1_bps_of(double pps, uint64_t bytes, uint64_t packets) noexcept;

/// Frames and L1 bit/s per second between two samples of a port taken `seconds` apart.
struct PortRate {
  std::string name;
  double tx_pps = 0;
  double tx_l1_bps = 0;
  double rx_pps = 0;
  double rx_l1_bps = 0;
};
PortRate port_rate(const PortTraffic& before, const PortTraffic& after, double seconds) noexcept;

}  // namespace lr::api

namespace lr::api {

/// What the data plane will do, as it prints it before a run: per port its queues and
/// their lcores, per stream its rate and lanes.
struct QueuePlan {
  uint16_t queue = 0;
  unsigned lcore = 0;
  bool cross_numa = false;
};

struct PortPlan {
  uint16_t port_id = 0;
  std::string name;
  std::string device;
  std::string driver;
  int socket = -1;               ///< -1: any (virtual devices)
  bool checksum_offload = false; ///< the NIC computes IPv4 / UDP checksums
  bool link_up = false;
  uint64_t speed_bps = 0;        ///< what rates are computed against; 0: unknown
  bool speed_from_profile = false;
  std::vector<QueuePlan> rx_queues;
  std::vector<QueuePlan> tx_queues;
  std::string rx_not_polled;     ///< "" or why the RX queues are not polled
  std::string mac_control_tx = {};  ///< how PFC / PAUSE streams leave: "PMD", "kernel netdev X (AF_PACKET)", "none: why"
  std::optional<uint16_t> hosts_tx_queue = {};  ///< the emulated hosts' own TX queue, none without hosts
};

struct StreamPlan {
  std::string name;
  std::string tx_port;
  std::optional<std::string> rx_port;
  double frame_bytes_mean = 0;
  double target_pps = 0;         ///< 0: unpaced ("max")
  uint64_t count = 0;            ///< 0: no frame limit
  uint64_t duration_ns = 0;      ///< 0: no time limit
  std::vector<QueuePlan> lanes;  ///< each lane's TX queue and lcore
  std::string kind = "udp";      ///< "udp", "roce" (RoCEv2 in UDP), "pfc" (802.1Qbb) or "pause" (802.3x)
  std::string roce = {};         ///< RoCEv2: the opcode, QP and first PSN, e.g. "rc-send-only to QP 17, PSN from 0"
  double pause_ns = 0;           ///< MAC Control: the pause each frame asks for (largest quanta) at the port's speed
  bool pfc_honoured = false;     ///< its TX port honours PFC / PAUSE received (pfc_honour)
  int pfc_priority = -1;         ///< the priority whose PFC holds it (VLAN PCP or mapped DSCP); -1: only PAUSE does
  bool receive_only = false;  ///< sent by another data plane: only received here
};

struct RunPlan {
  std::vector<PortPlan> ports;
  std::vector<StreamPlan> streams;
  std::vector<SwitchPlan> switches;  ///< the software switches (`[[switch]]`)
  std::vector<std::string> warnings;  ///< about the ports and these streams, before traffic
  std::string tx_buffers = {};  ///< "per_stream" or "shared" ([run] tx_buffers as decided); "" without streams
  std::string tx_buffers_why = {};  ///< what the pools take, or why the streams share them
  /// The lcores that visit their TX lanes by deadline (over kScannedLanes lanes): each lane
  /// when its next frame is due, not every lane every iteration.
  std::vector<unsigned> scheduled_lcores = {};
};
/// The plan as run.plan returns it, and back.
nlohmann::json to_json(const RunPlan& plan);
RunPlan run_plan_from_json(const nlohmann::json& j);

/// The longest run of empty bins between two bins with frames (a pause, a loss burst):
/// its first bin and length; none when the frames never stopped.
struct TimelineGap {
  size_t first_bin = 0;
  size_t bins = 0;
};
std::optional<TimelineGap> longest_gap(const std::vector<uint64_t>& bins);

// For nlohmann's own conversions of the plan's queue lists.
void to_json(nlohmann::json& j, const QueuePlan& q);
void from_json(const nlohmann::json& j, QueuePlan& q);

}  // namespace lr::api
