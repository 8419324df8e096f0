#include "lib/profile/switch_spec_json.hpp"

#include "lib/api/json_fields.hpp"
#include "lib/profile/json_table.hpp"
#include "lib/profile/load_toml.hpp"
#include "lib/profile/quantity.hpp"
#include "lib/profile/switch_table.hpp"

namespace lr::profile {

using nlohmann::json;

namespace {

json port_json(const api::SwitchPortSpec& p) {
  json out = api::write_fields(p, LR_JSON_FIELDS(name, device));
  if (p.speed_bps != 0) out["speed"] = link_speed_text(p.speed_bps);
  if (p.shape) out["shape"] = rate_text(*p.shape);
  return out;
}

}  // namespace

json to_json(const api::SwitchSpec& sw) {
  json ports = json::array();
  for (const api::SwitchPortSpec& p : sw.ports) ports.push_back(port_json(p));
  json out = api::write_fields(sw, LR_JSON_FIELDS(name, pfc_quanta, seed));
  out["ports"] = std::move(ports);
  out["forward"] = sw.learn ? json("learn") : json(sw.forward);
  out["classify"] = sw.classify == api::SwitchClassify::kDscp ? "dscp" : "pcp";
  out["lossless"] = priority_list(sw.lossless);
  // The profile's keys for sizes and times drop the member's unit.
  out["buffer"] = sw.buffer_bytes;
  out["queue_limit"] = sw.queue_limit_bytes;
  out["xoff"] = sw.xoff_bytes;
  out["xon"] = sw.xon_bytes;
  out["headroom"] = sw.headroom_bytes;
  out["pfc_refresh"] = sw.pfc_refresh_ns == 0 ? "auto" : duration_text(sw.pfc_refresh_ns);
  out["pause_reaction"] = duration_text(sw.pause_reaction_ns);
  if (sw.lcore) out["lcore"] = *sw.lcore;
  if (sw.learn) {
    out["mac_table_size"] = sw.mac_table_size;
    if (sw.learn_rate != 0) out["learn_rate"] = sw.learn_rate;
    out["mac_age"] = sw.mac_age_ns == 0 ? "off" : duration_text(sw.mac_age_ns);
  }
  out["queueing"] = sw.input_queued ? "input" : "output";
  if (sw.max_frame_bytes != 0) out["max_frame"] = sw.max_frame_bytes;
  out["catch_up"] = duration_text(sw.catch_up_ns);
  if (sw.classify == api::SwitchClassify::kDscp) out["dscp_to_priority"] = dscp_map_json(sw.dscp_to_priority);
  if (sw.pfc_honour) out["pfc_honour"] = priority_list(*sw.pfc_honour);
  if (sw.pause_honour) out["pause_honour"] = *sw.pause_honour;
  if (sw.ecn) out["ecn"] = {{"kmin", sw.ecn_kmin_bytes}, {"kmax", sw.ecn_kmax_bytes}, {"pmax", sw.ecn_pmax}};
  if (sw.watchdog)
    out["watchdog"] = {{"detect", duration_text(sw.watchdog_detect_ns)},
                       {"restore", duration_text(sw.watchdog_restore_ns)},
                       {"action", sw.watchdog_forward ? "forward" : "drop"}};
  return out;
}

api::SwitchSpec switch_spec_from_json(const json& sw, const std::string& where) {
  return read_json_section(sw, where, "switch", "a [[switch]] table's keys", read_switch);
}

}  // namespace lr::profile
