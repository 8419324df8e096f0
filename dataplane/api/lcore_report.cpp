#include "dataplane/api/lcore_report.hpp"

#include <nlohmann/json.hpp>

#include "dataplane/api/json_fields.hpp"

namespace lr::api {

using nlohmann::json;

namespace {

// The JSON names, written once: to_json and the reader both walk these lists.
template <class L, class Fn>
void lane_fields(L& l, Fn&& fn) {
  fn("stream", l.stream);
  fn("lane", l.lane);
  fn("port_id", l.port_id);
  fn("queue", l.queue);
  fn("tx_packets", l.tx_packets);
  fn("tx_queue_full", l.tx_queue_full);
  fn("alloc_failures", l.alloc_failures);
  fn("done", l.done);
}

template <class Q, class Fn>
void rx_queue_fields(Q& q, Fn&& fn) {
  fn("port_id", q.port_id);
  fn("queue", q.queue);
  fn("rx_packets", q.rx_packets);
  fn("rx_bytes", q.rx_bytes);
  fn("rx_no_signature", q.rx_no_signature);
}

}  // namespace

json to_json(const LcoreReport& l) {
  json lanes = json::array();
  for (const LaneReport& lane : l.tx_lanes) {
    json j;
    lane_fields(lane, writer(j));
    lanes.push_back(std::move(j));
  }
  json queues = json::array();
  for (const RxQueueReport& q : l.rx_queues) {
    json j;
    rx_queue_fields(q, writer(j));
    queues.push_back(std::move(j));
  }
  return {{"lcore", l.lcore}, {"socket", l.socket}, {"tx_lanes", lanes}, {"rx_queues", queues}};
}

LcoreReport lcore_report_from_json(const json& j) {
  LcoreReport l{j.value("lcore", 0u), j.value("socket", 0), {}, {}};
  for (const json& lane : j.value("tx_lanes", json::array())) {
    LaneReport r;
    lane_fields(r, reader(lane));
    l.tx_lanes.push_back(std::move(r));
  }
  for (const json& queue : j.value("rx_queues", json::array())) {
    RxQueueReport r;
    rx_queue_fields(r, reader(queue));
    l.rx_queues.push_back(std::move(r));
  }
  return l;
}

}  // namespace lr::api
