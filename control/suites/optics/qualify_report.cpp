#include "control/suites/optics/qualify_report.hpp"

#include <algorithm>

#include "lib/api/json_fields.hpp"

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

namespace {

// What the report's readers take back; the verdicts go by name.
constexpr auto criterion_fields = LR_JSON_FIELDS(name, measured, bound, note, value);
constexpr auto sample_fields = LR_JSON_FIELDS(t_s, link_up, counters);
constexpr auto monitor_fields = LR_JSON_FIELDS(name, unit, value);
constexpr auto module_fields = LR_JSON_FIELDS(identifier, vendor, part, revision, serial, date_code);
constexpr auto port_fields = LR_JSON_FIELDS(port, unmeasured, module_error);

Verdict verdict_in(const json& j) {
  std::string name;
  api::reader(j)("verdict", name);
  return verdict_from_name(name);
}

QualifiedPort::Sample sample_from_json(const json& j) {
  auto s = api::read_fields<QualifiedPort::Sample>(j, sample_fields);
  api::read_field_items(j, "monitors", s.monitors, monitor_fields);
  return s;
}

QualifiedPort qualified_port_from_json(const json& j) {
  auto p = api::read_fields<QualifiedPort>(j, port_fields);
  p.verdict = verdict_in(j);
  if (const auto module = j.find("module"); module != j.end() && module->is_object())
    p.module = api::read_fields<QualifiedPort::Module>(*module, module_fields);
  api::read_items(j, "criteria", p.criteria, criterion_from_json);
  api::read_items(j, "samples", p.samples, sample_from_json);
  return p;
}

}  // namespace

Criterion criterion_from_json(const json& j) {
  auto c = api::read_fields<Criterion>(j, criterion_fields);
  c.verdict = verdict_in(j);
  return c;
}

std::vector<QualifiedPort> qualified_ports_from_json(const json& report) {
  std::vector<QualifiedPort> out;
  api::read_items(report, "ports", out, qualified_port_from_json);
  return out;
}

}  // namespace lr::optics
