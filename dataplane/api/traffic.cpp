#include "dataplane/api/traffic.hpp"

#include <nlohmann/json.hpp>

namespace lr::api {

using nlohmann::json;

json to_json(const TrafficStatus& status) {
  return {{"running", status.running}, {"tx_finished", status.tx_finished}};
}

TrafficStatus traffic_status_from_json(const json& j) {
  return {j.value("running", false), j.value("tx_finished", false)};
}

json to_json(const LatencyHistogram& h) {
  json buckets = json::array();
  for (const LatencyHistogram::Bucket& b : h.buckets)
    buckets.push_back({{"low_ns", b.low_ns}, {"high_ns", b.high_ns}, {"count", b.count}});
  return {{"stream", h.stream}, {"samples", h.samples}, {"buckets", buckets}};
}

LatencyHistogram latency_histogram_from_json(const json& j) {
  LatencyHistogram h{j.value("stream", ""), j.value("samples", uint64_t{0}), {}};
  for (const json& b : j.value("buckets", json::array()))
    h.buckets.push_back({b.value("low_ns", uint64_t{0}), b.value("high_ns", uint64_t{0}), b.value("count", uint64_t{0})});
  return h;
}

}  // namespace lr::api
