#include "lib/host/module/decoded_module.hpp"

#include <fmt/format.h>

#include <cmath>

namespace lr::module {

namespace {

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;  // clang 14 does not deduce aggregates' bases yet

nlohmann::json monitors_json(const std::vector<Monitor>& list) {
  nlohmann::json monitors = nlohmann::json::array();
  for (const Monitor& mon : list) {
    nlohmann::json j{{"name", mon.name},          {"unit", mon.unit},
                     {"value", mon.value},        {"high_alarm", mon.high_alarm},
                     {"low_alarm", mon.low_alarm}, {"high_warning", mon.high_warning},
                     {"low_warning", mon.low_warning}, {"beyond", mon.beyond()},
                     {"alarm_flag", mon.alarm_flag}, {"warning_flag", mon.warning_flag}};
    // JSON has no -inf: a dark receiver's 0 mW has no dBm value.
    if (mon.unit == "mW") j["value_dbm"] = mon.value > 0 ? nlohmann::json(mw_to_dbm(mon.value)) : nlohmann::json(nullptr);
    monitors.push_back(std::move(j));
  }
  return monitors;
}

// The serial ID fields every layout has.
nlohmann::json identity_json(const ModuleIdentity& m, const char* layout) {
  nlohmann::json lengths = nlohmann::json::object();
  for (const auto& [media, metres] : m.lengths_m) lengths[media] = metres;
  return nlohmann::json{{"layout", layout},
                        {"identifier", m.identifier},
                        {"identifier_name", m.identifier_name},
                        {"connector", m.connector_name},
                        {"compliance", m.compliance},
                        {"nominal_rate_mbd", m.nominal_rate_mbd},
                        {"lengths_m", lengths},
                        {"wavelength_nm", m.wavelength_nm},
                        {"vendor_name", m.vendor_name},
                        {"vendor_oui", fmt::format("{:02x}:{:02x}:{:02x}", m.vendor_oui[0], m.vendor_oui[1],
                                                   m.vendor_oui[2])},
                        {"vendor_pn", m.vendor_pn},
                        {"vendor_rev", m.vendor_rev},
                        {"vendor_sn", m.vendor_sn},
                        {"date_code", m.date_code},
                        {"checksums_ok", m.base_checksum_ok && m.ext_checksum_ok}};
}

}  // namespace

DecodedModule decode_module(std::span<const uint8_t> image) {
  if (image.empty()) throw DecodeError("the image is empty");
  switch (image[0]) {
    case 0x02: case 0x03: return decode_sff8472(image);
    case 0x0C: case 0x0D: case 0x11: return decode_sff8636(image);
    case 0x18: case 0x19: case 0x1E: return decode_cmis(image);
    case 0x00:
      throw DecodeError("byte 0 (identifier) is 0x00: no module type is set (a blank, unprogrammed or unread EEPROM)");
    default:
      throw DecodeError(fmt::format("byte 0 (identifier) is 0x{:02x}, which none of the three formats names: SFF-8472 "
                                    "(0x03 SFP/SFP+/SFP28), SFF-8636 (0x0c QSFP, 0x0d QSFP+, 0x11 QSFP28) or CMIS "
                                    "(0x18 QSFP-DD, 0x19 OSFP, 0x1e QSFP+ with CMIS)", image[0]));
  }
}

std::string checksum_problem(const DecodedModule& module) {
  return std::visit(
      [](const auto& m) -> std::string {
        if (m.base_checksum_ok && m.ext_checksum_ok) return "";
        return fmt::format("checksums BAD (base {}, extended {}): the image may be corrupt or misread",
                           m.base_checksum_ok ? "ok" : "BAD", m.ext_checksum_ok ? "ok" : "BAD");
      },
      module);
}

std::string format_module(const DecodedModule& module) {
  return std::visit(Overloaded{[](const Sff8472& m) { return format_sff8472(m); },
                               [](const Sff8636& m) { return format_sff8636(m); },
                               [](const Cmis& m) { return format_cmis(m); }},
                    module);
}

nlohmann::json module_to_json(const DecodedModule& module) {
  return std::visit(
      Overloaded{[](const Sff8472& m) {
                   nlohmann::json j = identity_json(m, "SFF-8472");
                   j["ddm_implemented"] = m.ddm_implemented;
                   j["externally_calibrated"] = m.externally_calibrated;
                   j["monitors"] = monitors_json(m.monitors);
                   return j;
                 },
                 [](const Sff8636& m) {
                   nlohmann::json j = identity_json(m, "SFF-8636");
                   j["thresholds"] = m.has_thresholds;
                   j["monitors"] = monitors_json(m.monitors);
                   return j;
                 },
                 [](const Cmis& m) {
                   nlohmann::json j = identity_json(m, "CMIS");
                   j["revision"] = fmt::format("{}.{}", m.revision_major, m.revision_minor);
                   j["module_state"] = m.module_state;
                   j["media_type"] = m.media_type;
                   j["media_technology"] = m.media_technology;
                   j["flat_memory"] = m.flat_memory;
                   j["media_lanes"] = m.media_lanes;
                   j["thresholds"] = m.has_lane_pages;
                   j["monitors"] = monitors_json(m.monitors);
                   return j;
                 }},
      module);
}

std::string hex_dump(std::span<const uint8_t> bytes) {
  std::string out;
  for (size_t i = 0; i < bytes.size(); i += 16) {
    out += fmt::format("{:04x}:", i);
    for (size_t j = i; j < i + 16 && j < bytes.size(); ++j) out += fmt::format(" {:02x}", bytes[j]);
    out += "\n";
  }
  return out;
}

}  // namespace lr::module
