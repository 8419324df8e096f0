#include "dataplane/api/mac_control_report.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <regex>

#include "dataplane/api/run_report.hpp"

namespace lr::api {

using nlohmann::json;

namespace {

constexpr auto class_fields = [](auto& c, auto&& fn) {
  fn("xoff", c.xoff);
  fn("xon", c.xon);
  fn("quanta", c.quanta);
  fn("pause_ns", c.pause_ns);
};

constexpr auto mac_control_fields = [](auto& m, auto&& fn) {
  fn("pfc_frames", m.pfc_frames);
  fn("pause_frames", m.pause_frames);
  fn("other_frames", m.other_frames);
  fn("first_s", m.first_s);
  fn("last_s", m.last_s);
};

// Optional counters: written when known, read back when present.
void put(json& j, const char* key, const std::optional<uint64_t>& v) {
  if (v) j[key] = *v;
}
void get(const json& j, const char* key, std::optional<uint64_t>& v) {
  if (const auto it = j.find(key); it != j.end()) v = it->get<uint64_t>();
}

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
  class_fields(c, [&](const char* key, const auto& v) { j[key] = v; });
  return j;
}

json to_json(const MacControlReport& m) {
  json j = json::object();
  mac_control_fields(m, [&](const char* key, const auto& v) { j[key] = v; });
  json pfc = json::array();
  for (const PauseClassReport& c : m.pfc) pfc.push_back(to_json(c));
  j["pfc"] = std::move(pfc);
  if (m.pause) j["pause"] = to_json(*m.pause);
  return j;
}

json to_json(const NicPauseReport& n) {
  json j{{"priority", n.priority}};
  put(j, "rx_frames", n.rx_frames);
  put(j, "tx_frames", n.tx_frames);
  put(j, "rx_duration_us", n.rx_duration_us);
  put(j, "tx_duration_us", n.tx_duration_us);
  return j;
}

namespace {
PauseClassReport pause_class_from_json(const json& j) {
  PauseClassReport c;
  c.priority = j.value("priority", -1);
  class_fields(c, [&](const char* key, auto& v) {
    if (const auto it = j.find(key); it != j.end()) it->get_to(v);
  });
  return c;
}
}  // namespace

MacControlReport mac_control_from_json(const json& j) {
  MacControlReport m;
  mac_control_fields(m, [&](const char* key, auto& v) {
    if (const auto it = j.find(key); it != j.end()) it->get_to(v);
  });
  for (const json& c : j.value("pfc", json::array())) m.pfc.push_back(pause_class_from_json(c));
  if (const auto it = j.find("pause"); it != j.end()) m.pause = pause_class_from_json(*it);
  return m;
}

json to_json(const MacControlNetdevReport& n) {
  return json{{"netdev", n.netdev}, {"frames_sent", n.frames_sent}, {"send_failures", n.send_failures},
              {"last_error", n.last_error}};
}

MacControlNetdevReport mac_control_netdev_from_json(const json& j) {
  return {j.value("netdev", std::string()), j.value("frames_sent", uint64_t{0}), j.value("send_failures", uint64_t{0}),
          j.value("last_error", std::string())};
}

NicPauseReport nic_pause_from_json(const json& j) {
  NicPauseReport n;
  n.priority = j.value("priority", 0);
  get(j, "rx_frames", n.rx_frames);
  get(j, "tx_frames", n.tx_frames);
  get(j, "rx_duration_us", n.rx_duration_us);
  get(j, "tx_duration_us", n.tx_duration_us);
  return n;
}

}  // namespace lr::api
