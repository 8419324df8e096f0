#include "lib/host/module/sff8472.hpp"

#include <fmt/format.h>

#include "lib/host/module/eeprom_bytes.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace lr::module {

namespace {

float be_float(std::span<const uint8_t> b, size_t at) {
  const uint32_t raw = static_cast<uint32_t>(b[at]) << 24 | static_cast<uint32_t>(b[at + 1]) << 16 |
                       static_cast<uint32_t>(b[at + 2]) << 8 | b[at + 3];
  return std::bit_cast<float>(raw);
}

constexpr size_t kPage = 256;


std::string sff8472_identifier_name(uint8_t id) {
  switch (id) {
    case 0x02: return "module soldered to motherboard";
    case 0x03: return "SFP/SFP+/SFP28";
    default: return "unknown";
  }
}

// The A2h scalar conversions (internal calibration; external applies slope and offset).
struct Calibration {
  double t_slope = 1, t_offset = 0, v_slope = 1, v_offset = 0, i_slope = 1, i_offset = 0, p_slope = 1, p_offset = 0;
  std::array<double, 5> rx{0, 1, 0, 0, 0};  // Rx_PWR(0..4)
};

// Compliance codes: the Ethernet ones users ask about (SFF-8472 table 5-3, SFF-8024 4-4).
std::vector<std::string> sff8472_compliance(std::span<const uint8_t> a0) {
  std::vector<std::string> out;
  if (a0[3] & 0x10) out.emplace_back("10GBASE-SR");
  if (a0[3] & 0x20) out.emplace_back("10GBASE-LR");
  if (a0[3] & 0x40) out.emplace_back("10GBASE-LRM");
  if (a0[3] & 0x80) out.emplace_back("10GBASE-ER");
  if (a0[6] & 0x01) out.emplace_back("1000BASE-SX");
  if (a0[6] & 0x02) out.emplace_back("1000BASE-LX");
  if (a0[6] & 0x08) out.emplace_back("1000BASE-T");
  if (a0[8] & 0x04) out.emplace_back("passive cable");
  if (a0[8] & 0x08) out.emplace_back("active cable");
  switch (a0[36]) {
    case 0x00: break;
    case 0x02: out.emplace_back("25GBASE-SR"); break;
    case 0x03: out.emplace_back("25GBASE-LR"); break;
    case 0x04: out.emplace_back("25GBASE-ER"); break;
    case 0x0B: out.emplace_back("25GBASE-CR CA-L"); break;
    case 0x0C: out.emplace_back("25GBASE-CR CA-S"); break;
    case 0x0D: out.emplace_back("25GBASE-CR CA-N"); break;
    default: out.push_back(fmt::format("extended compliance 0x{:02x}", a0[36])); break;
  }
  return out;
}

// Supported lengths per medium (bytes 14-19); byte 18 is copper metres on a cable, else
// OM4 in tens of metres.
std::vector<std::pair<std::string, uint32_t>> sff8472_lengths(std::span<const uint8_t> a0) {
  std::vector<std::pair<std::string, uint32_t>> out;
  if (a0[14] != 0) out.emplace_back("SMF", a0[14] * 1000u);
  else if (a0[15] != 0) out.emplace_back("SMF", a0[15] * 100u);
  if (a0[16] != 0) out.emplace_back("OM2", a0[16] * 10u);
  if (a0[17] != 0) out.emplace_back("OM1", a0[17] * 10u);
  if (a0[18] != 0) out.emplace_back((a0[8] & 0x0C) ? "copper" : "OM4", (a0[8] & 0x0C) ? a0[18] : a0[18] * 10u);
  if (a0[19] != 0) out.emplace_back("OM3", a0[19] * 10u);
  return out;
}

// The A0h page: identifier (an SFP, else refused), serial ID, checksums and what the
// module says of its diagnostics.
void decode_sff8472_a0(std::span<const uint8_t> a0, Sff8472& m) {
  m.identifier = a0[0];
  m.identifier_name = sff8472_identifier_name(a0[0]);
  if (a0[0] != 0x03 && a0[0] != 0x02)
    throw DecodeError(fmt::format("byte 0 (identifier) is 0x{:02x}, not an SFF-8472 module (0x03 SFP)", a0[0]));
  m.connector = a0[2];
  m.connector_name = connector_name(a0[2]);
  m.compliance = sff8472_compliance(a0);
  m.nominal_rate_mbd = a0[12] == 0xFF ? a0[66] * 250u : a0[12] * 100u;
  m.lengths_m = sff8472_lengths(a0);
  m.vendor_name = ascii(a0, 20, 16);
  m.vendor_oui = {a0[37], a0[38], a0[39]};
  m.vendor_pn = ascii(a0, 40, 16);
  m.vendor_rev = ascii(a0, 56, 4);
  m.wavelength_nm = (a0[8] & 0x0C) ? 0 : be16(a0, 60);
  m.vendor_sn = ascii(a0, 68, 16);
  m.date_code = ascii(a0, 84, 8);
  m.base_checksum_ok = checksum_ok(a0, 0, 62, 63);
  m.ext_checksum_ok = checksum_ok(a0, 64, 94, 95);
  m.ddm_implemented = (a0[92] & 0x40) != 0;
  m.externally_calibrated = (a0[92] & 0x10) != 0;
  m.rx_power_is_average = (a0[92] & 0x08) != 0;
}

// An externally calibrated module's constants (A2h bytes 56-91); internal calibration
// leaves the identity.
Calibration sff8472_calibration(std::span<const uint8_t> a2, bool externally_calibrated) {
  Calibration cal;
  if (!externally_calibrated) return cal;
  for (size_t i = 0; i < 5; ++i) cal.rx[4 - i] = be_float(a2, 56 + 4 * i);  // Rx_PWR(4) first
  cal.i_slope = be16(a2, 76) / 256.0, cal.i_offset = be16s(a2, 78);
  cal.p_slope = be16(a2, 80) / 256.0, cal.p_offset = be16s(a2, 82);
  cal.t_slope = be16(a2, 84) / 256.0, cal.t_offset = be16s(a2, 86);
  cal.v_slope = be16(a2, 88) / 256.0, cal.v_offset = be16s(a2, 90);
  return cal;
}

// The five A2h monitors, calibrated, with their thresholds and flags.
void add_sff8472_monitors(std::span<const uint8_t> a2, const Calibration& cal, Sff8472& m) {
  // Raw A2h words to units: temperature 1/256 C (signed), voltage 100 uV, bias 2 uA,
  // power 0.1 uW, each after calibration.
  const auto temperature = [&](size_t at) { return (cal.t_slope * be16s(a2, at) + cal.t_offset) / 256.0; };
  const auto voltage = [&](size_t at) { return (cal.v_slope * be16(a2, at) + cal.v_offset) * 1e-4; };
  const auto bias = [&](size_t at) { return (cal.i_slope * be16(a2, at) + cal.i_offset) * 2e-3; };
  const auto tx_power = [&](size_t at) { return (cal.p_slope * be16(a2, at) + cal.p_offset) * 1e-4; };
  const auto rx_power = [&](size_t at) {
    const double raw = be16(a2, at);
    double sum = 0;
    for (size_t k = 0; k < 5; ++k) sum += cal.rx[k] * std::pow(raw, static_cast<double>(k));
    return sum * 1e-4;
  };
  // One monitor: its value, the four thresholds that follow `threshold_at` (high alarm,
  // low alarm, high warning, low warning) and its two bits in the alarm (112..) and
  // warning (116..) flag bytes.
  const auto add = [&](const char* name, const char* unit, size_t threshold_at, size_t value_at, size_t flag_byte,
                       unsigned high_bit, auto convert) {
    Monitor mon;
    mon.name = name;
    mon.unit = unit;
    mon.value = convert(value_at);
    mon.high_alarm = convert(threshold_at);
    mon.low_alarm = convert(threshold_at + 2);
    mon.high_warning = convert(threshold_at + 4);
    mon.low_warning = convert(threshold_at + 6);
    const auto both = static_cast<uint8_t>(1u << high_bit | 1u << (high_bit - 1));
    mon.alarm_flag = (a2[112 + flag_byte] & both) != 0;
    mon.warning_flag = (a2[116 + flag_byte] & both) != 0;
    m.monitors.push_back(std::move(mon));
  };
  add("temperature", "C", 0, 96, 0, 7, temperature);
  add("voltage", "V", 8, 98, 0, 5, voltage);
  add("bias", "mA", 16, 100, 0, 3, bias);
  add("tx_power", "mW", 24, 102, 0, 1, tx_power);
  add("rx_power", "mW", 32, 104, 1, 7, rx_power);
}

}  // namespace

