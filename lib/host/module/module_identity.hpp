#pragma once
// What every module layout (SFF-8472, SFF-8636, CMIS) decodes to: the serial ID and the
// monitored values with their thresholds, and the text both are printed as.

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace lr::module {

/// A malformed image: the message says which byte range is missing or wrong.
class DecodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One monitored quantity with the module's own thresholds, in the quantity's unit.
struct Monitor {
  std::string name;   ///< "temperature", "voltage", "bias", "tx_power", "rx_power"
  std::string unit;   ///< "C", "V", "mA", "mW"
  double value = 0;
  double high_alarm = 0;
  double low_alarm = 0;
  double high_warning = 0;
  double low_warning = 0;
  bool alarm_flag = false;    ///< the module's own latched alarm flag (high or low)
  bool warning_flag = false;  ///< the module's own latched warning flag
  /// "high alarm", "low warning", ... from comparing value with the thresholds; "" within
  /// (or when the module left all four thresholds zero: it set none).
  std::string beyond() const;
  bool has_thresholds() const noexcept {
    return high_alarm != 0 || low_alarm != 0 || high_warning != 0 || low_warning != 0;
  }
};

/// What every SFF module says about itself (serial ID), whatever its layout.
struct ModuleIdentity {
  uint8_t identifier = 0;
  std::string identifier_name;
  uint8_t connector = 0;
  std::string connector_name;  ///< SFF-8024 connector code
  std::vector<std::string> compliance;  ///< e.g. "10GBASE-SR", "100GBASE-SR4"
  uint32_t nominal_rate_mbd = 0;
  std::vector<std::pair<std::string, uint32_t>> lengths_m;  ///< media and supported length in metres
  double wavelength_nm = 0;  ///< 0 for copper
  std::string vendor_name;
  std::array<uint8_t, 3> vendor_oui{};
  std::string vendor_pn;
  std::string vendor_rev;
  std::string vendor_sn;
  std::string date_code;  ///< YYMMDD plus lot code, as stored
  bool base_checksum_ok = false;
  bool ext_checksum_ok = false;
};

/// SFF-8024 connector code name ("LC", "MPO 1x12", ...), "unknown" for others.
std::string connector_name(uint8_t code);

/// Identifier, connector, compliance, rate, lengths, wavelength, vendor and checksum lines.
std::string format_identity(const ModuleIdentity& module);

/// mW to dBm; -inf for 0 mW.
double mw_to_dbm(double mw);

/// Value, thresholds and status lines of `monitors` (without thresholds: values only).
std::string format_monitors(const std::vector<Monitor>& monitors, bool with_thresholds = true);

}  // namespace lr::module
