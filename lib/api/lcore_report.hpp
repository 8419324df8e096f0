#pragma once
// What each worker lcore of the tester does and counted so far (stats.lcores): its TX
// lanes and RX queues. Built by the data plane, read back by the CLI's lcore table.

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace lr::api {

/// One TX lane of a worker lcore, and what it counted.
struct LaneReport {
  std::string stream;
  uint8_t lane = 0;
  uint16_t port_id = 0;
  uint16_t queue = 0;
  uint64_t tx_packets = 0;
  uint64_t tx_queue_full = 0;
  uint64_t alloc_failures = 0;
  bool done = false;
};

/// One RX queue of a worker lcore, and what it counted.
struct RxQueueReport {
  uint16_t port_id = 0;
  uint16_t queue = 0;
  uint64_t rx_packets = 0;
  uint64_t rx_bytes = 0;  ///< incl. FCS
  uint64_t rx_no_signature = 0;
};

struct LcoreReport {
  unsigned lcore = 0;
  int socket = 0;
  std::vector<LaneReport> tx_lanes;
  std::vector<RxQueueReport> rx_queues;
};

nlohmann::json to_json(const LcoreReport& lcore);
/// Throws nlohmann::json::exception on a field of the wrong type.
LcoreReport lcore_report_from_json(const nlohmann::json& j);

}  // namespace lr::api
