#include "lib/host/module/cmis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>

#include "lib/host/module/eeprom_bytes.hpp"

namespace lr::module {

namespace {

constexpr size_t kFlatSize = 256;
constexpr size_t kPagedSize = 256 + 4 * 128;

// Byte `b` (128..255) of upper page `page` in the 768-byte image: 01h, 02h, 10h, 11h follow page 00h.
constexpr size_t upper(uint8_t page, size_t b) {
  const size_t slot = page == 0x01 ? 0 : page == 0x02 ? 1 : page == 0x10 ? 2 : 3;
  return 256 + slot * 128 + (b - 128);
}

std::string cmis_identifier_name(uint8_t id) {
  switch (id) {
    case 0x18: return "QSFP-DD";
    case 0x19: return "OSFP";
    case 0x1E: return "QSFP+ or later with CMIS";
    default: return "";
  }
}

std::string module_state(uint8_t byte3) {  // lower page byte 3, bits 3-1
  switch ((byte3 >> 1) & 0x07) {
    case 1: return "low power";
    case 2: return "powering up";
    case 3: return "ready";
    case 4: return "powering down";
    case 5: return "fault";
    default: return fmt::format("reserved state {}", (byte3 >> 1) & 0x07);
  }
}

std::string media_type(uint8_t code) {  // lower page byte 85
  switch (code) {
    case 0x00: return "undefined";
    case 0x01: return "optical MMF";
    case 0x02: return "optical SMF";
    case 0x03: return "passive copper";
    case 0x04: return "active cable";
    case 0x05: return "BASE-T";
    default: return fmt::format("media type 0x{:02x}", code);
  }
}

std::string media_technology(uint8_t code) {  // upper page 00h byte 212
  static constexpr const char* kNames[] = {
      "850 nm VCSEL", "1310 nm VCSEL", "1550 nm VCSEL", "1310 nm FP", "1310 nm DFB", "1550 nm DFB",
      "1310 nm EML", "1550 nm EML", "other optical", "1490 nm DFB", "copper cable unequalized",
      "copper cable passive equalized", "copper cable near and far end limiting active equalizers",
      "copper cable far end limiting active equalizers", "copper cable near end limiting active equalizers",
      "copper cable linear active equalizers"};
  return code < std::size(kNames) ? kNames[code] : fmt::format("technology 0x{:02x}", code);
}

std::string host_interface_name(uint8_t code) {  // SFF-8024 host electrical interface codes, the common ones
  static constexpr const char* kNames[] = {
      "undefined", "1000BASE-CX", "XAUI", "XFI", "SFI", "25GAUI C2M", "XLAUI C2M", "XLPPI", "LAUI-2 C2M",
      "50GAUI-2 C2M", "50GAUI-1 C2M", "CAUI-4 C2M", "100GAUI-4 C2M", "100GAUI-2 C2M"};
  return code < std::size(kNames) ? kNames[code] : fmt::format("host interface 0x{:02x}", code);
}

// A length byte: bits 7-6 pick the multiplier, bits 5-0 the value.
uint32_t scaled_length_m(uint8_t byte, const double (&multipliers)[4]) {
  return static_cast<uint32_t>(std::lround((byte & 0x3F) * multipliers[byte >> 6]));
}

// The lower page's byte 0 and page 00h's byte 128 both name the module type: a CMIS one,
// and the same one (else the pages are not one module's).
void decode_cmis_identifier(std::span<const uint8_t> image, Cmis& m) {
  m.identifier = image[0];
  m.identifier_name = cmis_identifier_name(image[0]);
  if (m.identifier_name.empty())
    throw DecodeError(fmt::format("byte 0 (identifier) is 0x{:02x}, not a CMIS module (0x18, 0x19, 0x1e)", image[0]));
  if (image[128] != image[0])
    throw DecodeError(fmt::format("byte 128 (page 00h identifier) is 0x{:02x} but byte 0 says 0x{:02x}: not one "
                                  "module's pages", image[128], image[0]));
}

// Lower page: revision, memory model, module state, media type and the application
// descriptors (bytes 86-117, four bytes each, until an unused one).
void decode_cmis_lower_page(std::span<const uint8_t> image, Cmis& m) {
  m.revision_major = image[1] >> 4;
  m.revision_minor = image[1] & 0x0F;
  m.flat_memory = (image[2] & 0x80) != 0;
  m.module_state = module_state(image[3]);
  m.media_type = media_type(image[85]);
  for (size_t at = 86; at + 4 <= 118 && image[at] != 0xFF && image[at] != 0x00; at += 4) {
    CmisApplication app;
    app.host_interface = image[at];
    app.media_interface = image[at + 1];
    app.host_lanes = image[at + 2] >> 4;
    app.media_lanes = image[at + 2] & 0x0F;
    app.host_interface_name = host_interface_name(app.host_interface);
    m.compliance.push_back(fmt::format("{}, media 0x{:02x}, {} host / {} media lanes", app.host_interface_name,
                                       app.media_interface, app.host_lanes, app.media_lanes));
    m.applications.push_back(std::move(app));
  }
  m.media_lanes = !m.applications.empty() && m.applications[0].media_lanes != 0
                      ? std::min(m.applications[0].media_lanes, 8u) : 8u;
}

// Upper page 00h: the serial ID, connector, media technology, checksum and cable length.
void decode_cmis_page_00h(std::span<const uint8_t> image, Cmis& m) {
  m.vendor_name = ascii(image, 129, 16);
  m.vendor_oui = {image[145], image[146], image[147]};
  m.vendor_pn = ascii(image, 148, 16);
  m.vendor_rev = ascii(image, 164, 2);
  m.vendor_sn = ascii(image, 166, 16);
  m.date_code = ascii(image, 182, 8);
  m.connector = image[203];
  m.connector_name = connector_name(image[203]);
  m.media_technology = media_technology(image[212]);
  m.base_checksum_ok = checksum_ok(image, 128, 221, 222);
  m.ext_checksum_ok = true;  // CMIS page 00h has one checksum
  static constexpr double kCableMultipliers[] = {0.1, 1, 10, 100};
  if (image[202] != 0) m.lengths_m.emplace_back("cable assembly", scaled_length_m(image[202], kCableMultipliers));
}

// Which lane monitors the module has (page 01h byte 160, bits 0-2: bias, Tx power, Rx
// power) and the bias unit (bits 4-3 multiply 2 uA by 1, 2 or 4).
struct CmisLaneMonitors {
  uint8_t advertised = 0;
  double bias_unit_ma = 2e-3;
};

// Upper page 01h: fibre lengths, wavelength (optical media only), whether Rx power is an
// average, and which lane monitors exist.
CmisLaneMonitors decode_cmis_page_01h(std::span<const uint8_t> image, Cmis& m) {
  static constexpr double kSmfMultipliers[] = {100, 1000, 0, 0};
  if (image[upper(0x01, 132)] != 0) m.lengths_m.emplace_back("SMF", scaled_length_m(image[upper(0x01, 132)], kSmfMultipliers));
  if (image[upper(0x01, 133)] != 0) m.lengths_m.emplace_back("OM5", image[upper(0x01, 133)] * 2u);
  if (image[upper(0x01, 134)] != 0) m.lengths_m.emplace_back("OM4", image[upper(0x01, 134)] * 2u);
  if (image[upper(0x01, 135)] != 0) m.lengths_m.emplace_back("OM3", image[upper(0x01, 135)] * 2u);
  if (image[upper(0x01, 136)] != 0) m.lengths_m.emplace_back("OM2", image[upper(0x01, 136)]);
  if (image[212] < 0x0A) m.wavelength_nm = be16(image, upper(0x01, 138)) * 0.05;
  m.rx_power_is_average = (image[upper(0x01, 151)] & 0x10) != 0;
  CmisLaneMonitors lanes;
  lanes.advertised = image[upper(0x01, 160)];
  lanes.bias_unit_ma *= 1 << ((lanes.advertised >> 3) & 0x03);  // 01h:160 bits 4-3: x1, x2, x4
  return lanes;
}

// Where a monitor's thresholds are: four 16-bit words on page 02h from byte `at` (high
// alarm, low alarm, high warning, low warning), each `scale` of the monitor's unit.
struct CmisThresholds {
  size_t at;
  double scale;
  bool is_signed;
};

// A monitor's flags: high alarm, low alarm, high warning, low warning.
using CmisFlags = std::array<bool, 4>;

// Four flags from one byte of the lower page, from bit `first` up.
CmisFlags cmis_module_flags(uint8_t byte, unsigned first) {
  const auto bit = [&](unsigned b) { return (byte >> (first + b) & 1) != 0; };
  return {bit(0), bit(1), bit(2), bit(3)};
}

// A lane's flags on page 11h (bank 0): bit `lane` of the four flag bytes from `first`.
CmisFlags cmis_lane_flags(std::span<const uint8_t> image, size_t first, unsigned lane) {
  const auto bit = [&](size_t b) { return (image[upper(0x11, b)] >> lane & 1) != 0; };
  return {bit(first), bit(first + 1), bit(first + 2), bit(first + 3)};
}

// One monitor, its thresholds read where the image has page 02h.
Monitor cmis_monitor(std::span<const uint8_t> image, const Cmis& m, std::string name, const char* unit, double value,
                     const CmisThresholds& t, const CmisFlags& flags) {
  Monitor mon;
  mon.name = std::move(name);
  mon.unit = unit;
  mon.value = value;
  if (m.has_lane_pages) {
    const auto raw = [&](size_t b) {
      const size_t at = upper(0x02, b);
      return t.is_signed ? double(be16s(image, at)) : double(be16(image, at));
    };
    mon.high_alarm = raw(t.at) * t.scale;
    mon.low_alarm = raw(t.at + 2) * t.scale;
    mon.high_warning = raw(t.at + 4) * t.scale;
    mon.low_warning = raw(t.at + 6) * t.scale;
  }
  mon.alarm_flag = flags[0] || flags[1];
  mon.warning_flag = flags[2] || flags[3];
  return mon;
}

// Module monitors: lower page 14-17, flags in byte 9 (temperature bits 0-3, voltage 4-7),
// thresholds on page 02h.
void add_cmis_module_monitors(std::span<const uint8_t> image, Cmis& m) {
  const uint8_t f = image[9];
  m.monitors.push_back(cmis_monitor(image, m, "temperature", "C", be16s(image, 14) / 256.0, {128, 1 / 256.0, true},
                                    cmis_module_flags(f, 0)));
  m.monitors.push_back(
      cmis_monitor(image, m, "voltage", "V", be16(image, 16) * 1e-4, {136, 1e-4, false}, cmis_module_flags(f, 4)));
}

// Lane monitors on page 11h (bank 0), those page 01h advertises, lane by lane.
void add_cmis_lane_monitors(std::span<const uint8_t> image, Cmis& m, const CmisLaneMonitors& lanes) {
  for (unsigned lane = 0; lane < m.media_lanes; ++lane) {
    if (lanes.advertised & 0x01)
      m.monitors.push_back(cmis_monitor(image, m, fmt::format("bias[{}]", lane + 1), "mA",
                                        be16(image, upper(0x11, 170 + 2 * lane)) * lanes.bias_unit_ma,
                                        {184, lanes.bias_unit_ma, false}, cmis_lane_flags(image, 143, lane)));
    if (lanes.advertised & 0x02)
      m.monitors.push_back(cmis_monitor(image, m, fmt::format("tx_power[{}]", lane + 1), "mW",
                                        be16(image, upper(0x11, 154 + 2 * lane)) * 1e-4, {176, 1e-4, false},
                                        cmis_lane_flags(image, 139, lane)));
    if (lanes.advertised & 0x04)
      m.monitors.push_back(cmis_monitor(image, m, fmt::format("rx_power[{}]", lane + 1), "mW",
                                        be16(image, upper(0x11, 186 + 2 * lane)) * 1e-4, {192, 1e-4, false},
                                        cmis_lane_flags(image, 149, lane)));
  }
}

}  // namespace

Cmis decode_cmis(std::span<const uint8_t> image) {
  if (image.size() != kFlatSize && image.size() != kPagedSize)
    throw DecodeError(fmt::format("CMIS image is {} bytes; expected 256 (lower page + page 00h) or 768 (+ pages "
                                  "01h, 02h, 10h, 11h)", image.size()));
  Cmis m;
  decode_cmis_identifier(image, m);
  decode_cmis_lower_page(image, m);
  decode_cmis_page_00h(image, m);
  m.has_lane_pages = image.size() == kPagedSize && !m.flat_memory;
  const CmisLaneMonitors lanes = m.has_lane_pages ? decode_cmis_page_01h(image, m) : CmisLaneMonitors{};
  add_cmis_module_monitors(image, m);
  if (m.has_lane_pages) add_cmis_lane_monitors(image, m, lanes);
  return m;
}

std::string format_cmis(const Cmis& m) {
  std::string out;
  const auto line = [&](const std::string& key, const std::string& value) { out += fmt::format("{:<42}: {}\n", key, value); };
  line("CMIS revision", fmt::format("{}.{}", m.revision_major, m.revision_minor));
  line("Module state", m.module_state);
  line("Media type", m.media_type);
  line("Media technology", m.media_technology);
  out += format_identity(m);
  if (m.flat_memory) line("Lane monitors", "none (flat memory module)");
  else if (!m.has_lane_pages) line("Lane monitors", "not in this image (pages 01h-11h need the 768-byte read)");
  out += format_monitors(m.monitors, m.has_lane_pages);
  return out;
}

}  // namespace lr::module
