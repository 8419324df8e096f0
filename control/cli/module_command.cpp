#include "control/cli/module_command.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <vector>

#include "dataplane/port/module/sff8472.hpp"
#include "dataplane/port/module/sff8636.hpp"

namespace lr::ctl {

namespace {

std::string hex_dump(const std::vector<uint8_t>& bytes) {
  std::string out;
  for (size_t i = 0; i < bytes.size(); i += 16) {
    out += fmt::format("{:04x}:", i);
    for (size_t j = i; j < i + 16 && j < bytes.size(); ++j) out += fmt::format(" {:02x}", bytes[j]);
    out += "\n";
  }
  return out;
}

nlohmann::json monitors_json(const std::vector<module::Monitor>& list) {
  nlohmann::json monitors = nlohmann::json::array();
  for (const module::Monitor& mon : list) {
    nlohmann::json j{{"name", mon.name},          {"unit", mon.unit},
                     {"value", mon.value},        {"high_alarm", mon.high_alarm},
                     {"low_alarm", mon.low_alarm}, {"high_warning", mon.high_warning},
                     {"low_warning", mon.low_warning}, {"beyond", mon.beyond()},
                     {"alarm_flag", mon.alarm_flag}, {"warning_flag", mon.warning_flag}};
    if (mon.unit == "mW") j["value_dbm"] = std::isinf(module::mw_to_dbm(mon.value)) ? nlohmann::json(nullptr)
                                                                                    : nlohmann::json(module::mw_to_dbm(mon.value));
    monitors.push_back(std::move(j));
  }
  return monitors;
}

std::string oui(const std::array<uint8_t, 3>& o) { return fmt::format("{:02x}:{:02x}:{:02x}", o[0], o[1], o[2]); }

// The serial ID fields every SFF layout has.
nlohmann::json identity_json(const module::ModuleIdentity& m, const char* layout) {
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
                        {"vendor_oui", oui(m.vendor_oui)},
                        {"vendor_pn", m.vendor_pn},
                        {"vendor_rev", m.vendor_rev},
                        {"vendor_sn", m.vendor_sn},
                        {"date_code", m.date_code},
                        {"checksums_ok", m.base_checksum_ok && m.ext_checksum_ok}};
}

nlohmann::json to_json(const module::Sff8636& m) {
  nlohmann::json j = identity_json(m, "SFF-8636");
  j["thresholds"] = m.has_thresholds;
  j["monitors"] = monitors_json(m.monitors);
  return j;
}

nlohmann::json to_json(const module::Sff8472& m) {
  nlohmann::json j = identity_json(m, "SFF-8472");
  j["ddm_implemented"] = m.ddm_implemented;
  j["externally_calibrated"] = m.externally_calibrated;
  j["monitors"] = monitors_json(m.monitors);
  return j;
}

}  // namespace

int decode_module_file(const std::string& path, bool as_json, bool hex) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "linerate: cannot read %s\n", path.c_str());
    return 2;
  }
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (hex) std::printf("%s\n", hex_dump(bytes).c_str());
  if (bytes.empty()) {
    std::fprintf(stderr, "linerate: %s is empty\n", path.c_str());
    return 1;
  }
  const uint8_t id = bytes[0];
  if (id == 0x18 || id == 0x19 || id == 0x1E) {
    std::fprintf(stderr,
                 "linerate: %s: identifier 0x%02x is a CMIS module (QSFP-DD / QSFP56 / OSFP); this build decodes "
                 "SFF-8472 (SFP) and SFF-8636 (QSFP) images\n",
                 path.c_str(), id);
    return 1;
  }
  try {
    if (id == 0x0C || id == 0x0D || id == 0x11) {
      const module::Sff8636 m = module::decode_sff8636(bytes);
      if (as_json) std::printf("%s\n", to_json(m).dump(2).c_str());
      else std::printf("%s", module::format_sff8636(m).c_str());
    } else {
      const module::Sff8472 m = module::decode_sff8472(bytes);
      if (as_json) std::printf("%s\n", to_json(m).dump(2).c_str());
      else std::printf("%s", module::format_sff8472(m).c_str());
    }
  } catch (const module::DecodeError& error) {
    std::fprintf(stderr, "linerate: %s: %s\n", path.c_str(), error.what());
    return 1;
  }
  return 0;
}

}  // namespace lr::ctl
