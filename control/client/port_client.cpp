#include "control/client/port_client.hpp"

namespace lr::ctl {

using nlohmann::json;

namespace {

json port_param(const std::string& port) { return {{"port", port}}; }

}  // namespace

api::LinkReport PortClient::link(const std::string& port) { return api::link_report_from_json(link_json(port)); }

json PortClient::link_json(const std::string& port) { return client_.call("port.link", port_param(port)); }

api::LinkReport PortClient::set_link_up(const std::string& port, bool up) {
  LinkChange change;
  change.up = up;
  return api::link_report_from_json(set_link_json(port, change));
}

json PortClient::set_link_json(const std::string& port, const LinkChange& change) {
  json params = port_param(port);
  if (change.up) params["up"] = *change.up;
  if (change.autoneg) params["autoneg"] = *change.autoneg;
  if (!change.speed.empty()) params["speed"] = change.speed;
  if (!change.advertise.empty()) params["advertise"] = change.advertise;
  if (change.keep == Keep::kYes) params["keep"] = true;
  return client_.call("port.link.set", params);
}

std::vector<api::LinkEventReport> PortClient::link_history(const std::string& port) {
  std::vector<api::LinkEventReport> out;
  const json history = link_history_json(port);
  for (const json& e : history.value("events", json::array())) out.push_back(api::link_event_from_json(e));
  return out;
}

json PortClient::link_history_json(const std::string& port) {
  return client_.call("port.link.history", port_param(port));
}

api::FecReport PortClient::fec(const std::string& port) { return api::fec_report_from_json(fec_json(port)); }

json PortClient::fec_json(const std::string& port) { return client_.call("port.fec", port_param(port)); }

api::FecReport PortClient::set_fec(const std::string& port, const std::string& mode, Keep keep) {
  return api::fec_report_from_json(set_fec_json(port, mode, keep));
}

json PortClient::set_fec_json(const std::string& port, const std::string& mode, Keep keep) {
  return client_.call("port.fec.set", {{"port", port}, {"mode", mode}, {"keep", keep == Keep::kYes}});
}

json PortClient::pause_json(const std::string& port) { return client_.call("port.pause", port_param(port)); }

api::PauseReport PortClient::set_pause(const std::string& port, const std::string& mode, Keep keep) {
  return api::pause_report_from_json(set_pause_json(port, mode, keep));
}

json PortClient::set_pause_json(const std::string& port, const std::string& mode, Keep keep) {
  return client_.call("port.pause.set", {{"port", port}, {"mode", mode}, {"keep", keep == Keep::kYes}});
}

json PortClient::pfc_json(const std::string& port) { return client_.call("port.pfc", port_param(port)); }

api::PfcReport PortClient::set_pfc(const std::string& port, const std::vector<unsigned>& priorities, Keep keep) {
  return api::pfc_report_from_json(set_pfc_json(port, priorities, keep));
}

json PortClient::set_pfc_json(const std::string& port, const std::vector<unsigned>& priorities, Keep keep) {
  return client_.call("port.pfc.set", {{"port", port}, {"priorities", priorities}, {"keep", keep == Keep::kYes}});
}

json PortClient::settings_json(const std::string& port) { return client_.call("port.settings", port_param(port)); }

json PortClient::restore_settings_json(const std::string& port) {
  return client_.call("port.settings.restore", port_param(port));
}

json PortClient::set_config_json(const std::string& port, const PortConfigChange& change) {
  json params = port_param(port);
  if (change.promiscuous) params["promiscuous"] = *change.promiscuous;
  if (change.mtu) params["mtu"] = *change.mtu;
  if (!change.state.empty()) params["state"] = change.state;
  if (!change.pfc_reaction_delay.empty()) params["pfc_reaction_delay"] = change.pfc_reaction_delay;
  if (change.pfc_reaction_delay_quanta) params["pfc_reaction_delay_quanta"] = *change.pfc_reaction_delay_quanta;
  if (change.keep == Keep::kYes) params["keep"] = true;
  return client_.call("port.config.set", params);
}

std::vector<api::NicCounter> PortClient::counters(const std::string& port, const std::string& filter) {
  return counter_view(port, filter).counters;
}

api::PortCounterView PortClient::counter_view(const std::string& port, const std::string& filter) {
  return api::port_counter_view_from_json(counter_view_json(port, filter));
}

json PortClient::counter_view_json(const std::string& port, const std::string& filter) {
  json params = port_param(port);
  if (!filter.empty()) params["filter"] = filter;
  return client_.call("port.counters", params);
}

api::ModuleEeprom PortClient::module_eeprom(const std::string& port) {
  return api::module_eeprom_from_json(client_.call("port.module", port_param(port)));
}

}  // namespace lr::ctl
