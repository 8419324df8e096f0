#include "control/reports/quantity_text.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <utility>

namespace lr::ctl::text {

using nlohmann::json;

std::string plain_number(double value, int significant) {
  if (!std::isfinite(value)) return std::isnan(value) ? "–" : value > 0 ? "∞" : "-∞";
  if (value == 0) return "0";
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  const int decimals = std::max(0, significant - 1 - magnitude);
  std::string out = fmt::format("{:.{}f}", value, decimals);
  if (out.find('.') != std::string::npos) {
    out.erase(out.find_last_not_of('0') + 1);
    if (out.back() == '.') out.pop_back();
  }
  return out == "-0" ? "0" : out;
}

namespace {

// The largest unit the value is at least one of (the last one otherwise).
template <size_t N>
std::string scaled(double value, const std::array<std::pair<double, const char*>, N>& units) {
  for (const auto& [size, name] : units)
    if (std::fabs(value) >= size || size == units.back().first)
      return plain_number(value / size) + " " + name;
  return plain_number(value);
}

enum class Unit { kNone, kSeconds, kNanoseconds, kMicroseconds, kBytes, kPercent, kBitRate, kDecibel, kBitErrorRatio };

struct Suffix {
  std::string_view text;
  Unit unit;
};
constexpr std::array<Suffix, 8> kSuffixes{{{"_ns", Unit::kNanoseconds},
                                           {"_us", Unit::kMicroseconds},
                                           {"_s", Unit::kSeconds},
                                           {"_bytes", Unit::kBytes},
                                           {"_percent", Unit::kPercent},
                                           {"_bps", Unit::kBitRate},
                                           {"_db", Unit::kDecibel},
                                           {"_ber", Unit::kBitErrorRatio}}};

Unit unit_of(std::string_view key) {
  for (const Suffix& s : kSuffixes)
    if (key.ends_with(s.text)) return s.unit;
  if (key == "ber_limit") return Unit::kBitErrorRatio;
  return Unit::kNone;
}

std::string with_unit(Unit unit, double v) {
  switch (unit) {
    case Unit::kSeconds: return duration(v);
    case Unit::kNanoseconds: return duration(v / 1e9);
    case Unit::kMicroseconds: return duration(v / 1e6);
    case Unit::kBytes: return bytes(v);
    case Unit::kPercent: return plain_number(v) + " %";
    case Unit::kBitRate: return bit_rate(v);
    case Unit::kDecibel: return plain_number(v) + " dB";
    case Unit::kBitErrorRatio: return fmt::format("{:.2g}", v);  // a ratio of 1e-12 is written as one
    case Unit::kNone: break;
  }
  return plain_number(v, 9);
}

}  // namespace

std::string duration(double seconds) {
  static constexpr std::array<std::pair<double, const char*>, 4> kUnits{
      {{1, "s"}, {1e-3, "ms"}, {1e-6, "µs"}, {1e-9, "ns"}}};
  if (std::fabs(seconds) >= 60) {  // "10 min", "1 h 2 min 5 s": whole seconds
    const auto total = static_cast<long long>(std::llround(std::fabs(seconds)));
    std::string out = seconds < 0 ? "-" : "";
    const auto part = [&](long long value, const char* unit) {
      if (value > 0) out += fmt::format("{}{} {}", out.empty() || out == "-" ? "" : " ", value, unit);
    };
    part(total / 3600, "h");
    part(total / 60 % 60, "min");
    part(total % 60, "s");
    return out;
  }
  return seconds == 0 ? "0 s" : scaled(seconds, kUnits);
}

std::string bytes(double count) {
  static constexpr std::array<std::pair<double, const char*>, 4> kUnits{
      {{1e9, "GB"}, {1e6, "MB"}, {1e3, "kB"}, {1, "B"}}};
  return count == 0 ? "0 B" : scaled(count, kUnits);
}

std::string bit_rate(double bps) {
  static constexpr std::array<std::pair<double, const char*>, 5> kUnits{
      {{1e12, "Tbit/s"}, {1e9, "Gbit/s"}, {1e6, "Mbit/s"}, {1e3, "kbit/s"}, {1, "bit/s"}}};
  return bps == 0 ? "0 bit/s" : scaled(bps, kUnits);
}

std::string setting_label(std::string_view key) {
  const Unit unit = unit_of(key);
  const bool ratio = unit == Unit::kBitErrorRatio && key.ends_with("_ber");  // "target_ber": the name says BER
  if (unit != Unit::kNone && key != "ber_limit") key.remove_suffix(key.size() - key.rfind('_'));
  std::string out(key);
  for (char& c : out)
    if (c == '_') c = ' ';
  return ratio ? out + " BER" : out;
}

std::string setting_value(std::string_view key, const json& value) {
  switch (value.type()) {
    case json::value_t::null: return "–";
    case json::value_t::boolean: return value.get<bool>() ? "yes" : "no";
    case json::value_t::string: return value.get<std::string>();
    case json::value_t::array: {
      if (value.empty()) return "none";
      std::string out;
      for (const json& item : value) out += (out.empty() ? "" : ", ") + setting_value(key, item);
      return out;
    }
    case json::value_t::object: {
      std::string out;
      for (const auto& [name, item] : value.items())
        out += (out.empty() ? "" : "; ") + setting_label(name) + " " + setting_value(name, item);
      return out;
    }
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: return with_unit(unit_of(key), value.get<double>());
    default: return value.dump();
  }
}

}  // namespace lr::ctl::text