Sff8472 decode_sff8472(std::span<const uint8_t> image) {
  if (image.size() < kPage)
    throw DecodeError(fmt::format("SFF-8472 image is {} bytes; the A0h page needs 256", image.size()));
  if (image.size() != kPage && image.size() != 2 * kPage)
    throw DecodeError(fmt::format("SFF-8472 image is {} bytes; expected 256 (A0h) or 512 (A0h + A2h)", image.size()));
  Sff8472 m;
  decode_sff8472_a0(image.first(kPage), m);
  if (!m.ddm_implemented || image.size() < 2 * kPage) return m;
  const auto a2 = image.subspan(kPage, kPage);
  add_sff8472_monitors(a2, sff8472_calibration(a2, m.externally_calibrated), m);
  return m;
}


std::string format_sff8472(const Sff8472& m) {
  std::string out;
  const auto line = [&](const std::string& key, const std::string& value) { out += fmt::format("{:<42}: {}\n", key, value); };
  out += format_identity(m);
  if (!m.ddm_implemented) {
    line("Diagnostics", "not implemented by the module");
    return out;
  }
  if (m.monitors.empty()) {
    line("Diagnostics", "implemented, but the image has no A2h page");
    return out;
  }
  line("Calibration", m.externally_calibrated ? "external" : "internal");
  out += format_monitors(m.monitors);
  return out;
}

}  // namespace lr::module
