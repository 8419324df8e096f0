#include "dataplane/api/lcore_report.hpp"

#include <nlohmann/json.hpp>

#include "dataplane/api/json_fields.hpp"

namespace lr::api {

using nlohmann::json;

namespace {

// The JSON names, written once: to_json and the reader both walk these lists.
constexpr auto lane_fields = [](auto& l, auto&& fn) {
  fn("stream", l.stream);
  fn("lane", l.lane);
  fn("port_id", l.port_id);
  fn("queue", l.queue);
  fn("tx_packets", l.tx_packets);
  fn("tx_queue_full", l.tx_queue_full);
  fn("alloc_failures", l.alloc_failures);
  fn("done", l.done);
};

constexpr auto rx_queue_fields = [](auto& q, auto&& fn) {
  fn("port_id", q.port_id);
  fn("queue", q.queue);
  fn("rx_packets", q.rx_packets);
  fn("rx_bytes", q.rx_bytes);
  fn("rx_no_signature", q.rx_no_signature);
};

}  // namespace

json to_json(const LcoreReport& l) {
  return {{"lcore", l.lcore},
          {"socket", l.socket},
          {"tx_lanes", write_items(l.tx_lanes, lane_fields)},
          {"rx_queues", write_items(l.rx_queues, rx_queue_fields)}};
}

LcoreReport lcore_report_from_json(const json& j) {
  LcoreReport l{j.value("lcore", 0u), j.value("socket", 0), {}, {}};
  read_field_items(j, "tx_lanes", l.tx_lanes, lane_fields);
  read_field_items(j, "rx_queues", l.rx_queues, rx_queue_fields);
  return l;
}

}  // namespace lr::api
