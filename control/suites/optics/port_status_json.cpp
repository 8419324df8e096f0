#include "control/suites/optics/port_status_json.hpp"

#include <cmath>

namespace lr::optics {

using nlohmann::json;

namespace {

json module_json(const ModuleReading& m, uint64_t changes) {
  json monitors = json::array();
  json thresholds = json::object();
  for (const module::Monitor& monitor : m.monitors) {
    const MonitorName name = split_monitor_name(monitor.name);
    json entry{{"quantity", name.quantity},
               {"value", monitor.value},
               {"unit", monitor.unit},
               {"alarm_flag", monitor.alarm_flag},
               {"warning_flag", monitor.warning_flag},
               {"beyond", monitor.beyond()}};
    if (name.lane != 0) entry["lane"] = name.lane;
    if (monitor.unit == "mW" && monitor.value > 0) entry["dbm"] = module::mw_to_dbm(monitor.value);
    monitors.push_back(std::move(entry));
    if (monitor.has_thresholds() && !thresholds.contains(name.quantity))
      thresholds[name.quantity] = {{"unit", monitor.unit},
                                   {"high_alarm", monitor.high_alarm},
                                   {"high_warning", monitor.high_warning},
                                   {"low_warning", monitor.low_warning},
                                   {"low_alarm", monitor.low_alarm}};
  }
  json out{{"type", m.type},     {"vendor", m.vendor}, {"part", m.part},       {"revision", m.revision},
           {"serial", m.serial}, {"changes", changes}, {"monitors", monitors}, {"thresholds", thresholds}};
  if (!m.checksum_problem.empty()) out["checksum_problem"] = m.checksum_problem;
  return out;
}

void counter_into(json& out, const char* key, const PortReading& r, const std::string& name) {
  if (const auto at = r.counters.find(name); at != r.counters.end()) out[key] = at->second;
}

json fec_json(const PortStatus& s) {
  const PortReading& r = *s.reading;
  json fec = json::object();
  counter_into(fec, "corrected_codewords", r, "fec_corrected_blocks");
  counter_into(fec, "uncorrectable_codewords", r, "fec_uncorrectable_blocks");
  counter_into(fec, "corrected_bits", r, "fec_corrected_bits");
  if (s.corrected_per_s) fec["corrected_per_second"] = *s.corrected_per_s;
  if (s.uncorrectable_per_s) fec["uncorrectable_per_second"] = *s.uncorrectable_per_s;
  if (s.pre_fec_ber) {
    fec["pre_fec_ber"] = *s.pre_fec_ber;
    fec["pre_fec_ber_method"] = ber_method_name(s.ber_method);
  }
  return fec;
}

}  // namespace

json port_status_json(const PortStatus& s) {
  json out{{"port", s.port}, {"current", s.current}, {"time", s.time_s}};
  if (s.reading) out["source"] = s.reading->source;
  // A read that did not arrive has nothing of its own: the last one's values are not repeated.
  if (!s.current) {
    out["missed"] = s.missed;
    return out;
  }
  const PortReading& r = *s.reading;
  json link{{"flaps", s.flaps}};
  if (r.link_up) link["up"] = *r.link_up;
  if (r.speed_bps > 0) link["speed_bps"] = r.speed_bps;
  if (s.last_change_s > 0) link["last_change"] = s.last_change_s;
  out["link"] = link;
  out["module"] = r.module ? module_json(*r.module, s.module_changes) : json(nullptr);
  out["fec"] = fec_json(s);
  counter_into(out, "symbol_errors", r,
               r.counters.contains("rx_symbol_errors") ? "rx_symbol_errors" : "rx_pcs_symbol_errors");
  out["unsupported"] = r.unsupported;
  out["problems"] = r.problems;
  return out;
}

}  // namespace lr::optics
