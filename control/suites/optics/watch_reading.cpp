#include "control/suites/optics/watch_reading.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <exception>

#include "control/client/dataplane_client.hpp"
#include "control/client/port_client.hpp"
#include "control/suites/optics/qualify_sample.hpp"
#include "lib/api/rpc.hpp"
#include "lib/host/kernel/kernel_netdev.hpp"
#include "lib/host/module/decoded_module.hpp"

namespace lr::optics {

namespace {

// A part of a read that failed: unsupported (the driver lacks it, every time) or a problem
// (this time). A netdev that is gone is a problem: it may come back.
template <class T>
bool note(const Result<T>& result, const char* part, PortReading& reading) {
  if (result) return true;
  if (result.error().code == Errc::kNotSupported) reading.unsupported[part] = result.error().context;
  else reading.problems.push_back(fmt::format("{}: {}", part, to_string(result.error())));
  return false;
}

void add_module(const std::vector<uint8_t>& eeprom, PortReading& reading) {
  DecodedReading decoded = module_reading(eeprom);
  if (!decoded.problem.empty()) reading.problems.push_back("module: " + decoded.problem);
  if (decoded.module) reading.module = std::move(decoded.module);
}

}  // namespace

namespace {

// A monitor or threshold that is not a number (an SFP's calibration constants erased to
// 0xFF are a NaN factor) is no value: left out, and said.
void drop_non_finite(ModuleReading& m, std::string& problem) {
  std::vector<std::string> dropped;
  std::erase_if(m.monitors, [&](const module::Monitor& monitor) {
    if (std::isfinite(monitor.value)) return false;
    dropped.push_back(monitor.name);
    return true;
  });
  for (module::Monitor& monitor : m.monitors)
    for (const double t : {monitor.high_alarm, monitor.high_warning, monitor.low_warning, monitor.low_alarm})
      if (!std::isfinite(t)) {
        dropped.push_back(monitor.name + " thresholds");
        monitor.high_alarm = monitor.high_warning = monitor.low_warning = monitor.low_alarm = 0;  // none set
        break;
      }
  if (!dropped.empty())
    problem = fmt::format("the module's {} read as no number (its calibration?): left out", fmt::join(dropped, ", "));
}

}  // namespace

DecodedReading module_reading(const std::vector<uint8_t>& eeprom) {
  DecodedReading out;
  try {
    const module::DecodedModule decoded = module::decode_module(eeprom);
    const module::ModuleIdentity& id = module_identity(decoded);
    out.module = ModuleReading{.type = id.identifier_name,
                               .vendor = id.vendor_name,
                               .part = id.vendor_pn,
                               .revision = id.vendor_rev,
                               .serial = id.vendor_sn,
                               .monitors = module_monitors(decoded),
                               .checksum_problem = module::checksum_problem(decoded)};
    drop_non_finite(*out.module, out.problem);
  } catch (const module::DecodeError& e) {
    out.problem = fmt::format("the module's EEPROM ({} bytes) does not decode: {}", eeprom.size(), e.what());
  }
  return out;
}

PortReading read_netdev(dp::KernelNetdev& netdev, double now_s) {
  PortReading reading;
  reading.port = netdev.ifname(), reading.source = "netdev", reading.time_s = now_s;
  const Result<dp::LinkStatus> link = netdev.link();
  // A netdev that is gone is one problem, not one per part.
  if (!link && link.error().code == Errc::kNoDevice) {
    reading.problems.push_back(fmt::format("kernel netdev {} is gone", netdev.ifname()));
    return reading;
  }
  if (note(link, "link", reading)) {
    reading.link_up = link->up;
    reading.speed_bps = link->up ? uint64_t{link->speed_mbps} * 1'000'000 : 0;
  }
  std::vector<dp::NamedCounter> counters;
  if (auto stats = netdev.ethtool_stats(); note(stats, "ethtool counters", reading)) counters = std::move(*stats);
  if (auto fec = netdev.fec_stats(); note(fec, "FEC statistics", reading))
    counters.insert(counters.end(), fec->begin(), fec->end());
  reading.counters = canonical_counters(counters);
  if (const Result<std::vector<uint8_t>> eeprom = netdev.module_eeprom(); note(eeprom, "module EEPROM", reading))
    add_module(*eeprom, reading);
  return reading;
}

PortReading read_dataplane_port(ctl::PortClient& client, const std::string& port, double now_s) {
  PortReading reading;
  reading.port = port, reading.source = "dataplane", reading.time_s = now_s;
  // Each part on its own: a refusal of one leaves the others read.
  auto part = [&](const char* what, auto&& read) {
    try {
      read();
    } catch (const ctl::RpcCallError& e) {
      if (e.code() == static_cast<int>(api::RpcCode::kNotSupported)) reading.unsupported[what] = e.what();
      else reading.problems.push_back(fmt::format("{}: {}", what, e.what()));
    }
  };
  part("link", [&] {
    const api::LinkReport link = client.link(port);
    reading.link_up = link.up;
    reading.speed_bps = link.up ? uint64_t{link.speed_mbps} * 1'000'000 : 0;
  });
  part("counters", [&] { reading.counters = canonical_counters(client.counters(port)); });
  part("module EEPROM", [&] { add_module(client.module_eeprom(port).bytes, reading); });
  return reading;
}

}  // namespace lr::optics
