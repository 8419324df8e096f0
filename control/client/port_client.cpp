#include "control/client/port_client.hpp"

namespace lr::ctl {

using nlohmann::json;

api::LinkReport PortClient::link(const std::string& port) {
  return api::link_report_from_json(client_.call("port.link", {{"port", port}}));
}

api::LinkReport PortClient::set_link_up(const std::string& port, bool up) {
  return api::link_report_from_json(client_.call("port.link.set", {{"port", port}, {"up", up}}));
}

std::vector<api::LinkEventReport> PortClient::link_history(const std::string& port) {
  std::vector<api::LinkEventReport> out;
  const json history = client_.call("port.link.history", {{"port", port}});
  for (const json& e : history.value("events", json::array())) out.push_back(api::link_event_from_json(e));
  return out;
}

api::FecReport PortClient::fec(const std::string& port) {
  return api::fec_report_from_json(client_.call("port.fec", {{"port", port}}));
}

api::FecReport PortClient::set_fec(const std::string& port, const std::string& mode) {
  return api::fec_report_from_json(client_.call("port.fec.set", {{"port", port}, {"mode", mode}}));
}

api::PfcReport PortClient::set_pfc(const std::string& port, const std::vector<unsigned>& priorities) {
  return api::pfc_report_from_json(client_.call("port.pfc.set", {{"port", port}, {"priorities", priorities}}));
}

api::PauseReport PortClient::set_pause(const std::string& port, const std::string& mode) {
  return api::pause_report_from_json(client_.call("port.pause.set", {{"port", port}, {"mode", mode}}));
}

std::vector<api::NicCounter> PortClient::counters(const std::string& port, const std::string& filter) {
  json params{{"port", port}};
  if (!filter.empty()) params["filter"] = filter;
  return api::port_counter_view_from_json(client_.call("port.counters", params)).counters;
}

api::ModuleEeprom PortClient::module_eeprom(const std::string& port) {
  return api::module_eeprom_from_json(client_.call("port.module", {{"port", port}}));
}

}  // namespace lr::ctl
