#include "lib/host/module/sff8636.hpp"

#include <fmt/format.h>

#include "lib/host/module/eeprom_bytes.hpp"

namespace lr::module {

namespace {


std::string extended_compliance(uint8_t code) {  // SFF-8024 table 4-4, the common ones
  switch (code) {
    case 0x01: return "100G AOC";
    case 0x02: return "100GBASE-SR4";
    case 0x03: return "100GBASE-LR4";
    case 0x04: return "100GBASE-ER4";
    case 0x06: return "100G CWDM4";
    case 0x0B: return "100GBASE-CR4";
    case 0x17: return "100G CLR4";
    case 0x18: return "100G AOC (BER 1e-12)";
    default: return fmt::format("extended compliance 0x{:02x}", code);
  }
}

// Upper page 03h threshold byte `b` (128..) in a 640-byte image: pages 01h and 02h come first.
constexpr size_t page03(size_t b) { return 512 + (b - 128); }

}  // namespace

Sff8636 decode_sff8636(std::span<const uint8_t> image) {
  if (image.size() != 256 && image.size() != 640)
    throw DecodeError(fmt::format("SFF-8636 image is {} bytes; expected 256 (lower page + page 00h) or 640 "
                                  "(+ pages 01h-03h)", image.size()));
  Sff8636 m;
  m.identifier = image[0];
  switch (image[0]) {
    case 0x0C: m.identifier_name = "QSFP"; break;
    case 0x0D: m.identifier_name = "QSFP+"; break;
    case 0x11: m.identifier_name = "QSFP28"; break;
    default:
      throw DecodeError(fmt::format("byte 0 (identifier) is 0x{:02x}, not an SFF-8636 module (0x0c, 0x0d, 0x11)",
                                    image[0]));
  }
  if (image[128] != image[0])
    throw DecodeError(fmt::format("byte 128 (page 00h identifier) is 0x{:02x} but byte 0 says 0x{:02x}: not one "
                                  "module's pages", image[128], image[0]));
  m.connector = image[130];
  m.connector_name = connector_name(image[130]);
  static constexpr const char* kByte131[] = {"40G active cable", "40GBASE-LR4", "40GBASE-SR4", "40GBASE-CR4",
                                             "10GBASE-SR",       "10GBASE-LR",  "10GBASE-LRM"};
  for (int bit = 0; bit < 7; ++bit)
    if (image[131] & (1 << bit)) m.compliance.emplace_back(kByte131[bit]);
  if (image[131] & 0x80) m.compliance.push_back(extended_compliance(image[192]));
  m.nominal_rate_mbd = image[140] == 0xFF ? image[222] * 250u : image[140] * 100u;
  if (image[142] != 0) m.lengths_m.emplace_back("SMF", image[142] * 1000u);
  if (image[143] != 0) m.lengths_m.emplace_back("OM3", image[143] * 2u);
  if (image[144] != 0) m.lengths_m.emplace_back("OM2", image[144]);
  if (image[145] != 0) m.lengths_m.emplace_back("OM1", image[145]);
  if (image[146] != 0) m.lengths_m.emplace_back("copper or OM4", image[146]);
  m.vendor_name = ascii(image, 148, 16);
  m.vendor_oui = {image[165], image[166], image[167]};
  m.vendor_pn = ascii(image, 168, 16);
  m.vendor_rev = ascii(image, 184, 2);
  m.wavelength_nm = be16(image, 186) / 20.0;
  m.vendor_sn = ascii(image, 196, 16);
  m.date_code = ascii(image, 212, 8);
  m.base_checksum_ok = checksum_ok(image, 128, 190, 191);
  m.ext_checksum_ok = checksum_ok(image, 192, 222, 223);
  m.rx_power_is_average = (image[220] & 0x08) != 0;
  m.has_thresholds = image.size() == 640 && (image[2] & 0x04) == 0;  // byte 2 bit 2: flat memory, no page 03h

  // Units as in SFF-8472: 1/256 C (signed), 100 uV, 2 uA, 0.1 uW.
  const auto add = [&](std::string name, const char* unit, double value, size_t threshold_at, double scale,
                       bool is_signed, uint8_t flags, int shift) {
    Monitor mon;
    mon.name = std::move(name);
    mon.unit = unit;
    mon.value = value;
    if (m.has_thresholds) {
      const auto raw = [&](size_t b) { return is_signed ? double(be16s(image, page03(b))) : double(be16(image, page03(b))); };
      mon.high_alarm = raw(threshold_at) * scale;
      mon.low_alarm = raw(threshold_at + 2) * scale;
      mon.high_warning = raw(threshold_at + 4) * scale;
      mon.low_warning = raw(threshold_at + 6) * scale;
    }
    // A flag nibble: high alarm, low alarm, high warning, low warning from its top bit down.
    const uint8_t nibble = static_cast<uint8_t>(flags >> shift) & 0x0F;
    mon.alarm_flag = (nibble & 0x0C) != 0;
    mon.warning_flag = (nibble & 0x03) != 0;
    m.monitors.push_back(std::move(mon));
  };
  add("temperature", "C", be16s(image, 22) / 256.0, 128, 1 / 256.0, true, image[6], 4);
  add("voltage", "V", be16(image, 26) * 1e-4, 144, 1e-4, false, image[7], 4);
  for (int lane = 0; lane < 4; ++lane) {
    const int shift = lane % 2 == 0 ? 4 : 0;
    add(fmt::format("bias[{}]", lane + 1), "mA", be16(image, 42 + 2 * lane) * 2e-3, 184, 2e-3, false,
        image[11 + lane / 2], shift);
    add(fmt::format("tx_power[{}]", lane + 1), "mW", be16(image, 50 + 2 * lane) * 1e-4, 192, 1e-4, false,
        image[13 + lane / 2], shift);
    add(fmt::format("rx_power[{}]", lane + 1), "mW", be16(image, 34 + 2 * lane) * 1e-4, 176, 1e-4, false,
        image[9 + lane / 2], shift);
  }
  return m;
}

std::string format_sff8636(const Sff8636& m) {
  std::string out;
  const auto line = [&](const std::string& key, const std::string& value) { out += fmt::format("{:<42}: {}\n", key, value); };
  out += format_identity(m);
  if (!m.has_thresholds) line("Thresholds", "not in this image (upper page 03h needs the 640-byte dump)");
  out += format_monitors(m.monitors, m.has_thresholds);
  return out;
}

}  // namespace lr::module
