#include "control/reports/rfc2889_report.hpp"

#include "lib/api/json_fields.hpp"

namespace lr::bench::rfc2889 {

using nlohmann::json;

namespace {

// Each type's fields, written and read by the same list; an optional is written when set.
constexpr auto counts_fields =
    LR_JSON_FIELDS(tx_frames, rx_frames, lost_frames, loss_percent, offered_fps, forwarded_fps, wrong_port_frames);
constexpr auto point_fields = LR_JSON_FIELDS(load_percent, invalid, local, remote);
constexpr auto address_trial_fields =
    LR_JSON_FIELDS(addresses, learning_rate_fps, invalid, flooded_frames, lost_frames, learning_frames_lost, passed);
constexpr auto port_received_fields = LR_JSON_FIELDS(port, rx_frames, lost_frames, forwarding_rate_fps);
constexpr auto broadcast_latency_fields = LR_JSON_FIELDS(samples, min_ns, mean_ns, p99_ns, max_ns);
constexpr auto path_fields = LR_JSON_FIELDS(stream, tx_frames, rx_frames, lost_frames, loss_percent, offered_fps);
constexpr auto errored_fields = LR_JSON_FIELDS(frame_size, verdict, why, tx_frames, forwarded_frames);
constexpr auto result_fields = LR_JSON_FIELDS(
    test, section, verdict, why, frame_size, points, throughput_search, throughput_percent, throughput_bounds_percent,
    forwarding_rate_at_max_load_fps, max_load_percent, maximum_forwarding_rate_fps,
    maximum_forwarding_rate_load_percent, congested, uncongested, pause_frames_received, head_of_line_blocking,
    backpressure, learning_port, test_port, monitor_port, address_rate_fps, age_time_s, resolution_percent, trials,
    addresses, table_entries, addresses_at_least, learning_rate_fps, learning_rate_at_least_fps, at_least, undersize,
    bad_fcs, oversize, load_percent, tx_frames, ports, forwarding_rate_fps, latency_port, latency, sender_device,
    hosts_device, host_rate_fps, hosts, hosts_at_least, link_down_s, timeline_bin_ms, reresolution, reresolved_min_ms,
    reresolved_median_ms, reresolved_max_ms, hosts_not_reresolved);
constexpr auto reresolution_fields = LR_JSON_FIELDS(host, address, reresolved_ms, lost_frames);
constexpr auto run_fields = LR_JSON_FIELDS(test, label, invalid_reason, report);

template <class T, class Fields>
json written(const T& value, Fields&& fields) {
  return api::write_fields(value, fields, api::Absent::kLeftOut);
}

// The fields present of `j` into `value`; a value not an object reads as the defaults.
template <class T, class Fields>
void read_into(const json& j, T& value, Fields&& fields) {
  if (j.is_object()) fields(value, api::reader(j));
}

// An answer a search did not find is said, as null, not left out.
void null_unless_set(json& j, const char* key) {
  if (!j.contains(key)) j[key] = nullptr;
}

}  // namespace

void to_json(json& j, const FrameCounts& v) { j = written(v, counts_fields); }
void from_json(const json& j, FrameCounts& v) { read_into(j, v, counts_fields); }

void to_json(json& j, const MeshedPoint& v) {
  if (v.invalid) {
    j = {{"load_percent", v.load_percent}, {"invalid", *v.invalid}};
    return;
  }
  j = written(static_cast<const FrameCounts&>(v), counts_fields);
  j.update(written(v, point_fields));
}
void from_json(const json& j, MeshedPoint& v) {
  read_into(j, static_cast<FrameCounts&>(v), counts_fields);
  read_into(j, v, point_fields);
}

void to_json(json& j, const AddressTrialRow& v) {
  if (v.invalid) {
    j = {{"addresses", v.addresses}, {"learning_rate_fps", v.learning_rate_fps}, {"invalid", *v.invalid}};
    return;
  }
  j = written(v, address_trial_fields);
}
void from_json(const json& j, AddressTrialRow& v) { read_into(j, v, address_trial_fields); }

void to_json(json& j, const PortReceived& v) { j = written(v, port_received_fields); }
void from_json(const json& j, PortReceived& v) { read_into(j, v, port_received_fields); }
void to_json(json& j, const BroadcastLatency& v) { j = written(v, broadcast_latency_fields); }
void from_json(const json& j, BroadcastLatency& v) { read_into(j, v, broadcast_latency_fields); }
void to_json(json& j, const PathFigures& v) { j = written(v, path_fields); }
void from_json(const json& j, PathFigures& v) { read_into(j, v, path_fields); }
void to_json(json& j, const HostReresolution& v) {
  j = written(v, reresolution_fields);
  null_unless_set(j, "reresolved_ms");
}
void from_json(const json& j, HostReresolution& v) { read_into(j, v, reresolution_fields); }
void to_json(json& j, const ErroredCheck& v) { j = written(v, errored_fields); }
void from_json(const json& j, ErroredCheck& v) { read_into(j, v, errored_fields); }

json to_json(const Result& r) {
  json j = written(r, result_fields);
  if (r.meshed()) null_unless_set(j, "throughput_percent");
  if (r.trials && r.test == "address_caching" && !r.addresses_at_least) null_unless_set(j, "addresses");
  if (r.trials && r.test == "neighbor_caching" && !r.hosts_at_least) null_unless_set(j, "hosts");
  if (r.trials && r.test == "address_learning" && !r.learning_rate_at_least_fps)
    null_unless_set(j, "learning_rate_fps");
  return j;
}

json to_json(const RunRow& r) { return written(r, run_fields); }

Result rfc2889_result_from_json(const json& j) {
  Result r;
  read_into(j, r, result_fields);
  return r;
}

Rfc2889Report rfc2889_report_from_json(const json& report) {
  Rfc2889Report r;
  if (report.is_object()) api::read_items(report, "results", r.results, rfc2889_result_from_json);
  return r;
}

}  // namespace lr::bench::rfc2889
