#include "lib/api/run_report.hpp"

#include <nlohmann/json.hpp>

#include "lib/api/json_fields.hpp"
#include "lib/common/line_rate.hpp"

namespace lr::api {

using nlohmann::json;

namespace {

// Each struct's JSON names, written once: to_json and the readers both walk these lists
// (fn(name, member)), and its parts lists (nested arrays and objects).
constexpr auto stream_tx_fields = LR_JSON_FIELDS(name, tx_port, frame_bytes_mean, tx_packets, tx_bytes, tx_pps_achieved,
                                                 tx_l1_bps_achieved, tx_queue_full, tx_forgone);

constexpr auto stream_rx_fields = LR_JSON_FIELDS(rx_packets, rx_bytes, lost, duplicate, out_of_order, late,
                                                 beyond_window, misdelivered);

constexpr auto latency_fields = [](auto& l, auto&& fn) {
  fn("samples", l.samples);
  fn("min", l.min_ns);
  fn("mean", l.mean_ns);
  fn("p50", l.p50_ns);
  fn("p90", l.p90_ns);
  fn("p99", l.p99_ns);
  fn("p999", l.p999_ns);
  fn("p9999", l.p9999_ns);
  fn("max", l.max_ns);
  fn("jitter", l.jitter_ns);
};

constexpr auto port_identity_fields = LR_JSON_FIELDS(name, device, driver, port_id, socket, link_up, link_speed_bps,
                                                     speed_bps, speed_from_profile);

constexpr auto port_counter_fields = LR_JSON_FIELDS(ipackets, opackets, ibytes, obytes, imissed, ierrors, oerrors,
                                                    rx_nombuf);

// A port's counters stand at its own level in the report.
constexpr auto port_fields = [](auto& p, auto&& fn) {
  port_identity_fields(p, fn);
  port_counter_fields(p.counters, fn);
  fn("rx_no_signature", p.rx_no_signature);
  fn("rx_after_drain", p.rx_after_drain);
};

constexpr auto nic_counter_fields = LR_JSON_FIELDS(name, source, value, total, canonical);

constexpr auto link_event_fields = LR_JSON_FIELDS(at, up, speed_mbps, cause, run_s);

constexpr auto setting_change_fields = LR_JSON_FIELDS(setting, before, set_to, keep, restore, error);

constexpr auto run_state_fields =
    LR_JSON_FIELDS(started_at, duration_s, interrupted, interrupted_by, mbufs_not_returned, warnings);

constexpr auto run_fields = [](auto& r, auto&& fn) {
  fn("profile", r.profile_path);
  run_state_fields(r, fn);
};

// The arrays and objects of a port and of a run, with their own codecs (part_writer).
constexpr auto port_parts = [](auto& p, auto&& part) {
  part("nic_counters", p.nic_counters, nic_counter_from_json);
  part("link_events", p.link_events, link_event_from_json);
  part("settings_changed", p.settings_changed, setting_change_from_json);
  part("mac_control", p.mac_control, mac_control_from_json);
  part("mac_control_netdev", p.mac_control_netdev, mac_control_netdev_from_json);
  part("mac_control_timeline", p.mac_control_timeline, timeline_from_json);
  part("nic_pause", p.nic_pause, nic_pause_from_json);
};

constexpr auto run_start_fields = LR_JSON_FIELDS(asked_utc_ns, start_utc_ns, first_tx_utc_ns, tsc_utc_error_ns);

constexpr auto run_parts = [](auto& r, auto&& part) {
  part("start", r.start, run_start_from_json);
  part("streams", r.streams, stream_report_from_json, Absent::kNull);
  part("ports", r.ports, port_report_from_json, Absent::kNull);
  part("switches", r.switches, switch_report_from_json);
  part("lcores", r.lcores, lcore_stalls_from_json, Absent::kNull);
  part("captures", r.captures, capture_report_from_json);
  part("neighbors", r.neighbors, one_port_neighbors_from_json);
};

constexpr auto traffic_fields = LR_JSON_FIELDS(name, tx_packets, tx_bytes, rx_packets, rx_bytes);

constexpr auto counter_view_fields = LR_JSON_FIELDS(port, netdev, errors);
constexpr auto counter_view_parts = [](auto& v, auto&& part) {
  part("counters", v.counters, nic_counter_from_json, Absent::kNull);
};

constexpr const char* kSchema = "linerate.run_report/1";

constexpr auto port_plan_fields =
    LR_JSON_FIELDS(port_id, name, device, driver, socket, checksum_offload, link_up, speed_bps, speed_from_profile,
                   rx_queues, tx_queues, rx_not_polled, mac_control_tx, hosts_tx_queue);

constexpr auto stream_plan_fields =
    LR_JSON_FIELDS(name, tx_port, frame_bytes_mean, target_pps, count, duration_ns, lanes, kind, roce, pause_ns,
                   pfc_honoured, pfc_priority, receive_only);

}  // namespace

void to_json(json& j, const QueuePlan& q) { j = json{{"queue", q.queue}, {"lcore", q.lcore}, {"cross_numa", q.cross_numa}}; }

void from_json(const json& j, QueuePlan& q) {
  get_checked(j.at("queue"), q.queue);
  get_checked(j.at("lcore"), q.lcore);
  q.cross_numa = j.value("cross_numa", false);
}

json to_json(const RunPlan& plan) {
  json streams = json::array();
  for (const StreamPlan& s : plan.streams) {
    json j = write_fields(s, stream_plan_fields);
    j["rx_port"] = s.rx_port ? json(*s.rx_port) : json(nullptr);
    streams.push_back(std::move(j));
  }
  json out{{"ports", write_items(plan.ports, port_plan_fields)}, {"streams", streams}, {"warnings", plan.warnings}};
  if (!plan.switches.empty()) out["switches"] = json_array(plan.switches);
  if (!plan.tx_buffers.empty()) out["tx_buffers"] = {{"mode", plan.tx_buffers}, {"why", plan.tx_buffers_why}};
  if (!plan.scheduled_lcores.empty()) out["scheduled_lcores"] = plan.scheduled_lcores;
  return out;
}

RunPlan run_plan_from_json(const json& j) {
  RunPlan plan;
  read_field_items(j, "ports", plan.ports, port_plan_fields);
  for (const json& s : j.value("streams", json::array())) {
    StreamPlan stream = read_fields<StreamPlan>(s, stream_plan_fields);
    if (const auto it = s.find("rx_port"); it != s.end() && it->is_string()) stream.rx_port = it->get<std::string>();
    plan.streams.push_back(std::move(stream));
  }
  plan.warnings = j.value("warnings", std::vector<std::string>{});
  for (const json& s : j.value("switches", json::array())) plan.switches.push_back(switch_plan_from_json(s));
  if (const auto it = j.find("tx_buffers"); it != j.end() && it->is_object()) {
    plan.tx_buffers = it->value("mode", std::string());
    plan.tx_buffers_why = it->value("why", std::string());
  }
  if (const auto it = j.find("scheduled_lcores"); it != j.end()) get_checked(*it, plan.scheduled_lcores);
  return plan;
}

PortCounters PortCounters::operator-(const PortCounters& b) const noexcept {
  return PortCounters{ipackets - b.ipackets, opackets - b.opackets, ibytes - b.ibytes, obytes - b.obytes,
                      imissed - b.imissed,   ierrors - b.ierrors,   oerrors - b.oerrors, rx_nombuf - b.rx_nombuf};
}

std::array<std::pair<const char*, uint64_t>, 8> PortCounters::named() const noexcept {
  std::array<std::pair<const char*, uint64_t>, 8> out;
  size_t i = 0;
  port_counter_fields(*this, [&](const char* name, uint64_t value) { out[i++] = {name, value}; });
  return out;
}

json to_json(const StreamReport& s) {
  json j = json::object();
  stream_tx_fields(s, writer(j));
  j["rx_port"] = s.rx_port ? json(*s.rx_port) : json(nullptr);
  j["target_pps"] = s.target_pps == 0 ? json(nullptr) : json(s.target_pps);  // null: unpaced
  if (!s.rate_changes.empty()) {
    json changes = json::array();
    for (const RateChange& c : s.rate_changes)
      changes.push_back({{"at_s", c.at_s}, {"target_pps", c.target_pps == 0 ? json(nullptr) : json(c.target_pps)}});
    j["rate_changes"] = std::move(changes);
  }
  if (s.paused_ns) j["paused_ns"] = *s.paused_ns;
  if (s.rx_port) {
    stream_rx_fields(s, writer(j));
    if (s.receive_only) {  // the sender's report has what was sent, so what was lost
      j["lost"] = nullptr;
      j["receive_only"] = true;
    }
    if (s.rx_unknown) {
      j["rx_packets"] = j["lost"] = nullptr;
      j["rx_unknown"] = *s.rx_unknown;
    }
    if (s.ecn) {
      j["ecn_ce"] = s.ecn->ce;
      j["ecn_received"] = {{"not_ect", s.ecn->not_ect}, {"ect1", s.ecn->ect1}, {"ect0", s.ecn->ect0}, {"ce", s.ecn->ce}};
    }
    json latency = json::object();
    latency_fields(s.latency, writer(latency));
    j["latency_ns"] = s.latency_withheld ? json(nullptr) : std::move(latency);
    if (s.latency_withheld) j["latency_withheld"] = *s.latency_withheld;
    if (s.latency_bound_ns) j["latency_bound_ns"] = *s.latency_bound_ns;
    if (s.latency_clocks) j["latency_clocks"] = *s.latency_clocks;
  }
  if (s.timeline) j["timeline"] = to_json(*s.timeline);
  return j;
}

std::optional<TimelineGap> longest_gap(const std::vector<uint64_t>& bins) {
  std::optional<TimelineGap> longest;
  std::optional<size_t> last_busy;
  for (size_t i = 0; i < bins.size(); ++i) {
    if (bins[i] == 0) continue;
    if (last_busy && i - *last_busy > 1) {
      const TimelineGap gap{*last_busy + 1, i - *last_busy - 1};
      if (!longest || gap.bins > longest->bins) longest = gap;
    }
    last_busy = i;
  }
  return longest;
}

json to_json(const TimelineReport& t) {
  json j{{"bin_s", t.bin_s}, {"tx", t.tx}, {"rx", t.rx}};
  if (t.tx_after != 0) j["tx_after"] = t.tx_after;
  if (t.rx_after != 0) j["rx_after"] = t.rx_after;
  if (const auto& gap = t.longest_rx_gap_s)
    j["longest_rx_gap"] = {{"from_s", gap->first}, {"to_s", gap->second}, {"s", gap->second - gap->first}};
  if (const auto& span = t.rx_span_s) {
    j["first_rx_s"] = span->first;
    j["last_rx_s"] = span->second;
  }
  return j;
}

TimelineReport timeline_from_json(const json& j) {
  TimelineReport t;
  t.bin_s = j.value("bin_s", 0.0);
  t.tx = value_checked(j, "tx", std::vector<uint64_t>{});
  t.rx = value_checked(j, "rx", std::vector<uint64_t>{});
  t.tx_after = value_checked(j, "tx_after", uint64_t{0});
  t.rx_after = value_checked(j, "rx_after", uint64_t{0});
  if (const auto it = j.find("longest_rx_gap"); it != j.end())
    t.longest_rx_gap_s = std::pair{it->value("from_s", 0.0), it->value("to_s", 0.0)};
  if (j.contains("first_rx_s")) t.rx_span_s = std::pair{j.value("first_rx_s", 0.0), j.value("last_rx_s", 0.0)};
  return t;
}

LR_JSON_CODEC(NicCounter, nic_counter_from_json, nic_counter_fields)
// run_s left out when absent: the events of port.link.history and of earlier runs as before.
json to_json(const LinkEventReport& event) { return write_fields(event, link_event_fields, Absent::kLeftOut); }
LinkEventReport link_event_from_json(const json& j) { return read_fields<LinkEventReport>(j, link_event_fields); }
LR_JSON_CODEC(SettingChange, setting_change_from_json, setting_change_fields)
LR_JSON_CODEC(RunStart, run_start_from_json, run_start_fields)
LR_JSON_CODEC(PortTraffic, port_traffic_from_json, traffic_fields)

json to_json(const PortReport& p) { return write_with_parts(p, port_fields, port_parts); }

json to_json(const RunReport& r) {
  json j = write_with_parts(r, run_fields, run_parts);
  if (!r.interrupted_by) j.erase("interrupted_by");  // a run that ran its course, as before the key
  j["schema"] = kSchema;
  return j;
}

StreamReport stream_report_from_json(const json& j) {
  StreamReport s;
  stream_tx_fields(s, reader(j));
  if (const auto it = j.find("rx_port"); it != j.end() && it->is_string()) s.rx_port = it->get<std::string>();
  if (const auto it = j.find("target_pps"); it != j.end() && it->is_number()) s.target_pps = it->get<double>();
  stream_rx_fields(s, reader(j));
  if (const auto it = j.find("latency_ns"); it != j.end() && it->is_object()) latency_fields(s.latency, reader(*it));
  if (const auto it = j.find("latency_withheld"); it != j.end() && it->is_string())
    s.latency_withheld = it->get<std::string>();
  reader(j)("latency_bound_ns", s.latency_bound_ns);
  if (const auto it = j.find("latency_clocks"); it != j.end() && it->is_string())
    s.latency_clocks = it->get<std::string>();
  s.receive_only = j.value("receive_only", false);
  if (const auto it = j.find("rx_unknown"); it != j.end() && it->is_string()) s.rx_unknown = it->get<std::string>();
  reader(j)("paused_ns", s.paused_ns);
  read_object(j, "timeline", s.timeline, timeline_from_json);
  if (const auto it = j.find("ecn_received"); it != j.end()) {
    const auto count = [&](const char* key) {
      try {
        uint64_t n = 0;
        get_checked(it->at(key), n);
        return n;
      } catch (const json::exception& e) {
        throw_at(std::string("ecn_received.") + key, e);
      }
    };
    s.ecn = EcnCounts{count("not_ect"), count("ect1"), count("ect0"), count("ce")};
  }
  for (const json& c : j.value("rate_changes", json::array())) {
    const json target = c.value("target_pps", json());
    s.rate_changes.push_back({c.at("at_s").get<double>(), target.is_number() ? target.get<double>() : 0.0});
  }
  return s;
}

PortReport port_report_from_json(const json& j) { return read_with_parts<PortReport>(j, port_fields, port_parts); }

json to_json(const PortListing& listing) {
  json j = json::object();
  port_identity_fields(listing.port, writer(j));
  j["owner"] = listing.owner ? json(*listing.owner) : json(nullptr);
  return j;
}

PortListing port_listing_from_json(const json& j) {
  PortListing listing;
  port_identity_fields(listing.port, reader(j));
  if (const auto it = j.find("owner"); it != j.end() && it->is_number_unsigned()) listing.owner = it->get<uint64_t>();
  return listing;
}

json to_json(const PortCounterView& v) { return write_with_parts(v, counter_view_fields, counter_view_parts); }
PortCounterView port_counter_view_from_json(const json& j) {
  return read_with_parts<PortCounterView>(j, counter_view_fields, counter_view_parts);
}

RunReport run_report_from_json(const json& j) { return read_with_parts<RunReport>(j, run_fields, run_parts); }

double l1_bps_of(double pps, uint64_t bytes, uint64_t packets) noexcept {
  if (packets == 0) return 0;
  return l1_bps(pps, static_cast<double>(bytes) / static_cast<double>(packets));
}

PortRate port_rate(const PortTraffic& before, const PortTraffic& after, double seconds) noexcept {
  PortRate r;
  r.name = after.name;
  if (seconds <= 0) return r;
  const auto rate = [seconds](uint64_t packets, uint64_t bytes, double& pps, double& bps) {
    pps = static_cast<double>(packets) / seconds;
    bps = static_cast<double>(bytes + packets * kWireOverheadBytes) * 8.0 / seconds;
  };
  rate(after.tx_packets - before.tx_packets, after.tx_bytes - before.tx_bytes, r.tx_pps, r.tx_l1_bps);
  rate(after.rx_packets - before.rx_packets, after.rx_bytes - before.rx_bytes, r.rx_pps, r.rx_l1_bps);
  return r;
}

}  // namespace lr::api
