#include "lib/api/traffic.hpp"

#include <nlohmann/json.hpp>

#include "lib/api/json_fields.hpp"

namespace lr::api {

using nlohmann::json;

namespace {

constexpr auto traffic_status_fields = LR_JSON_FIELDS(running, tx_finished);
constexpr auto stream_rate_fields = LR_JSON_FIELDS(stream, target_pps);  // target null: unpaced
constexpr auto stream_listing_fields = LR_JSON_FIELDS(name, tx_port, rx_port, frame_bytes_mean, lanes, target_pps);
constexpr auto latency_histogram_fields = LR_JSON_FIELDS(stream, samples);
constexpr auto latency_bucket_fields = LR_JSON_FIELDS(low_ns, high_ns, count);

}  // namespace

LR_JSON_CODEC(TrafficStatus, traffic_status_from_json, traffic_status_fields)
LR_JSON_CODEC(StreamRate, stream_rate_from_json, stream_rate_fields)
LR_JSON_CODEC(StreamListing, stream_listing_from_json, stream_listing_fields)

std::vector<std::string> streams_named(const json& answer) {
  for (const char* key : {"streams", "added", "stopped"})
    if (const auto it = answer.find(key); it != answer.end() && it->is_array()) return it->get<std::vector<std::string>>();
  return {};
}

json to_json(const LatencyHistogram& h) {
  json j = write_fields(h, latency_histogram_fields);
  j["buckets"] = write_items(h.buckets, latency_bucket_fields);
  return j;
}

LatencyHistogram latency_histogram_from_json(const json& j) {
  LatencyHistogram h = read_fields<LatencyHistogram>(j, latency_histogram_fields);
  read_field_items(j, "buckets", h.buckets, latency_bucket_fields);
  return h;
}

}  // namespace lr::api
