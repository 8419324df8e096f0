#include "lib/profile/port_spec_json.hpp"

#include "lib/api/json_fields.hpp"
#include "lib/profile/json_table.hpp"
#include "lib/profile/load_toml.hpp"
#include "lib/profile/port_table.hpp"
#include "lib/profile/quantity.hpp"

namespace lr::profile {

using nlohmann::json;

namespace {

const char* mac_control_tx_name(api::MacControlTx tx) {
  switch (tx) {
    case api::MacControlTx::kPmd: return "pmd";
    case api::MacControlTx::kNetdev: return "netdev";
    case api::MacControlTx::kAuto: break;
  }
  return "auto";
}

}  // namespace

json to_json(const api::PortSpec& p) {
  json out = api::write_fields(p, LR_JSON_FIELDS(name, device, rx_queues, tx_queues, rx_descriptors, tx_descriptors,
                                                 promiscuous, checksum_offload, pfc_honour, flow_isolate, keep));
  out["mac_control_tx"] = mac_control_tx_name(p.mac_control_tx);
  if (p.mtu != 0) out["mtu"] = p.mtu;
  if (p.speed_bps != 0) out["speed"] = link_speed_text(p.speed_bps);
  if (!p.rx_lcores.empty()) out["rx_lcores"] = p.rx_lcores;
  if (!p.tx_lcores.empty()) out["tx_lcores"] = p.tx_lcores;
  if (p.autoneg) out["autoneg"] = *p.autoneg;
  if (p.fec) out["fec"] = name_of(*p.fec);
  if (p.pause) out["pause"] = name_of(*p.pause);
  if (p.pfc_priorities) out["pfc"] = *p.pfc_priorities;
  if (p.pfc_reaction_delay_quanta) out["pfc_reaction_delay"] = *p.pfc_reaction_delay_quanta;
  else if (p.pfc_reaction_delay_ns != 0) out["pfc_reaction_delay"] = duration_text(p.pfc_reaction_delay_ns);
  if (!p.dscp_to_priority.empty()) out["dscp_to_priority"] = dscp_map_json(p.dscp_to_priority);
  if (!p.flow_rules.empty()) out["flow_rules"] = p.flow_rules;
  return out;
}

api::PortSpec port_spec_from_json(const json& port, const std::string& where) {
  return read_json_section(port, where, "port", "a [[port]] table's keys", read_port);
}

}  // namespace lr::profile
