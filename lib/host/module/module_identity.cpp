#include "lib/host/module/module_identity.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace lr::module {

std::string connector_name(uint8_t c) {  // SFF-8024 table 4-3
  switch (c) {
    case 0x01: return "SC";
    case 0x07: return "LC";
    case 0x0B: return "optical pigtail";
    case 0x0C: return "MPO 1x12";
    case 0x21: return "copper pigtail";
    case 0x22: return "RJ45";
    case 0x23: return "no separable connector";
    default: return "unknown";
  }
}

double mw_to_dbm(double mw) {
  return mw <= 0 ? -std::numeric_limits<double>::infinity() : 10.0 * std::log10(mw);
}

std::string Monitor::beyond() const {
  if (!has_thresholds()) return "";
  if (value > high_alarm) return "high alarm";
  if (value < low_alarm) return "low alarm";
  if (value > high_warning) return "high warning";
  if (value < low_warning) return "low warning";
  return "";
}

std::string format_monitors(const std::vector<Monitor>& monitors, bool with_thresholds) {
  std::string out;
  const auto line = [&](const std::string& key, const std::string& value) { out += fmt::format("{:<42}: {}\n", key, value); };
  const auto value = [](const Monitor& mon, double v) {
    if (mon.unit == "mW") return fmt::format("{:.4f} mW / {:.2f} dBm", v, mw_to_dbm(v));
    if (mon.unit == "C") return fmt::format("{:.2f} degrees C", v);
    if (mon.unit == "V") return fmt::format("{:.4f} V", v);
    return fmt::format("{:.3f} mA", v);
  };
  for (const Monitor& mon : monitors) {
    line(mon.name, value(mon, mon.value));
    const std::string flags = fmt::format("{}{}", mon.alarm_flag ? ", module alarm flag set" : "",
                                          mon.warning_flag ? ", module warning flag set" : "");
    if (!with_thresholds) {
      if (!flags.empty()) line(mon.name + " status", flags.substr(2));
      continue;
    }
    line(mon.name + " high alarm / warning", fmt::format("{} / {}", value(mon, mon.high_alarm), value(mon, mon.high_warning)));
    line(mon.name + " low alarm / warning", fmt::format("{} / {}", value(mon, mon.low_alarm), value(mon, mon.low_warning)));
    const std::string beyond = mon.beyond();
    const std::string status = !mon.has_thresholds() ? std::string("no thresholds set by the module")
                               : beyond.empty()      ? std::string("within thresholds")
                                                     : "BEYOND: " + beyond;
    line(mon.name + " status", status + flags);
  }
  return out;
}

std::string format_identity(const ModuleIdentity& m) {
  std::string out;
  const auto line = [&](const std::string& key, const std::string& value) { out += fmt::format("{:<42}: {}\n", key, value); };
  line("Identifier", fmt::format("0x{:02x} ({})", m.identifier, m.identifier_name));
  line("Connector", fmt::format("0x{:02x} ({})", m.connector, m.connector_name));
  std::string compliance;
  for (const std::string& c : m.compliance) compliance += (compliance.empty() ? "" : ", ") + c;
  line("Transceiver compliance", compliance.empty() ? "none declared" : compliance);
  if (m.nominal_rate_mbd != 0) line("Nominal bit rate", fmt::format("{}MBd", m.nominal_rate_mbd));
  for (const auto& [media, metres] : m.lengths_m) line(fmt::format("Length ({})", media), fmt::format("{}m", metres));
  line("Laser wavelength", m.wavelength_nm != 0 ? fmt::format("{}nm", m.wavelength_nm) : std::string("n/a (copper)"));
  line("Vendor name", m.vendor_name);
  line("Vendor OUI", fmt::format("{:02x}:{:02x}:{:02x}", m.vendor_oui[0], m.vendor_oui[1], m.vendor_oui[2]));
  line("Vendor PN", m.vendor_pn);
  line("Vendor rev", m.vendor_rev);
  line("Vendor SN", m.vendor_sn);
  line("Date code", m.date_code);
  line("Checksums (base, extended)", fmt::format("{}, {}", m.base_checksum_ok ? "ok" : "BAD", m.ext_checksum_ok ? "ok" : "BAD"));
  return out;
}

}  // namespace lr::module
