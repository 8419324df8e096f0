#pragma once
// The results of a run, as the JSON report (schema in config/README.md) and the final
// table. Thread: mgmt.

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dataplane/port/port.hpp"

namespace lr::dp {

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
};

struct PortReport {
  std::string name;
  std::string device;
  std::string driver;
  uint16_t port_id = 0;
  int socket = -1;
  bool link_up = false;
  uint64_t link_speed_bps = 0;
  PortCounters counters;
  uint64_t rx_no_signature = 0;   ///< frames linerate received without a signature
  uint64_t rx_after_drain = 0;    ///< frames still queued when the drain interval ended
};

struct RunReport {
  std::string profile_path;
  std::string started_at;   ///< ISO 8601, UTC
  double duration_s = 0;
  bool interrupted = false; ///< stopped by SIGINT / SIGTERM
  std::vector<StreamReport> streams;
  std::vector<PortReport> ports;
  uint64_t mbufs_not_returned = 0;
  std::vector<std::string> warnings;
};

nlohmann::json to_json(const RunReport& report);
nlohmann::json to_json(const StreamReport& stream);
nlohmann::json to_json(const PortReport& port);

/// Human table: one row per stream, then one per port.
std::string format_table(const RunReport& report);

}  // namespace lr::dp
