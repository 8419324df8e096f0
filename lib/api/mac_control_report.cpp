#include "lib/api/mac_control_report.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <regex>

#include "lib/api/json_fields.hpp"
#include "lib/api/run_report.hpp"

namespace lr::api {

using nlohmann::json;

namespace {

constexpr auto class_fields = LR_JSON_FIELDS(xoff, xon, quanta, pause_ns);

constexpr auto mac_control_fields = LR_JSON_FIELDS(pfc_frames, pause_frames, other_frames, first_s, last_s);
constexpr auto mac_control_netdev_fields = LR_JSON_FIELDS(netdev, frames_sent, send_failures, last_error);
constexpr auto nic_pause_fields = LR_JSON_FIELDS(priority, rx_frames, tx_frames, rx_duration_us, tx_duration_us);

}  // namespace

std::vector<NicPauseReport> nic_pause_counters(const std::vector<NicCounter>& counters) {
  static const std::regex kPerPriority(R"(^(rx|tx)_pause(_duration_us)?_prio([0-7])$)");
  std::map<int, NicPauseReport> by_priority;
  bool any = false;
  for (const NicCounter& c : counters) {
    std::smatch m;
    if (!c.canonical || !std::regex_match(*c.canonical, m, kPerPriority)) continue;
    const int priority = std::stoi(m[3].str());
    NicPauseReport& r = by_priority[priority];
    r.priority = priority;
    const bool rx = m[1].str() == "rx";
    const bool duration = m[2].matched;
    std::optional<uint64_t>& slot = duration ? (rx ? r.rx_duration_us : r.tx_duration_us) : (rx ? r.rx_frames : r.tx_frames);
    if (!slot) slot = c.value;  // the first source of a counter kept by two (xstats and ethtool -S)
    any = any || c.value != 0;
  }
  std::vector<NicPauseReport> out;
  if (!any) return out;
  for (auto& [priority, r] : by_priority) out.push_back(r);
  return out;
}

json to_json(const PauseClassReport& c) {
  json j = json::object();
  if (c.priority >= 0) j["priority"] = c.priority;
  class_fields(c, writer(j));
  return j;
}

namespace {

// A class's priority is -1 for PAUSE, and left out then.
PauseClassReport pause_class_from_json(const json& j) {
  PauseClassReport c;
  c.priority = j.value("priority", -1);
  class_fields(c, reader(j));
  return c;
}

// Its PFC classes (always written, [] when none came) and its PAUSE class (when one came).
constexpr auto mac_control_parts = [](auto& m, auto&& part) {
  part("pfc", m.pfc, pause_class_from_json, Absent::kNull);
  part("pause", m.pause, pause_class_from_json);
};

}  // namespace

json to_json(const MacControlReport& m) { return write_with_parts(m, mac_control_fields, mac_control_parts); }
MacControlReport mac_control_from_json(const json& j) {
  return read_with_parts<MacControlReport>(j, mac_control_fields, mac_control_parts);
}

json to_json(const NicPauseReport& n) {
  return write_fields(n, nic_pause_fields, Absent::kLeftOut);  // a counter the NIC does not keep
}

LR_JSON_CODEC(MacControlNetdevReport, mac_control_netdev_from_json, mac_control_netdev_fields)
NicPauseReport nic_pause_from_json(const json& j) { return read_fields<NicPauseReport>(j, nic_pause_fields); }

}  // namespace lr::api
