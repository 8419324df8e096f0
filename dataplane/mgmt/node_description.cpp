#include "dataplane/mgmt/node_description.hpp"

#include <fmt/format.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <unistd.h>

#include <climits>

#include "dataplane/engine/engine.hpp"
#include "dataplane/engine/tsc_utc.hpp"

namespace lr::dp {

using nlohmann::json;

namespace {

std::string host_name() {
  char name[HOST_NAME_MAX + 1] = "";
  if (::gethostname(name, sizeof name) != 0) return "unknown";
  name[HOST_NAME_MAX] = '\0';
  return name;
}

std::string mac_of(Engine& engine, const std::string& port) {
  auto ethdev = engine.port(port);
  rte_ether_addr mac{};
  if (!ethdev || rte_eth_macaddr_get((*ethdev)->port_id(), &mac) != 0) return "";
  const uint8_t* b = mac.addr_bytes;
  return fmt::format("{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}", b[0], b[1], b[2], b[3], b[4], b[5]);
}

}  // namespace

json describe_node(Engine& engine) {
  json ports = json::array();
  for (const PortReport& r : engine.port_reports()) {
    ports.push_back({{"name", r.name},
                     {"device", r.device},
                     {"numa_node", r.socket},
                     {"speed_bps", r.speed_bps},
                     {"mac", mac_of(engine, r.name)},
                     {"link_up", r.link_up},
                     {"link_speed_bps", r.link_speed_bps}});
  }
  json lcores = json::array();
  for (const LcoreReport& l : engine.lcore_reports()) lcores.push_back({{"lcore", l.lcore}, {"numa_node", l.socket}});
  const TscUtcMap map = measure_tsc_utc(rte_get_tsc_hz());
  // Stamps mean something across hosts only when both clocks follow one PTP grandmaster;
  // this data plane does not read PTP yet, so a controller must not trust cross-host latency.
  json clock{{"utc_ns", map.utc_ns},
             {"tsc_hz", map.tsc_hz},
             {"tsc_utc_error_ns", map.error_ns},
             {"synchronised", false},
             {"why", "the PTP state is not read: one-way latency between hosts is not measured"}};
  return json{{"node", host_name()}, {"ports", ports}, {"lcores", lcores}, {"clock", clock}};
}

}  // namespace lr::dp
