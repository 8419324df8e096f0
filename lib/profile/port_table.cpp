// A [[port]] table read into a PortSpec: each key with its range and the error that names it.
#include "lib/profile/port_table.hpp"

#include <fmt/format.h>

#include <toml++/toml.h>

#include "lib/profile/quantity.hpp"
#include "lib/profile/shared_keys.hpp"
#include "lib/profile/table_reader.hpp"

namespace lr::profile {

api::PortSpec read_port(TableReader& in) {
  api::PortSpec port;
  port.loc = loc_of(in.table());
  port.name = in.required_string("name");
  if (auto location = in.string("location")) {
    port.location = *location;
    const size_t semicolon = location->find(';');
    if (semicolon == std::string::npos || semicolon == 0 || semicolon + 1 == location->size() ||
        location->find(';', semicolon + 1) != std::string::npos)
      in.fail(in.find("location"), "location",
              "write ENGINE;PORT: the data plane's HOST:PORT (linerate-dataplane --listen) and its port's name, e.g. "
              "\"10.0.0.2:7300;p0\"");
    if (in.find("device") != nullptr)
      in.fail(in.find("device"), "device",
              "give device (a port of this host) or location (another data plane's), not both");
  } else {
    port.device = in.required_string("device");
  }
  if (auto v = in.integer<uint16_t>("rx_queues", 0, 64)) port.rx_queues = *v;  // 0: transmit-only port
  if (auto v = in.integer<uint16_t>("tx_queues", 1, 64)) port.tx_queues = *v;
  if (auto v = in.integer<uint16_t>("rx_descriptors", 64, 16384)) port.rx_descriptors = *v;
  if (auto v = in.integer<uint16_t>("tx_descriptors", 64, 16384)) port.tx_descriptors = *v;
  if (auto v = in.integer<uint16_t>("mtu", 68, 9600)) port.mtu = *v;
  if (auto v = in.boolean("promiscuous")) port.promiscuous = *v;
  if (auto v = in.boolean("checksum_offload")) port.checksum_offload = *v;
  if (auto v = in.parsed<uint64_t>("speed", parse_link_speed_bps, "a link speed: write e.g. '10G', '40G' or '50Gbps'"))
    port.speed_bps = *v;
  for (const char* key : {"rx_lcores", "tx_lcores"}) {
    const toml::node* node = in.find(key);
    if (node == nullptr) continue;
    const toml::array* array = node->as_array();
    if (array == nullptr || array->empty()) in.fail(node, key, "expected a non-empty array of lcore ids, e.g. [1, 2]");
    auto& lcores = std::string_view(key) == "rx_lcores" ? port.rx_lcores : port.tx_lcores;
    for (const toml::node& item : *array) lcores.push_back(in.integer_of<unsigned>(&item, key, 0, 1023));
  }
  if (auto v = in.boolean("autoneg")) {
    if (!*v && port.speed_bps == 0) in.fail(in.find("autoneg"), "autoneg", "false needs a speed to force: set speed too");
    port.autoneg = *v;
  }
  if (auto v = in.string("fec")) {
    port.fec = fec_mode_named(*v);
    if (!port.fec) in.fail(in.find("fec"), "fec", fmt::format("'{}' is not one of {}", *v, fec_mode_choices()));
  }
  if (auto v = in.string("pause")) {
    port.pause = pause_mode_named(*v);
    if (!port.pause) in.fail(in.find("pause"), "pause", fmt::format("'{}' is not one of {}", *v, pause_mode_choices()));
  }
  if (const auto pfc = read_priorities(in, "pfc", "expected an array of priorities 0-7, e.g. [3, 4] ([] turns PFC off)"))
    port.pfc_priorities.emplace(pfc->begin(), pfc->end());
  if (auto v = in.boolean("pfc_honour")) {
    if (*v && port.rx_queues == 0)
      in.fail(in.find("pfc_honour"), "pfc_honour", "needs the port to receive (rx_queues = 0 hears no PFC frame)");
    port.pfc_honour = *v;
  }
  if (const toml::node* node = in.find("pfc_reaction_delay")) {
    if (node->is_integer()) port.pfc_reaction_delay_quanta = in.integer_of<uint32_t>(node, "pfc_reaction_delay", 0, 65535);
    else port.pfc_reaction_delay_ns = *in.parsed<uint64_t>("pfc_reaction_delay", parse_duration_ns,
                                                           "quanta (an integer) or a duration such as '5us'");
    if (!port.pfc_honour) in.fail(node, "pfc_reaction_delay", "needs pfc_honour = true");
  }
  if (const toml::table* map = in.subtable("dscp_to_priority")) port.dscp_to_priority = read_dscp_map(in, *map);
  if (auto v = in.string("mac_control_tx")) {
    if (*v == "auto") port.mac_control_tx = api::MacControlTx::kAuto;
    else if (*v == "pmd") port.mac_control_tx = api::MacControlTx::kPmd;
    else if (*v == "netdev") port.mac_control_tx = api::MacControlTx::kNetdev;
    else in.fail(in.find("mac_control_tx"), "mac_control_tx", fmt::format("'{}' is not auto, pmd or netdev", *v));
  }
  if (auto v = in.strings("flow_rules",
                          "expected an array of rules, e.g. [\"pattern eth / udp dst is 4791 actions queue index 1\"]"))
    port.flow_rules = std::move(*v);
  if (auto v = in.boolean("flow_isolate")) port.flow_isolate = *v;
  if (auto v = in.boolean("keep")) port.keep = *v;
  port.key_locs = in.key_locs();
  in.finish();
  return port;
}

}  // namespace lr::profile
