#include "dataplane/api/port_control_report.hpp"

#include <nlohmann/json.hpp>

#include "dataplane/api/json_fields.hpp"

namespace lr::api {

using nlohmann::json;

namespace {

// The JSON names, written once: to_json and the readers both walk these lists.
template <class S, class Fn>
void served_fields(S& s, Fn&& fn) {
  fn("port", s.port);
  fn("backend", s.backend);
}

template <class L, class Fn>
void link_fields(L& l, Fn&& fn) {
  fn("netdev", l.served.netdev);
  fn("up", l.up);
  fn("speed_mbps", l.speed_mbps);
  fn("full_duplex", l.full_duplex);
  fn("autoneg", l.autoneg);
  fn("supported", l.supported);
  fn("advertised", l.advertised);
  fn("partner", l.partner);
}

template <class P, class Fn>
void pause_fields(P& p, Fn&& fn) {
  fn("mode", p.mode);
  fn("rx", p.rx);
  fn("tx", p.tx);
  fn("autoneg", p.autoneg);
}

template <class P, class Fn>
void pfc_fields(P& p, Fn&& fn) {
  fn("priorities", p.priorities);
  fn("capable_tcs", p.capable_tcs);
  fn("requests", p.requests);
  fn("indications", p.indications);
}

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
    r.capability.push_back({c.value("speed_mbps", 0u), c.value("modes", std::vector<std::string>{})});
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

}  // namespace lr::api
