#pragma once
// What the data plane answers about traffic besides the run report: whether a run goes on
// and has sent everything (traffic.status), and a stream's latency histogram
// (stats.histogram). Built by the data plane, read back by the run client.

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace lr::api {

struct TrafficStatus {
  bool running = false;
  bool tx_finished = false;  ///< running, and every stream has sent all it was to send
};

/// A stream's latency histogram merged over its RX lcores: the non-empty buckets.
struct LatencyHistogram {
  struct Bucket {
    uint64_t low_ns = 0;
    uint64_t high_ns = 0;
    uint64_t count = 0;
  };
  std::string stream;
  uint64_t samples = 0;
  std::vector<Bucket> buckets;
};

nlohmann::json to_json(const TrafficStatus& status);
TrafficStatus traffic_status_from_json(const nlohmann::json& j);
nlohmann::json to_json(const LatencyHistogram& histogram);
/// Throws nlohmann::json::exception on a field of the wrong type.
LatencyHistogram latency_histogram_from_json(const nlohmann::json& j);

}  // namespace lr::api
