#include "dataplane/profile/port_spec_json.hpp"

#include "dataplane/profile/json_table.hpp"
#include "dataplane/profile/load_toml.hpp"
#include "dataplane/profile/port_table.hpp"
#include "dataplane/profile/quantity.hpp"

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
  json out{{"name", p.name},
           {"device", p.device},
           {"rx_queues", p.rx_queues},
           {"tx_queues", p.tx_queues},
           {"rx_descriptors", p.rx_descriptors},
           {"tx_descriptors", p.tx_descriptors},
           {"promiscuous", p.promiscuous},
           {"checksum_offload", p.checksum_offload},
           {"pfc_honour", p.pfc_honour},
           {"mac_control_tx", mac_control_tx_name(p.mac_control_tx)},
           {"flow_isolate", p.flow_isolate},
           {"keep", p.keep}};
  if (p.mtu != 0) out["mtu"] = p.mtu;
  if (p.speed_bps != 0) out["speed"] = link_speed_text(p.speed_bps);
  if (!p.rx_lcores.empty()) out["rx_lcores"] = p.rx_lcores;
  if (!p.tx_lcores.empty()) out["tx_lcores"] = p.tx_lcores;
  if (p.autoneg) out["autoneg"] = *p.autoneg;
  if (!p.fec.empty()) out["fec"] = p.fec;
  if (!p.pause.empty()) out["pause"] = p.pause;
  if (p.pfc_priorities) out["pfc"] = *p.pfc_priorities;
  if (p.pfc_reaction_delay_quanta) out["pfc_reaction_delay"] = *p.pfc_reaction_delay_quanta;
  else if (p.pfc_reaction_delay_ns != 0) out["pfc_reaction_delay"] = duration_text(p.pfc_reaction_delay_ns);
  if (!p.dscp_to_priority.empty()) out["dscp_to_priority"] = dscp_map_json(p.dscp_to_priority);
  if (!p.flow_rules.empty()) out["flow_rules"] = p.flow_rules;
  return out;
}

api::PortSpec port_spec_from_json(const json& port, const std::string& where) {
  api::PortSpec spec = read_json_section(port, where, "port", "a [[port]] table's keys", read_port);
  spec.key_locs.clear();
  return spec;
}

}  // namespace lr::profile
