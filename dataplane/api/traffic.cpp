#include "dataplane/api/traffic.hpp"

#include <nlohmann/json.hpp>

#include "dataplane/api/json_fields.hpp"

namespace lr::api {

using nlohmann::json;

json to_json(const TrafficStatus& status) {
  return {{"running", status.running}, {"tx_finished", status.tx_finished}};
}

TrafficStatus traffic_status_from_json(const json& j) {
  TrafficStatus status;
  const auto read = reader(j);
  read("running", status.running);
  read("tx_finished", status.tx_finished);
  return status;
}

json to_json(const StreamRate& rate) {
  return {{"stream", rate.stream}, {"target_pps", rate.target_pps ? json(*rate.target_pps) : json(nullptr)}};
}

StreamRate stream_rate_from_json(const json& j) {
  StreamRate rate;
  reader(j)("stream", rate.stream);
  if (const auto it = j.find("target_pps"); it != j.end() && it->is_number()) rate.target_pps = it->get<double>();
  return rate;
}

std::vector<std::string> streams_named(const json& answer) {
  for (const char* key : {"streams", "added", "stopped"})
    if (const auto it = answer.find(key); it != answer.end() && it->is_array()) return it->get<std::vector<std::string>>();
  return {};
}

json to_json(const StreamListing& s) {
  return {{"name", s.name},
          {"tx_port", s.tx_port},
          {"rx_port", s.rx_port ? json(*s.rx_port) : json(nullptr)},
          {"frame_bytes_mean", s.frame_bytes_mean},
          {"lanes", s.lanes},
          {"target_pps", s.target_pps ? json(*s.target_pps) : json(nullptr)}};
}

StreamListing stream_listing_from_json(const json& j) {
  StreamListing s;
  const auto read = reader(j);
  read("name", s.name);
  read("tx_port", s.tx_port);
  read("frame_bytes_mean", s.frame_bytes_mean);
  read("lanes", s.lanes);
  if (const auto it = j.find("rx_port"); it != j.end() && it->is_string()) s.rx_port = it->get<std::string>();
  if (const auto it = j.find("target_pps"); it != j.end() && it->is_number()) s.target_pps = it->get<double>();
  return s;
}

json to_json(const LatencyHistogram& h) {
  json buckets = json::array();
  for (const LatencyHistogram::Bucket& b : h.buckets)
    buckets.push_back({{"low_ns", b.low_ns}, {"high_ns", b.high_ns}, {"count", b.count}});
  return {{"stream", h.stream}, {"samples", h.samples}, {"buckets", buckets}};
}

LatencyHistogram latency_histogram_from_json(const json& j) {
  LatencyHistogram h;
  const auto read = reader(j);
  read("stream", h.stream);
  read("samples", h.samples);
  read_items(j, "buckets", h.buckets, [](const json& b) {
    LatencyHistogram::Bucket bucket;
    const auto field = reader(b);
    field("low_ns", bucket.low_ns);
    field("high_ns", bucket.high_ns);
    field("count", bucket.count);
    return bucket;
  });
  return h;
}

}  // namespace lr::api
