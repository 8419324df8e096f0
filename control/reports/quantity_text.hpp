#pragma once
// Quantities as a person reads them on a report page: durations in s / ms / µs, sizes in
// kB / MB, bit rates in Mbit/s / Gbit/s, plain numbers without exponents; and a report's
// settings (JSON keys with a unit suffix: `rest_s`, `headroom_bytes`, `rate_percent`) as a
// label and a value with its unit.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace lr::ctl::text {

/// At most `significant` significant digits, never an exponent, no trailing zeros:
/// 0.00015 -> "0.00015", 3750000 -> "3750000", 23.729999999999585 -> "23.73".
std::string plain_number(double value, int significant = 6);

/// 0.00015 -> "150 µs", 0.02 -> "20 ms", 2 -> "2 s", 4.5e-8 -> "45 ns", 3725 -> "1 h 2 min 5 s".
std::string duration(double seconds);

/// Powers of 1000, as profiles write sizes: 3750000 -> "3.75 MB", 512 -> "512 B".
std::string bytes(double count);

/// 1e8 -> "100 Mbit/s", 4e10 -> "40 Gbit/s".
std::string bit_rate(double bps);

/// A settings key as a label: "trial_duration_s" -> "trial duration".
std::string setting_label(std::string_view key);

/// A setting's value in the unit its key names ("rest_s": 0.02 -> "20 ms"); arrays joined
/// with ", " ("none" when empty), objects as "label value; ...", null as "–".
std::string setting_value(std::string_view key, const nlohmann::json& value);

}  // namespace lr::ctl::text
