#include "lib/api/port_control_report.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>

#include "lib/api/json_fields.hpp"

namespace lr::api {

using nlohmann::json;

namespace {

// The JSON names, written once: to_json and the readers both walk these lists.
constexpr auto served_fields = LR_JSON_FIELDS(port, backend);

constexpr auto link_state_fields = LR_JSON_FIELDS(up, speed_mbps, full_duplex, autoneg, supported, advertised, partner);

constexpr auto link_fields = [](auto& l, auto&& fn) {
  fn("netdev", l.served.netdev);
  link_state_fields(l, fn);
};

constexpr auto pause_fields = LR_JSON_FIELDS(mode, rx, tx, autoneg);

constexpr auto pfc_fields = LR_JSON_FIELDS(priorities, capable_tcs, requests, indications);

template <class R, class Fields>
json written(const R& r, Fields fields) {
  json j = json::object();
  served_fields(r.served, writer(j));
  fields(r, writer(j));
  return j;
}

template <class R, class Fields>
R read(const json& j, Fields fields) {
  R r;
  served_fields(r.served, reader(j));
  fields(r, reader(j));
  return r;
}

}  // namespace

json to_json(const LinkReport& r) {
  return written(r, [](const LinkReport& l, auto&& fn) { link_fields(l, fn); });
}

json to_json(const FecReport& r) {
  json j = written(r, [](const FecReport& f, auto&& fn) { fn("configured", f.configured); });
  j["active"] = r.active ? json(*r.active) : json(nullptr);
  json capability = json::array();
  for (const FecCapabilityReport& c : r.capability) capability.push_back({{"speed_mbps", c.speed_mbps}, {"modes", c.modes}});
  j["capability"] = std::move(capability);
  return j;
}

json to_json(const PauseReport& r) {
  return written(r, [](const PauseReport& p, auto&& fn) { pause_fields(p, fn); });
}

json to_json(const PfcReport& r) {
  json j = written(r, [](const PfcReport& p, auto&& fn) { pfc_fields(p, fn); });
  if (r.read_back) j["read_back"] = *r.read_back;
  return j;
}

LinkReport link_report_from_json(const json& j) {
  return read<LinkReport>(j, [](LinkReport& l, auto&& fn) { link_fields(l, fn); });
}

FecReport fec_report_from_json(const json& j) {
  FecReport r = read<FecReport>(j, [](FecReport& f, auto&& fn) { fn("configured", f.configured); });
  if (const auto it = j.find("active"); it != j.end() && it->is_string()) r.active = it->get<std::string>();
  for (const json& c : j.value("capability", json::array()))
    r.capability.push_back({value_checked(c, "speed_mbps", 0u), c.value("modes", std::vector<std::string>{})});
  return r;
}

PauseReport pause_report_from_json(const json& j) {
  return read<PauseReport>(j, [](PauseReport& p, auto&& fn) { pause_fields(p, fn); });
}

PfcReport pfc_report_from_json(const json& j) {
  PfcReport r = read<PfcReport>(j, [](PfcReport& p, auto&& fn) { pfc_fields(p, fn); });
  if (const auto it = j.find("read_back"); it != j.end() && it->is_boolean()) r.read_back = it->get<bool>();
  return r;
}

json to_json(const ModuleEeprom& e) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(e.bytes.size() * 2);
  for (const uint8_t b : e.bytes) hex += {kDigits[b >> 4], kDigits[b & 0xf]};
  return {{"port", e.port}, {"backend", e.backend}, {"size", e.bytes.size()}, {"eeprom_hex", hex}};
}

ModuleEeprom module_eeprom_from_json(const json& j) {
  ModuleEeprom e = read_fields<ModuleEeprom>(j, served_fields);
  std::string hex;
  reader(j)("eeprom_hex", hex);
  const auto digit = [&](size_t at) {
    const char c = hex[at];
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::invalid_argument("eeprom_hex: '" + std::string(1, c) + "' at " + std::to_string(at) + " is not a hex digit");
  };
  if (hex.size() % 2 != 0) throw std::invalid_argument("eeprom_hex: an odd number of hex digits");
  for (size_t i = 0; i < hex.size(); i += 2) e.bytes.push_back(static_cast<uint8_t>(digit(i) << 4 | digit(i + 1)));
  return e;
}

}  // namespace lr::api
