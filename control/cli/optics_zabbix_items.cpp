#include "control/cli/optics_zabbix_items.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <set>
#include <vector>

#include "lib/common/nearest_name.hpp"

namespace lr::ctl {

namespace {

using nlohmann::json;

// A module's power monitors count in steps of 0.1 uW (SFF-8472, SFF-8636, CMIS): a reading of
// 0 is below the first step, -40 dBm, and is answered as that bound rather than as no value,
// so that a dark lane still crosses the thresholds its triggers compare with.
constexpr double kDarkDbm = -40;

ZabbixAnswer none(const WatchedPort& p, const std::string& why) {
  return std::unexpected(fmt::format("{}: {}", p.port, why));
}
ZabbixAnswer none(const WatchedPort& p, unsigned lane, const std::string& why) {
  return std::unexpected(fmt::format("{} lane {}: {}", p.port, lane, why));
}

std::string count_text(uint64_t n) { return fmt::format("{}", n); }
// Shortest text that reads back as the same double: no digits made up, none lost.
std::string float_text(double x) { return fmt::format("{}", x + 0.0); }  // + 0.0: -0 becomes 0

double dbm_of(double mw) { return mw > 0 ? 10 * std::log10(mw) : kDarkDbm; }
// 0.01 dB is finer than any module's power accuracy (SFF-8472: +-3 dB), and reads as written.
std::string db_text(double db) { return float_text(std::round(db * 100) / 100); }

// Why the port gives no value of one of `parts`: the driver lacks it (the watch's
// "unsupported"), or this read of it failed (a problem "PART: ..."); else `otherwise`.
std::string why_absent(const WatchedPort& p, std::span<const std::string_view> parts, std::string_view otherwise) {
  for (std::string_view part : parts)
    if (const auto at = p.unsupported.find(std::string(part)); at != p.unsupported.end())
      return at->second.empty() ? fmt::format("the driver lacks {}", part)
                                : fmt::format("the driver lacks {}: {}", part, at->second);
  for (const std::string& problem : p.problems)
    for (std::string_view part : parts)
      if (problem.starts_with(part) && problem.substr(part.size()).starts_with(":"))
        return "its last read failed: " + problem;
  return std::string(otherwise);
}

// The parts of a read the watch names in "unsupported" and "problems" (watch_reading.cpp).
constexpr std::array<std::string_view, 1> kLinkParts{"link"};
constexpr std::array<std::string_view, 3> kFecParts{"FEC statistics", "ethtool counters", "counters"};
constexpr std::array<std::string_view, 2> kModuleParts{"module EEPROM", "module"};

ZabbixAnswer port_current(const WatchedPort& p, unsigned) { return p.current ? "1" : "0"; }

ZabbixAnswer link_up(const WatchedPort& p, unsigned) {
  if (p.link_up) return *p.link_up ? "1" : "0";
  return none(p, fmt::format("no link state ({})", why_absent(p, kLinkParts, "the driver gave none")));
}

ZabbixAnswer link_flaps(const WatchedPort& p, unsigned) {
  if (p.flaps) return count_text(*p.flaps);
  return none(p, fmt::format("no link flap count ({})", why_absent(p, kLinkParts, "the watch has not read the link")));
}

ZabbixAnswer link_speed(const WatchedPort& p, unsigned) {
  if (p.speed_bps) return count_text(*p.speed_bps);
  if (p.link_up && !*p.link_up) return none(p, "no link speed (the link is down)");
  return none(p, fmt::format("no link speed ({})", why_absent(p, kLinkParts, "the driver gave none")));
}

// Why a rate over the interval is absent when its counter is there: it needs the one before.
std::string why_no_rate(const WatchedPort& p, const std::optional<uint64_t>& counter, std::string_view counted) {
  if (!counter) return why_absent(p, kFecParts, fmt::format("the driver counts no {}", counted));
  return "none yet: a rate needs the previous interval's reading too";
}

ZabbixAnswer fec_corrected_per_second(const WatchedPort& p, unsigned) {
  if (p.corrected_per_s) return float_text(*p.corrected_per_s);
  return none(
      p, fmt::format("no FEC corrected rate ({})", why_no_rate(p, p.corrected_codewords, "corrected FEC codewords")));
}

ZabbixAnswer fec_uncorrectable_total(const WatchedPort& p, unsigned) {
  if (p.uncorrectable_codewords) return count_text(*p.uncorrectable_codewords);
  return none(p, fmt::format("no FEC uncorrectable count ({})",
                             why_absent(p, kFecParts, "the driver counts no uncorrectable FEC codewords")));
}

ZabbixAnswer fec_pre_fec_ber(const WatchedPort& p, unsigned) {
  if (p.pre_fec_ber) return float_text(*p.pre_fec_ber);
  if (!p.corrected_codewords)
    return none(p, fmt::format("no pre-FEC BER ({})",
                               why_absent(p, kFecParts, "the driver counts no corrected FEC bits or codewords")));
  return none(p,
              "no pre-FEC BER this interval (an estimate needs two readings with the link up at one speed "
              "throughout)");
}

// The module of a port, or why there is none.
std::expected<const WatchedModule*, std::string> module_of(const WatchedPort& p) {
  if (p.module) return &*p.module;
  return std::unexpected(
      fmt::format("{}: no module read ({})", p.port,
                  why_absent(p, kModuleParts, "no module in the cage, or none whose EEPROM the driver could read")));
}

std::string module_name(const WatchedModule& m) {
  const std::string name = fmt::format("{} {}", m.vendor, m.part);
  return name == " " ? "the module" : fmt::format("the module ({})", name);
}

const WatchedMonitor* find_monitor(const WatchedModule& m, std::string_view quantity, unsigned lane) {
  const auto at = std::ranges::find_if(
      m.monitors, [&](const WatchedMonitor& w) { return w.quantity == quantity && w.lane == lane; });
  return at == m.monitors.end() ? nullptr : &*at;
}

ZabbixAnswer module_serial(const WatchedPort& p, unsigned) {
  const auto m = module_of(p);
  if (!m) return std::unexpected(m.error());
  if ((*m)->serial.empty()) return none(p, fmt::format("no module serial number ({} gives none)", module_name(**m)));
  return (*m)->serial;
}

ZabbixAnswer module_changes(const WatchedPort& p, unsigned) {
  const auto m = module_of(p);
  if (!m) return std::unexpected(m.error());
  return count_text((*m)->changes);
}

// A monitor of the module's own (temperature, voltage): its value in its unit.
ZabbixAnswer module_monitor(const WatchedPort& p, std::string_view quantity) {
  const auto m = module_of(p);
  if (!m) return std::unexpected(m.error());
  if (const WatchedMonitor* w = find_monitor(**m, quantity, 0)) return float_text(w->value);
  if ((*m)->monitors.empty()) return none(p, fmt::format("no {} ({} has no diagnostics)", quantity, module_name(**m)));
  return none(p, fmt::format("no {} ({} has no {} monitor)", quantity, module_name(**m), quantity));
}

ZabbixAnswer module_temperature(const WatchedPort& p, unsigned) { return module_monitor(p, "temperature"); }
ZabbixAnswer module_voltage(const WatchedPort& p, unsigned) { return module_monitor(p, "voltage"); }

// How many of the module's monitors raise their alarm (or warning) flag now. While the link
// is down, only the module's own (temperature, voltage): a dark lane's low-power flags are a
// link already down, not one about to go (as docker/prometheus/optics-alerts.yml counts them).
ZabbixAnswer module_flags(const WatchedPort& p, bool WatchedMonitor::*flag, std::string_view flags) {
  const auto m = module_of(p);
  if (!m) return std::unexpected(m.error());
  if ((*m)->monitors.empty())
    return none(p, fmt::format("no {} flags ({} has no diagnostics)", flags, module_name(**m)));
  const bool link_down = p.link_up && !*p.link_up;
  return count_text(static_cast<uint64_t>(
      std::ranges::count_if((*m)->monitors, [&](const auto& w) { return w.*flag && !(link_down && w.lane != 0); })));
}

ZabbixAnswer module_alarm_flags(const WatchedPort& p, unsigned) {
  return module_flags(p, &WatchedMonitor::alarm_flag, "alarm");
}
ZabbixAnswer module_warning_flags(const WatchedPort& p, unsigned) {
  return module_flags(p, &WatchedMonitor::warning_flag, "warning");
}

// The lanes the module monitors, as said in an error: "1-4", "1, 3".
std::string lanes_text(const WatchedModule& m) {
  std::set<unsigned> lanes;
  for (const WatchedMonitor& w : m.monitors)
    if (w.lane != 0) lanes.insert(w.lane);
  if (lanes.empty()) return "none";
  if (*lanes.rbegin() - *lanes.begin() + 1 == lanes.size() && lanes.size() > 1)
    return fmt::format("{}-{}", *lanes.begin(), *lanes.rbegin());
  return fmt::format("{}", fmt::join(lanes, ", "));
}

// A monitor of one lane, or why there is none.
std::expected<const WatchedMonitor*, std::string> lane_monitor(const WatchedPort& p, std::string_view quantity,
                                                               unsigned lane) {
  const auto m = module_of(p);
  if (!m) return std::unexpected(m.error());
  if (const WatchedMonitor* w = find_monitor(**m, quantity, lane)) return w;
  const bool has_lane = std::ranges::any_of((*m)->monitors, [&](const WatchedMonitor& w) { return w.lane == lane; });
  if (!has_lane)
    return std::unexpected(
        fmt::format("{}: no lane {} ({} monitors lanes: {})", p.port, lane, module_name(**m), lanes_text(**m)));
  return std::unexpected(fmt::format("{} lane {}: no {} ({} has no {} monitor on it)", p.port, lane, quantity,
                                     module_name(**m), quantity));
}

ZabbixAnswer lane_dbm(const WatchedPort& p, std::string_view quantity, unsigned lane) {
  const auto w = lane_monitor(p, quantity, lane);
  if (!w) return std::unexpected(w.error());
  return db_text(dbm_of((*w)->value));
}

ZabbixAnswer lane_rx_power_dbm(const WatchedPort& p, unsigned lane) { return lane_dbm(p, "rx_power", lane); }
ZabbixAnswer lane_tx_power_dbm(const WatchedPort& p, unsigned lane) { return lane_dbm(p, "tx_power", lane); }

ZabbixAnswer lane_bias_ma(const WatchedPort& p, unsigned lane) {
  const auto w = lane_monitor(p, "bias", lane);
  if (!w) return std::unexpected(w.error());
  return float_text((*w)->value);
}

// How far the received power is above the module's own low-warning threshold, in dB.
ZabbixAnswer lane_rx_power_margin_db(const WatchedPort& p, unsigned lane) {
  const auto w = lane_monitor(p, "rx_power", lane);
  if (!w) return std::unexpected(w.error());
  // A dark port's margin is not one shrinking toward a drop: the link is down already.
  if (p.link_up && !*p.link_up) return none(p, lane, "no rx power margin (the link is down)");
  const auto& thresholds = p.module->low_warning;
  const auto low = thresholds.find("rx_power");
  if (low == thresholds.end())
    return none(p, lane, fmt::format("no rx power margin ({} sets no rx_power thresholds)", module_name(*p.module)));
  if (low->second <= 0)
    return none(p, lane,
                fmt::format("no rx power margin ({}'s rx_power low-warning threshold is {} mW)", module_name(*p.module),
                            low->second));
  return db_text(dbm_of((*w)->value) - dbm_of(low->second));
}

constexpr auto kPort = ItemScope::kPort;
constexpr auto kLane = ItemScope::kLane;
constexpr auto kUnsigned = ZabbixValueType::kUnsigned;
constexpr auto kFloat = ZabbixValueType::kFloat;
constexpr auto kChar = ZabbixValueType::kChar;

const std::array kItems{
    ZabbixItem{"port.current", kPort, kUnsigned, "",
               "1: the last interval's read of the port arrived; 0: it did not (every other item of the "
               "port is then unsupported, saying why)",
               port_current},
    ZabbixItem{"link.up", kPort, kUnsigned, "", "1: link up; 0: down", link_up},
    ZabbixItem{"link.flaps", kPort, kUnsigned, "", "link drops seen since the watch began", link_flaps},
    ZabbixItem{"link.speed", kPort, kUnsigned, "bps", "the link's speed (link up only)", link_speed},
    ZabbixItem{"fec.corrected_per_second", kPort, kFloat, "/s", "FEC codewords corrected per second, last interval",
               fec_corrected_per_second},
    ZabbixItem{"fec.uncorrectable_total", kPort, kUnsigned, "",
               "FEC codewords that could not be corrected, the driver's cumulative count", fec_uncorrectable_total},
    ZabbixItem{"fec.pre_fec_ber", kPort, kFloat, "",
               "bit error ratio before FEC, last interval (corrected bits over bits carried; corrected "
               "codewords over bits where the driver counts no bits: a lower bound)",
               fec_pre_fec_ber},
    ZabbixItem{"module.serial", kPort, kChar, "", "the module's serial number", module_serial},
    ZabbixItem{"module.temperature", kPort, kFloat, "°C", "the module's temperature", module_temperature},
    ZabbixItem{"module.voltage", kPort, kFloat, "V", "the module's supply voltage", module_voltage},
    ZabbixItem{"module.alarm_flags", kPort, kUnsigned, "", "the module's monitors whose alarm flag is raised",
               module_alarm_flags},
    ZabbixItem{"module.warning_flags", kPort, kUnsigned, "", "the module's monitors whose warning flag is raised",
               module_warning_flags},
    ZabbixItem{"module.changes", kPort, kUnsigned, "", "modules swapped into the cage since the watch began",
               module_changes},
    ZabbixItem{"lane.rx_power_dbm", kLane, kFloat, "dBm", "power received on the lane (0 mW: -40 dBm)",
               lane_rx_power_dbm},
    ZabbixItem{"lane.tx_power_dbm", kLane, kFloat, "dBm", "power sent on the lane (0 mW: -40 dBm)", lane_tx_power_dbm},
    ZabbixItem{"lane.bias_ma", kLane, kFloat, "mA", "the lane's laser bias current", lane_bias_ma},
    ZabbixItem{"lane.rx_power_margin_db", kLane, kFloat, "dB",
               "received power above the module's low-warning "
               "threshold for it (negative: below)",
               lane_rx_power_margin_db},
};

const WatchedPort* find_port(const WatchState& state, std::string_view port) {
  const auto at = std::ranges::find_if(state.ports, [&](const WatchedPort& p) { return p.port == port; });
  return at == state.ports.end() ? nullptr : &*at;
}

std::string port_names(const WatchState& state) {
  std::vector<std::string> names;
  for (const WatchedPort& p : state.ports) names.push_back(p.port);
  return names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "));
}

const ZabbixItem* find_item(std::string_view name) {
  const auto at = std::ranges::find_if(kItems, [&](const ZabbixItem& i) { return i.name == name; });
  return at == kItems.end() ? nullptr : &*at;
}

std::string unknown_item(std::string_view port, std::string_view name) {
  std::vector<std::string> names;
  for (const ZabbixItem& i : kItems) names.emplace_back(i.name);
  const std::string nearest = nearest_name(name, names);
  if (!nearest.empty()) return fmt::format("{}: no item '{}' (did you mean '{}'?)", port, name, nearest);
  return fmt::format("{}: no item '{}' (`linerate optics zabbix items` lists them)", port, name);
}

// The lane an item is asked for: 0 for an item of the port, or why the argument does not fit.
std::expected<unsigned, std::string> lane_for(const ZabbixItem& item, std::string_view port, std::string_view lane) {
  if (item.scope == kPort) {
    if (lane.empty()) return 0U;
    return std::unexpected(
        fmt::format("{}: {} is an item of the port: it takes no lane ('{}')", port, item.name, lane));
  }
  if (lane.empty())
    return std::unexpected(fmt::format("{}: {} is an item of a lane: give its LANE (linerate.optics.get[{},{},1])",
                                       port, item.name, port, item.name));
  unsigned n = 0;
  const auto [end, error] = std::from_chars(lane.data(), lane.data() + lane.size(), n);
  if (error != std::errc() || end != lane.data() + lane.size() || n == 0)
    return std::unexpected(fmt::format("{}: '{}' is not a lane number (1, 2, ...)", port, lane));
  return n;
}

}  // namespace

const char* value_type_name(ZabbixValueType type) noexcept {
  switch (type) {
    case ZabbixValueType::kUnsigned: return "UNSIGNED";
    case ZabbixValueType::kFloat: return "FLOAT";
    case ZabbixValueType::kChar: return "CHAR";
  }
  return "?";
}

std::span<const ZabbixItem> zabbix_items() { return kItems; }

std::string discovery_json(const WatchState& state, Discovery what) {
  json out = json::array();
  for (const WatchedPort& p : state.ports) {
    if (what == Discovery::kPorts) {
      out.push_back({{"{#PORT}", p.port}});
      continue;
    }
    if (!p.module) continue;
    std::set<unsigned> lanes;
    for (const WatchedMonitor& w : p.module->monitors)
      if (w.lane != 0) lanes.insert(w.lane);
    for (unsigned lane : lanes) out.push_back({{"{#PORT}", p.port}, {"{#LANE}", std::to_string(lane)}});
  }
  return out.dump();
}

ZabbixAnswer zabbix_item_value(const WatchState& state, std::string_view port, std::string_view item,
                               std::string_view lane) {
  if (port.empty()) return std::unexpected(std::string("no port given"));
  const ZabbixItem* asked = find_item(item);
  if (asked == nullptr) return std::unexpected(unknown_item(port, item));
  const std::expected<unsigned, std::string> lane_number = lane_for(*asked, port, lane);
  if (!lane_number) return std::unexpected(lane_number.error());
  const WatchedPort* p = find_port(state, port);
  if (p == nullptr)
    return std::unexpected(fmt::format("{}: not a port of the watch (its ports: {})", port, port_names(state)));
  // Values of a read that did not arrive are an interval old or more: not answered as now's.
  if (!p->current && asked->value != port_current)
    return std::unexpected(fmt::format("{}: not read at the last interval ({})", port,
                                       p->missed.empty() ? "the watch gave no reason" : p->missed));
  return asked->value(*p, *lane_number);
}

ZabbixAnswer zabbix_answer(const std::string& state_path, std::string_view state_text, double now_s,
                           const ZabbixQuery& query) {
  const std::expected<WatchState, std::string> state = parse_watch_state(state_text);
  if (!state)
    return std::unexpected(
        fmt::format("{}: not a state file of `linerate optics watch`: {}", state_path, state.error()));
  if (const std::optional<std::string> stale = staleness(*state, now_s))
    return std::unexpected(fmt::format("{}: {}", state_path, *stale));
  if (query.discover) return discovery_json(*state, *query.discover);
  return zabbix_item_value(*state, query.port, query.item, query.lane);
}

}  // namespace lr::ctl
