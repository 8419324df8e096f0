#include "dataplane/api/run_report.hpp"

#include <nlohmann/json.hpp>

#include "dataplane/api/json_fields.hpp"
#include "dataplane/common/line_rate.hpp"

namespace lr::api {

using nlohmann::json;

namespace {

// Each struct's JSON names, written once: to_json and the readers both walk these lists
// (fn(name, member)). Optional and nested fields are handled beside them.
template <class S, class Fn>
void stream_tx_fields(S& s, Fn&& fn) {
  fn("name", s.name);
  fn("tx_port", s.tx_port);
  fn("frame_bytes_mean", s.frame_bytes_mean);
  fn("tx_packets", s.tx_packets);
  fn("tx_bytes", s.tx_bytes);
  fn("tx_pps_achieved", s.tx_pps_achieved);
  fn("tx_l1_bps_achieved", s.tx_l1_bps_achieved);
  fn("tx_queue_full", s.tx_queue_full);
}

template <class S, class Fn>
void stream_rx_fields(S& s, Fn&& fn) {
  fn("rx_packets", s.rx_packets);
  fn("rx_bytes", s.rx_bytes);
  fn("lost", s.lost);
  fn("duplicate", s.duplicate);
  fn("out_of_order", s.out_of_order);
  fn("late", s.late);
  fn("beyond_window", s.beyond_window);
  fn("misdelivered", s.misdelivered);
}

template <class L, class Fn>
void latency_fields(L& l, Fn&& fn) {
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
}

template <class P, class Fn>
void port_identity_fields(P& p, Fn&& fn) {
  fn("name", p.name);
  fn("device", p.device);
  fn("driver", p.driver);
  fn("port_id", p.port_id);
  fn("socket", p.socket);
  fn("link_up", p.link_up);
  fn("link_speed_bps", p.link_speed_bps);
  fn("speed_bps", p.speed_bps);
  fn("speed_from_profile", p.speed_from_profile);
}

template <class P, class Fn>
void port_fields(P& p, Fn&& fn) {
  port_identity_fields(p, fn);
  fn("ipackets", p.counters.ipackets);
  fn("opackets", p.counters.opackets);
  fn("ibytes", p.counters.ibytes);
  fn("obytes", p.counters.obytes);
  fn("imissed", p.counters.imissed);
  fn("ierrors", p.counters.ierrors);
  fn("oerrors", p.counters.oerrors);
  fn("rx_nombuf", p.counters.rx_nombuf);
  fn("rx_no_signature", p.rx_no_signature);
  fn("rx_after_drain", p.rx_after_drain);
}

template <class C, class Fn>
void nic_counter_fields(C& c, Fn&& fn) {
  fn("name", c.name);
  fn("source", c.source);
  fn("value", c.value);
  fn("total", c.total);
}

template <class E, class Fn>
void link_event_fields(E& e, Fn&& fn) {
  fn("at", e.at);
  fn("up", e.up);
  fn("speed_mbps", e.speed_mbps);
  fn("cause", e.cause);
}

template <class C, class Fn>
void setting_change_fields(C& c, Fn&& fn) {
  fn("setting", c.setting);
  fn("before", c.before);
  fn("set_to", c.set_to);
  fn("keep", c.keep);
  fn("restore", c.restore);
  fn("error", c.error);
}

template <class R, class Fn>
void run_fields(R& r, Fn&& fn) {
  fn("profile", r.profile_path);
  fn("started_at", r.started_at);
  fn("duration_s", r.duration_s);
  fn("interrupted", r.interrupted);
  fn("mbufs_not_returned", r.mbufs_not_returned);
  fn("warnings", r.warnings);
}

template <class P, class Fn>
void traffic_fields(P& p, Fn&& fn) {
  fn("name", p.name);
  fn("tx_packets", p.tx_packets);
  fn("tx_bytes", p.tx_bytes);
  fn("rx_packets", p.rx_packets);
  fn("rx_bytes", p.rx_bytes);
}

constexpr const char* kSchema = "linerate.run_report/1";

template <class P, class Fn>
void port_plan_fields(P& p, Fn&& fn) {
  fn("port_id", p.port_id);
  fn("name", p.name);
  fn("device", p.device);
  fn("driver", p.driver);
  fn("socket", p.socket);
  fn("checksum_offload", p.checksum_offload);
  fn("link_up", p.link_up);
  fn("speed_bps", p.speed_bps);
  fn("speed_from_profile", p.speed_from_profile);
  fn("rx_queues", p.rx_queues);
  fn("tx_queues", p.tx_queues);
  fn("rx_not_polled", p.rx_not_polled);
  fn("mac_control_tx", p.mac_control_tx);
}

template <class S, class Fn>
void stream_plan_fields(S& s, Fn&& fn) {
  fn("name", s.name);
  fn("tx_port", s.tx_port);
  fn("frame_bytes_mean", s.frame_bytes_mean);
  fn("target_pps", s.target_pps);
  fn("count", s.count);
  fn("duration_ns", s.duration_ns);
  fn("lanes", s.lanes);
  fn("kind", s.kind);
  fn("roce", s.roce);
  fn("pause_ns", s.pause_ns);
  fn("pfc_honoured", s.pfc_honoured);
  fn("pfc_priority", s.pfc_priority);
}

}  // namespace

void to_json(json& j, const QueuePlan& q) { j = json{{"queue", q.queue}, {"lcore", q.lcore}, {"cross_numa", q.cross_numa}}; }

void from_json(const json& j, QueuePlan& q) {
  j.at("queue").get_to(q.queue);
  j.at("lcore").get_to(q.lcore);
  q.cross_numa = j.value("cross_numa", false);
}

json to_json(const RunPlan& plan) {
  json ports = json::array();
  for (const PortPlan& p : plan.ports) {
    json j = json::object();
    port_plan_fields(p, writer(j));
    ports.push_back(std::move(j));
  }
  json streams = json::array();
  for (const StreamPlan& s : plan.streams) {
    json j = json::object();
    stream_plan_fields(s, writer(j));
    j["rx_port"] = s.rx_port ? json(*s.rx_port) : json(nullptr);
    streams.push_back(std::move(j));
  }
  json out{{"ports", ports}, {"streams", streams}, {"warnings", plan.warnings}};
  if (!plan.switches.empty()) {
    json switches = json::array();
    for (const SwitchPlan& s : plan.switches) switches.push_back(to_json(s));
    out["switches"] = std::move(switches);
  }
  return out;
}

RunPlan run_plan_from_json(const json& j) {
  RunPlan plan;
  for (const json& p : j.value("ports", json::array())) {
    PortPlan port;
    port_plan_fields(port, reader(p));
    plan.ports.push_back(std::move(port));
  }
  for (const json& s : j.value("streams", json::array())) {
    StreamPlan stream;
    stream_plan_fields(stream, reader(s));
    if (const auto it = s.find("rx_port"); it != s.end() && it->is_string()) stream.rx_port = it->get<std::string>();
    plan.streams.push_back(std::move(stream));
  }
  plan.warnings = j.value("warnings", std::vector<std::string>{});
  for (const json& s : j.value("switches", json::array())) plan.switches.push_back(switch_plan_from_json(s));
  return plan;
}

PortCounters PortCounters::operator-(const PortCounters& b) const noexcept {
  return PortCounters{ipackets - b.ipackets, opackets - b.opackets, ibytes - b.ibytes, obytes - b.obytes,
                      imissed - b.imissed,   ierrors - b.ierrors,   oerrors - b.oerrors, rx_nombuf - b.rx_nombuf};
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
    if (s.ecn) {
      j["ecn_ce"] = s.ecn->ce;
      j["ecn_received"] = {{"not_ect", s.ecn->not_ect}, {"ect1", s.ecn->ect1}, {"ect0", s.ecn->ect0}, {"ce", s.ecn->ce}};
    }
    json latency = json::object();
    latency_fields(s.latency, writer(latency));
    j["latency_ns"] = std::move(latency);
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
  return j;
}

TimelineReport timeline_from_json(const json& j) {
  TimelineReport t;
  t.bin_s = j.value("bin_s", 0.0);
  t.tx = j.value("tx", std::vector<uint64_t>{});
  t.rx = j.value("rx", std::vector<uint64_t>{});
  t.tx_after = j.value("tx_after", uint64_t{0});
  t.rx_after = j.value("rx_after", uint64_t{0});
  if (const auto it = j.find("longest_rx_gap"); it != j.end())
    t.longest_rx_gap_s = std::pair{it->value("from_s", 0.0), it->value("to_s", 0.0)};
  return t;
}

json to_json(const NicCounter& c) {
  json j = json::object();
  nic_counter_fields(c, writer(j));
  j["canonical"] = c.canonical ? json(*c.canonical) : json(nullptr);
  return j;
}

json to_json(const LinkEventReport& e) {
  json j = json::object();
  link_event_fields(e, writer(j));
  return j;
}

json to_json(const SettingChange& c) {
  json j = json::object();
  setting_change_fields(c, writer(j));
  return j;
}

SettingChange setting_change_from_json(const json& j) {
  SettingChange c;
  setting_change_fields(c, reader(j));
  return c;
}

json to_json(const PortReport& p) {
  json j = json::object();
  port_fields(p, writer(j));
  if (!p.nic_counters.empty()) {
    json counters = json::array();
    for (const NicCounter& c : p.nic_counters) counters.push_back(to_json(c));
    j["nic_counters"] = std::move(counters);
  }
  if (!p.link_events.empty()) {
    json events = json::array();
    for (const LinkEventReport& e : p.link_events) events.push_back(to_json(e));
    j["link_events"] = std::move(events);
  }
  if (!p.settings_changed.empty()) {
    json changes = json::array();
    for (const SettingChange& c : p.settings_changed) changes.push_back(to_json(c));
    j["settings_changed"] = std::move(changes);
  }
  if (p.mac_control) j["mac_control"] = to_json(*p.mac_control);
  if (p.mac_control_netdev) j["mac_control_netdev"] = to_json(*p.mac_control_netdev);
  if (p.mac_control_timeline) j["mac_control_timeline"] = to_json(*p.mac_control_timeline);
  if (!p.nic_pause.empty()) {
    json pause = json::array();
    for (const NicPauseReport& n : p.nic_pause) pause.push_back(to_json(n));
    j["nic_pause"] = std::move(pause);
  }
  return j;
}

json to_json(const PortTraffic& p) {
  json j = json::object();
  traffic_fields(p, writer(j));
  return j;
}

json to_json(const RunReport& r) {
  json j{{"schema", kSchema}};
  run_fields(r, writer(j));
  json streams = json::array();
  for (const StreamReport& s : r.streams) streams.push_back(to_json(s));
  json ports = json::array();
  for (const PortReport& p : r.ports) ports.push_back(to_json(p));
  j["streams"] = std::move(streams);
  j["ports"] = std::move(ports);
  if (!r.switches.empty()) {
    json switches = json::array();
    for (const SwitchReport& s : r.switches) switches.push_back(to_json(s));
    j["switches"] = std::move(switches);
  }
  json lcores = json::array();
  for (const LcoreStalls& l : r.lcores) lcores.push_back(to_json(l));
  j["lcores"] = std::move(lcores);
  return j;
}

StreamReport stream_report_from_json(const json& j) {
  StreamReport s;
  stream_tx_fields(s, reader(j));
  if (const auto it = j.find("rx_port"); it != j.end() && it->is_string()) s.rx_port = it->get<std::string>();
  if (const auto it = j.find("target_pps"); it != j.end() && it->is_number()) s.target_pps = it->get<double>();
  stream_rx_fields(s, reader(j));
  if (const auto it = j.find("latency_ns"); it != j.end() && it->is_object()) latency_fields(s.latency, reader(*it));
  if (const auto it = j.find("paused_ns"); it != j.end()) s.paused_ns = it->get<uint64_t>();
  if (const auto it = j.find("timeline"); it != j.end()) s.timeline = timeline_from_json(*it);
  if (const auto it = j.find("ecn_received"); it != j.end()) {
    s.ecn = EcnCounts{it->at("not_ect").get<uint64_t>(), it->at("ect1").get<uint64_t>(), it->at("ect0").get<uint64_t>(),
                      it->at("ce").get<uint64_t>()};
  }
  for (const json& c : j.value("rate_changes", json::array())) {
    const json target = c.value("target_pps", json());
    s.rate_changes.push_back({c.at("at_s").get<double>(), target.is_number() ? target.get<double>() : 0.0});
  }
  return s;
}

PortReport port_report_from_json(const json& j) {
  PortReport p;
  port_fields(p, reader(j));
  for (const json& c : j.value("nic_counters", json::array())) p.nic_counters.push_back(nic_counter_from_json(c));
  for (const json& e : j.value("link_events", json::array())) p.link_events.push_back(link_event_from_json(e));
  for (const json& c : j.value("settings_changed", json::array())) p.settings_changed.push_back(setting_change_from_json(c));
  if (const auto it = j.find("mac_control"); it != j.end()) p.mac_control = mac_control_from_json(*it);
  if (const auto it = j.find("mac_control_netdev"); it != j.end()) p.mac_control_netdev = mac_control_netdev_from_json(*it);
  if (const auto it = j.find("mac_control_timeline"); it != j.end()) p.mac_control_timeline = timeline_from_json(*it);
  for (const json& n : j.value("nic_pause", json::array())) p.nic_pause.push_back(nic_pause_from_json(n));
  return p;
}

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

json to_json(const PortCounterView& v) {
  json counters = json::array();
  for (const NicCounter& c : v.counters) counters.push_back(to_json(c));
  return {{"port", v.port}, {"netdev", v.netdev}, {"counters", std::move(counters)}, {"errors", v.errors}};
}

PortCounterView port_counter_view_from_json(const json& j) {
  PortCounterView v;
  const auto read = reader(j);
  read("port", v.port);
  read("netdev", v.netdev);
  read("errors", v.errors);
  read_items(j, "counters", v.counters, nic_counter_from_json);
  return v;
}

LinkEventReport link_event_from_json(const json& e) {
  LinkEventReport event;
  link_event_fields(event, reader(e));
  return event;
}

NicCounter nic_counter_from_json(const json& c) {
  NicCounter counter;
  nic_counter_fields(counter, reader(c));
  if (const auto it = c.find("canonical"); it != c.end() && it->is_string()) counter.canonical = it->get<std::string>();
  return counter;
}

PortTraffic port_traffic_from_json(const json& j) {
  PortTraffic p;
  traffic_fields(p, reader(j));
  return p;
}

RunReport run_report_from_json(const json& j) {
  RunReport r;
  run_fields(r, reader(j));
  for (const json& s : j.value("streams", json::array())) r.streams.push_back(stream_report_from_json(s));
  for (const json& p : j.value("ports", json::array())) r.ports.push_back(port_report_from_json(p));
  for (const json& s : j.value("switches", json::array())) r.switches.push_back(switch_report_from_json(s));
  for (const json& l : j.value("lcores", json::array())) r.lcores.push_back(lcore_stalls_from_json(l));
  return r;
}

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
