#include "lib/api/lcore_report.hpp"

#include <nlohmann/json.hpp>

#include "lib/api/json_fields.hpp"

namespace lr::api {

using nlohmann::json;

namespace {

// The JSON names, written once: to_json and the reader both walk these lists.
constexpr auto lane_fields = LR_JSON_FIELDS(stream, lane, port_id, queue, tx_packets, tx_queue_full, alloc_failures,
                                            done);

constexpr auto rx_queue_fields = LR_JSON_FIELDS(port_id, queue, rx_packets, rx_bytes, rx_no_signature);

}  // namespace

json to_json(const LcoreReport& l) {
  return {{"lcore", l.lcore},
          {"socket", l.socket},
          {"tx_lanes", write_items(l.tx_lanes, lane_fields)},
          {"rx_queues", write_items(l.rx_queues, rx_queue_fields)}};
}

LcoreReport lcore_report_from_json(const json& j) {
  LcoreReport l{value_checked(j, "lcore", 0u), value_checked(j, "socket", 0), {}, {}};
  read_field_items(j, "tx_lanes", l.tx_lanes, lane_fields);
  read_field_items(j, "rx_queues", l.rx_queues, rx_queue_fields);
  return l;
}

}  // namespace lr::api
