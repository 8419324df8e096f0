#include "control/optics/qualify_report.hpp"

#include <algorithm>

#include "dataplane/api/json_fields.hpp"

namespace lr::optics {

using nlohmann::json;

json criterion_json(const Criterion& c) {
  return {{"name", c.name},         {"verdict", verdict_name(c.verdict)},
          {"measured", c.measured}, {"bound", c.bound},
          {"note", c.note},         {"value", c.value ? json(*c.value) : json(nullptr)}};
}

namespace {

json module_json(const PortEvidence& e) {
  if (!e.module) return nullptr;
  const module::ModuleIdentity& id = module_identity(*e.module);
  return {{"identifier", id.identifier_name}, {"vendor", id.vendor_name},     {"part", id.vendor_pn},
          {"revision", id.vendor_rev},        {"serial", id.vendor_sn},       {"date_code", id.date_code},
          {"compliance", id.compliance},      {"wavelength_nm", id.wavelength_nm},
          {"checksum_problem", module::checksum_problem(*e.module)}};
}

json sample_json(const QualifySample& first, const QualifySample& s) {
  json counters = json::object();
  for (const auto& [name, value] : s.counters) counters[name] = counter_delta(first, s, name);
  json monitors = json::array();
  for (const module::Monitor& m : s.monitors) monitors.push_back({{"name", m.name}, {"unit", m.unit}, {"value", m.value}});
  return {{"t_s", s.t_s}, {"link_up", s.link_up}, {"speed_mbps", s.speed_mbps}, {"counters", counters}, {"monitors", monitors}};
}

// The module's thresholds once, from the first sample that has monitors.
json thresholds_json(const PortEvidence& e) {
  json out = json::array();
  for (const QualifySample& s : e.samples) {
    if (s.monitors.empty()) continue;
    for (const module::Monitor& m : s.monitors)
      out.push_back({{"name", m.name},
                     {"unit", m.unit},
                     {"high_alarm", m.high_alarm},
                     {"low_alarm", m.low_alarm},
                     {"high_warning", m.high_warning},
                     {"low_warning", m.low_warning},
                     {"set", m.has_thresholds()}});
    break;
  }
  return out;
}

}  // namespace

json port_result_json(const PortEvidence& e, const PortVerdict& v) {
  json criteria = json::array();
  for (const Criterion& c : v.criteria) criteria.push_back(criterion_json(c));
  json samples = json::array();
  for (const QualifySample& s : e.samples) samples.push_back(sample_json(e.samples.front(), s));
  json drops = json::array();
  for (const LinkDrop& d : e.link_drops) drops.push_back({{"t_s", d.t_s}, {"at", d.at}, {"seen_by", d.seen_by}});
  return {{"port", e.port},
          {"verdict", verdict_name(v.verdict)},
          {"unmeasured", v.unmeasured},
          {"module", module_json(e)},
          {"module_error", e.module_error},
          {"thresholds", thresholds_json(e)},
          {"before", {{"link_up", e.link_up},
                      {"speed_bps", e.speed_bps},
                      {"lanes", e.lanes},
                      {"fec_active", e.fec_active.empty() ? json(nullptr) : json(e.fec_active)},
                      {"fec_error", e.fec_error}}},
          {"traffic", {{"streams_received", e.streams_received},
                       {"frames_sent", e.frames_sent},
                       {"frames_received", e.frames_received},
                       {"frames_lost", e.frames_lost},
                       {"target_pps", e.target_pps},
                       {"achieved_pps", e.achieved_pps}}},
          {"bits", v.bits},
          {"seconds_up", v.seconds_up},
          {"link_drops", drops},
          {"criteria", criteria},
          {"samples", samples}};
}

const Criterion* QualifiedPort::criterion(const std::string& name) const {
  const auto it = std::find_if(criteria.begin(), criteria.end(), [&](const Criterion& c) { return c.name == name; });
  return it == criteria.end() ? nullptr : &*it;
}

Verdict verdict_from_name(const std::string& name) {
  for (const Verdict v : {Verdict::kPass, Verdict::kWarn, Verdict::kFail, Verdict::kSkipped})
    if (name == verdict_name(v)) return v;
  return Verdict::kIncomplete;
}

Criterion criterion_from_json(const json& j) {
  Criterion c;
  const auto read = api::reader(j);
  read("name", c.name);
  std::string verdict;
  read("verdict", verdict);
  c.verdict = verdict_from_name(verdict);
  read("measured", c.measured);
  read("bound", c.bound);
  read("note", c.note);
  read("value", c.value);
  return c;
}

namespace {

QualifiedPort::Sample sample_from_json(const json& j) {
  QualifiedPort::Sample s;
  const auto read = api::reader(j);
  read("t_s", s.t_s);
  read("link_up", s.link_up);
  read("counters", s.counters);
  api::read_items(j, "monitors", s.monitors, [](const json& m) {
    QualifiedPort::Monitor out;
    const auto field = api::reader(m);
    field("name", out.name);
    field("unit", out.unit);
    field("value", out.value);
    return out;
  });
  return s;
}

QualifiedPort qualified_port_from_json(const json& j) {
  QualifiedPort p;
  const auto read = api::reader(j);
  read("port", p.port);
  std::string verdict;
  read("verdict", verdict);
  p.verdict = verdict_from_name(verdict);
  read("unmeasured", p.unmeasured);
  read("module_error", p.module_error);
  if (const auto module = j.find("module"); module != j.end() && module->is_object()) {
    QualifiedPort::Module& m = p.module.emplace();
    const auto field = api::reader(*module);
    field("identifier", m.identifier);
    field("vendor", m.vendor);
    field("part", m.part);
    field("revision", m.revision);
    field("serial", m.serial);
    field("date_code", m.date_code);
  }
  api::read_items(j, "criteria", p.criteria, criterion_from_json);
  api::read_items(j, "samples", p.samples, sample_from_json);
  return p;
}

}  // namespace

std::vector<QualifiedPort> qualified_ports_from_json(const json& report) {
  std::vector<QualifiedPort> out;
  api::read_items(report, "ports", out, qualified_port_from_json);
  return out;
}

}  // namespace lr::optics
