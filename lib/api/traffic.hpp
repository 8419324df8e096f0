#pragma once
// What the data plane answers about traffic besides the run report: whether a run goes on
// and has sent everything (traffic.status), a stream's latency histogram
// (stats.histogram), and the streams as stream.list lists them. Built by the data plane,
// read back by the run client and the CLI.

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
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

/// A stream as stream.list lists it: its ports, mean frame size, lanes and the rate it is
/// paced to now.
struct StreamListing {
  std::string name;
  std::string tx_port;
  std::optional<std::string> rx_port;  ///< none: transmit only
  double frame_bytes_mean = 0;
  unsigned lanes = 0;
  std::optional<double> target_pps;    ///< none: unpaced ("max")
};

/// stream.rate.set: the stream's new target.
struct StreamRate {
  std::string stream;
  std::optional<double> target_pps;  ///< none: unpaced ("max")
};

nlohmann::json to_json(const TrafficStatus& status);
nlohmann::json to_json(const StreamRate& rate);
StreamRate stream_rate_from_json(const nlohmann::json& j);
/// The streams a call concerned: stream.load's `streams`, stream.add's `added`,
/// traffic.stop's `stopped` (of some streams); empty when it names none.
std::vector<std::string> streams_named(const nlohmann::json& answer);
nlohmann::json to_json(const StreamListing& stream);
/// Throws nlohmann::json::exception on a field of the wrong type.
StreamListing stream_listing_from_json(const nlohmann::json& j);
TrafficStatus traffic_status_from_json(const nlohmann::json& j);
nlohmann::json to_json(const LatencyHistogram& histogram);
/// Throws nlohmann::json::exception on a field of the wrong type.
LatencyHistogram latency_histogram_from_json(const nlohmann::json& j);

}  // namespace lr::api
