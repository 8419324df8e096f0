#include "dataplane/mgmt/node_description.hpp"

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>

#include "dataplane/engine/engine.hpp"
#include "dataplane/engine/tsc_utc.hpp"
#include "dataplane/fastpath/worker.hpp"
#include "dataplane/mgmt/clock_watch.hpp"
#include "lib/hosts/address_text.hpp"

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
  api::MacAddr bytes{};
  std::copy(std::begin(mac.addr_bytes), std::end(mac.addr_bytes), bytes.begin());
  return hosts::mac_text(bytes);
}

// With hardware timestamping: CLOCK_REALTIME measured against the NIC's clock, or why not.
json describe_phc(const host::PhcMeasurement& phc) {
  if (!phc.problem.empty()) return {{"problem", phc.problem}};
  return {{"device", phc.device},
          {"interface", phc.interface},
          {"realtime_offset_ns", phc.realtime_offset_ns},
          {"error_ns", phc.error_ns}};
}

// The clock: its UTC reading through the TSC, and whether a PTP grandmaster vouches for it
// (stamps of two hosts mean something together only when both follow one).
json describe_clock(const Engine& engine, const ClockWatch* watch) {
  const TscUtcMap map = measure_tsc_utc(engine.tsc_hz());
  json clock{{"utc_ns", map.utc_ns},
             {"tsc_hz", map.tsc_hz},
             {"tsc_utc_error_ns", map.error_ns},
             {"latency_clock_offset_ns", latency_clock_offset_ns(map, fast::tsc_ns_multiplier(map.tsc_hz))}};
  if (watch == nullptr) {
    clock["synchronised"] = false;
    clock["why"] = "no ptp4l to read (none serves /var/run/ptp4l; --ptp names another socket)";
    clock["ptp"] = nullptr;
    return clock;
  }
  const ClockWatch::Reading last = watch->last();
  const auto age = std::chrono::steady_clock::now() - last.at;
  clock["synchronised"] = last.read && last.problem.empty() && last.verdict.synchronised;
  clock["why"] = !last.read ? "ptp4l not read yet" : !last.problem.empty() ? last.problem : last.verdict.why;
  if (last.verdict.synchronised) clock["error_ns"] = last.verdict.error_ns;
  json ptp{{"uds", watch->uds()}, {"answered", last.ptp.answered}};
  if (last.read) ptp["read_ms_ago"] = std::chrono::duration_cast<std::chrono::milliseconds>(age).count();
  if (last.ptp.answered) {
    ptp["port_state"] = last.ptp.port_state;
    ptp["timestamping"] = last.ptp.timestamping;
    ptp["clock_identity"] = last.ptp.clock_identity;
    ptp["gm_identity"] = last.ptp.gm_identity;
    ptp["master_offset_ns"] = last.ptp.master_offset_ns ? json(*last.ptp.master_offset_ns) : json(nullptr);
    ptp["interface"] = last.ptp.interface;
    ptp["utc_offset_s"] = last.ptp.utc_offset_s ? json(*last.ptp.utc_offset_s) : json(nullptr);
    ptp["utc_offset_valid"] = last.ptp.utc_offset_valid;
    ptp["ptp_timescale"] = last.ptp.ptp_timescale ? json(*last.ptp.ptp_timescale) : json(nullptr);
  }
  if (last.phc) ptp["phc"] = describe_phc(*last.phc);
  clock["ptp"] = std::move(ptp);
  return clock;
}

}  // namespace

json describe_node(Engine& engine, const ClockWatch* watch) {
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
  return json{{"node", host_name()}, {"ports", ports}, {"lcores", lcores}, {"clock", describe_clock(engine, watch)}};
}

}  // namespace lr::dp
