#include "control/views/optics_metrics.hpp"

#include <array>
#include <map>
#include <utility>

#include "control/views/prometheus_family.hpp"
#include "lib/host/module/module_identity.hpp"

namespace lr::ctl {

namespace {

using optics::PortStatus;
using optics::PortReading;

// Module strings are bytes off an EEPROM: printable ASCII only in a label.
std::string printable(const std::string& text) {
  std::string out;
  for (const char c : text) out += c >= 0x20 && c < 0x7F ? c : '?';
  return out;
}

Labels module_labels(const std::string& port, const optics::ModuleReading& m) {
  return {
      {"port", port}, {"serial", printable(m.serial)}, {"vendor", printable(m.vendor)}, {"part", printable(m.part)}};
}

struct MonitorFamilies {
  const char* quantity;
  Family value;
  Family threshold;
};

// The monitors a module layout has, by quantity, in export units.
std::array<MonitorFamilies, 5> monitor_families() {
  auto make = [](const char* quantity, const std::string& metric, const char* what) {
    const std::string unit = metric.substr(metric.rfind('_') + 1);
    return MonitorFamilies{
        quantity, Family(metric, "gauge", fmt::format("The module's {} ({}).", what, unit)),
        Family(fmt::format("lr_module_{}_threshold_{}", metric.substr(10, metric.rfind('_') - 10), unit), "gauge",
               fmt::format("The module's own {} thresholds ({}): level high_alarm, high_warning, low_warning, "
                           "low_alarm.",
                           what, unit))};
  };
  return {make("temperature", "lr_module_temperature_celsius", "case temperature"),
          make("voltage", "lr_module_supply_voltage_volts", "supply voltage"),
          make("bias", "lr_module_laser_bias_amperes", "laser bias current per lane"),
          make("tx_power", "lr_module_tx_power_dbm", "transmitted optical power per lane"),
          make("rx_power", "lr_module_rx_power_dbm", "received optical power per lane")};
}

void module_text(const std::vector<PortStatus>& ports, std::string& out) {
  Family info("lr_module_info", "gauge", "The module in the port's cage (1): its type and revision in labels.");
  Family changes("lr_module_changes_total", "counter", "Modules swapped (a new serial) since the watch began.");
  std::array<MonitorFamilies, 5> families = monitor_families();
  Family alarm("lr_module_alarm_flag", "gauge", "The module's own latched alarm flag of a quantity (1: raised).");
  Family warning("lr_module_warning_flag", "gauge", "The module's own latched warning flag of a quantity (1: raised).");
  for (const PortStatus& p : ports) {
    if (!p.current) continue;
    changes.add({{"port", p.port}}, static_cast<double>(p.module_changes));
    if (!p.reading->module) continue;
    const optics::ModuleReading& m = *p.reading->module;
    const Labels labels = module_labels(p.port, m);
    Labels info_labels = labels;
    info_labels.emplace_back("type", printable(m.type));
    info_labels.emplace_back("revision", printable(m.revision));
    info.add(info_labels, 1);
    std::map<std::string, bool> thresholds_done;
    for (const module::Monitor& monitor : m.monitors) {
      const optics::MonitorName name = optics::split_monitor_name(monitor.name);
      for (MonitorFamilies& f : families) {
        if (name.quantity != f.quantity) continue;
        Labels lane = labels;
        if (name.lane != 0) lane.emplace_back("lane", std::to_string(name.lane));
        f.value.add(lane, exported_monitor(name.quantity, monitor.value).value);
        Labels flag = labels;
        flag.emplace_back("quantity", name.quantity);
        if (name.lane != 0) flag.emplace_back("lane", std::to_string(name.lane));
        alarm.add(flag, monitor.alarm_flag ? 1 : 0);
        warning.add(flag, monitor.warning_flag ? 1 : 0);
        if (!monitor.has_thresholds() || thresholds_done[name.quantity]) continue;
        thresholds_done[name.quantity] = true;
        for (const auto& [level, value] : {std::pair{"high_alarm", monitor.high_alarm},
                                           {"high_warning", monitor.high_warning},
                                           {"low_warning", monitor.low_warning},
                                           {"low_alarm", monitor.low_alarm}}) {
          Labels at = labels;
          at.emplace_back("level", level);
          f.threshold.add(at, exported_monitor(name.quantity, value).value);
        }
      }
    }
  }
  out += info.text() + changes.text();
  for (const MonitorFamilies& f : families) out += f.value.text() + f.threshold.text();
  out += alarm.text() + warning.text();
}

// A counter of the reading under a metric, absent where the reading lacks it.
void add_counter(Family& family, const Labels& labels, const PortReading& r, const std::string& name) {
  if (const auto at = r.counters.find(name); at != r.counters.end())
    family.add(labels, static_cast<double>(at->second));
}

void fec_text(const std::vector<PortStatus>& ports, std::string& out) {
  Family corrected("lr_fec_corrected_codewords_total", "counter", "FEC codewords corrected (the driver's count).");
  Family uncorrectable("lr_fec_uncorrectable_codewords_total", "counter",
                       "FEC codewords the decoder could not correct (the driver's count).");
  Family bits("lr_fec_corrected_bits_total", "counter", "Bits the FEC decoder corrected (the driver's count).");
  Family lane_corrected("lr_fec_lane_corrected_codewords_total", "counter",
                        "FEC codewords corrected per FEC lane (lane as the driver numbers it, from 0).");
  Family lane_uncorrectable("lr_fec_lane_uncorrectable_codewords_total", "counter",
                            "FEC codewords not corrected per FEC lane (lane as the driver numbers it, from 0).");
  Family corrected_rate("lr_fec_corrected_codewords_per_second", "gauge",
                        "FEC codewords corrected per second over the watch's last interval.");
  Family uncorrectable_rate("lr_fec_uncorrectable_codewords_per_second", "gauge",
                            "FEC codewords not corrected per second over the watch's last interval.");
  Family ber("lr_fec_pre_fec_ber", "gauge",
             "Pre-FEC bit error ratio over the last interval, over the link's nominal rate: method corrected_bits "
             "(the estimate), or corrected_codewords_lower_bound (one bit per corrected codeword: a lower bound).");
  for (const PortStatus& p : ports) {
    if (!p.current) continue;
    const PortReading& r = *p.reading;
    const Labels port{{"port", p.port}};
    add_counter(corrected, port, r, "fec_corrected_blocks");
    add_counter(uncorrectable, port, r, "fec_uncorrectable_blocks");
    add_counter(bits, port, r, "fec_corrected_bits");
    for (const auto& [name, value] : r.counters) {
      for (auto [prefix, family] : {std::pair{"fec_corrected_blocks_lane", &lane_corrected},
                                    {"fec_uncorrectable_blocks_lane", &lane_uncorrectable}})
        if (name.starts_with(prefix))
          family->add({{"port", p.port}, {"lane", name.substr(std::string_view(prefix).size())}},
                      static_cast<double>(value));
    }
    if (p.corrected_per_s) corrected_rate.add(port, *p.corrected_per_s);
    if (p.uncorrectable_per_s) uncorrectable_rate.add(port, *p.uncorrectable_per_s);
    if (p.pre_fec_ber) ber.add({{"port", p.port}, {"method", optics::ber_method_name(p.ber_method)}}, *p.pre_fec_ber);
  }
  for (const Family* f : {&corrected, &uncorrectable, &bits, &lane_corrected, &lane_uncorrectable, &corrected_rate,
                          &uncorrectable_rate, &ber})
    out += f->text();
}

void link_text(const std::vector<PortStatus>& ports, std::string& out) {
  Family up("lr_link_up", "gauge", "The port's link is up (1) or down (0).");
  Family speed("lr_link_speed_bytes_per_second", "gauge",
               "The link's speed while up (bytes, as Prometheus's base "
               "unit: 50G is 6.25e9).");
  Family flaps("lr_link_flaps_total", "counter",
               "Link drops since the watch began: seen between readings, or counted by the driver in between.");
  Family changed("lr_link_last_change_timestamp_seconds", "gauge",
                 "When the watch last saw the link change (Unix time); absent before the first change.");
  Family symbols("lr_link_symbol_errors_total", "counter", "Symbol errors the PHY counted (the driver's count).");
  for (const PortStatus& p : ports) {
    if (!p.current) continue;
    const PortReading& r = *p.reading;
    const Labels port{{"port", p.port}};
    if (r.link_up) {
      up.add(port, *r.link_up ? 1 : 0);
      flaps.add(port, static_cast<double>(p.flaps));
    }
    if (r.speed_bps > 0) speed.add(port, static_cast<double>(r.speed_bps) / 8);
    if (p.last_change_s > 0) changed.add(port, p.last_change_s);
    add_counter(symbols, port, r,
                r.counters.contains("rx_symbol_errors") ? "rx_symbol_errors" : "rx_pcs_symbol_errors");
  }
  out += up.text() + speed.text() + flaps.text() + changed.text() + symbols.text();
}

}  // namespace

ExportedMonitor exported_monitor(const std::string& quantity, double value) {
  if (quantity == "temperature") return {"lr_module_temperature_celsius", value};
  if (quantity == "voltage") return {"lr_module_supply_voltage_volts", value};
  if (quantity == "bias") return {"lr_module_laser_bias_amperes", value * 1e-3};
  if (quantity == "tx_power") return {"lr_module_tx_power_dbm", module::mw_to_dbm(value)};
  if (quantity == "rx_power") return {"lr_module_rx_power_dbm", module::mw_to_dbm(value)};
  return {};
}

std::string optics_metrics_text(const std::vector<PortStatus>& ports) {
  Family port_up("lr_optics_port_up", "gauge",
                 "This interval's read of the port arrived (1); 0: it failed or is late, and the port's other metrics "
                 "are left out.");
  Family unsupported("lr_optics_unsupported", "gauge",
                     "A part the port's driver cannot give (what), whose metrics are "
                     "absent.");
  for (const PortStatus& p : ports) {
    port_up.add({{"port", p.port}, {"source", p.reading ? p.reading->source : ""}}, p.current ? 1 : 0);
    if (p.current)
      for (const auto& [what, why] : p.reading->unsupported) unsupported.add({{"port", p.port}, {"what", what}}, 1);
  }
  std::string out = port_up.text() + unsupported.text();
  module_text(ports, out);
  fec_text(ports, out);
  link_text(ports, out);
  return out;
}

}  // namespace lr::ctl
