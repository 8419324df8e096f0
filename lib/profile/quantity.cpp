#include "lib/profile/quantity.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <string>

namespace lr::profile {

using api::Ipv6Addr;
using api::MacAddr;
using api::Rate;
using api::RateKind;
namespace {

// Splits "1.5Mpps" into 1.5 and "Mpps". The number must be finite and non-negative.
bool split_number(std::string_view text, double& number, std::string_view& unit) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, number);
  if (ec != std::errc{} || !std::isfinite(number) || number < 0) return false;
  unit = std::string_view(ptr, static_cast<size_t>(end - ptr));
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  return true;
}

double si_multiplier(char prefix) {
  switch (prefix) {
    case 'k': case 'K': return 1e3;
    case 'M': return 1e6;
    case 'G': return 1e9;
    case 'T': return 1e12;
    default: return 0;
  }
}

// A number with one of `units` after it, in the base unit.
struct Unit {
  std::string_view name;
  double scale;
};

template <size_t N>
std::optional<double> scaled(std::string_view text, const Unit (&units)[N]) {
  double number = 0;
  std::string_view unit;
  if (!split_number(text, number, unit)) return std::nullopt;
  for (const Unit& u : units)
    if (u.name == unit) return number * u.scale;
  return std::nullopt;
}

}  // namespace

std::string rate_refusal(std::string_view text) {
  double number = 0;
  std::string_view unit;
  if (split_number(text, number, unit) && unit == "%" && number > 100)
    return fmt::format("'{}' is above line rate: a share of line rate is at most 100%", text);
  return fmt::format("'{}' is not a rate: write '10%' (of line rate), '1.5Mpps', '5Gbps' (L1), '5Gbps-l2' or 'max'",
                     text);
}

std::optional<Rate> parse_rate(std::string_view text) {
  if (text == "max") return Rate{RateKind::kMax, 0};
  double number = 0;
  std::string_view unit;
  if (!split_number(text, number, unit) || number <= 0) return std::nullopt;
  if (unit == "%") {
    if (number > 100) return std::nullopt;
    return Rate{RateKind::kPercentOfLine, number};
  }
  RateKind kind = RateKind::kL1Bps;
  if (unit.ends_with("-l2")) {
    kind = RateKind::kL2Bps;
    unit.remove_suffix(3);
  }
  double multiplier = 1;
  if (unit.ends_with("pps")) {
    if (kind == RateKind::kL2Bps) return std::nullopt;  // "-l2" only qualifies bit rates
    kind = RateKind::kPps;
    unit.remove_suffix(3);
  } else if (unit.ends_with("bps")) {
    unit.remove_suffix(3);
  } else {
    return std::nullopt;
  }
  if (unit.size() == 1) {
    multiplier = si_multiplier(unit.front());
    if (multiplier == 0) return std::nullopt;
  } else if (!unit.empty()) {
    return std::nullopt;
  }
  return Rate{kind, number * multiplier};
}

std::optional<uint64_t> parse_duration_ns(std::string_view text) {
  static constexpr Unit kUnits[] = {{"ns", 1},    {"us", 1e3},    {"ms", 1e6},     {"s", 1e9},
                                    {"m", 60e9}, {"min", 60e9}, {"h", 3600e9}};
  const std::optional<double> ns = scaled(text, kUnits);
  if (!ns || *ns > 1e18) return std::nullopt;
  return static_cast<uint64_t>(std::llround(*ns));
}

std::optional<uint64_t> parse_link_speed_bps(std::string_view text) {
  double number = 0;
  std::string_view unit;
  if (!split_number(text, number, unit) || number <= 0) return std::nullopt;
  if (unit.ends_with("bps")) unit.remove_suffix(3);
  if (unit.size() != 1) return std::nullopt;
  const double multiplier = si_multiplier(unit.front());
  if (multiplier == 0) return std::nullopt;
  return static_cast<uint64_t>(std::llround(number * multiplier));
}

std::optional<uint64_t> parse_bytes(std::string_view text) {
  static constexpr Unit kUnits[] = {{"B", 1},      {"KB", 1e3},           {"MB", 1e6},
                                    {"GB", 1e9},   {"KiB", 1024},         {"MiB", 1024.0 * 1024},
                                    {"GiB", 1024.0 * 1024 * 1024}};
  const std::optional<double> bytes = scaled(text, kUnits);
  if (!bytes || *bytes > 1e15 || *bytes != std::floor(*bytes)) return std::nullopt;
  return static_cast<uint64_t>(*bytes);
}

std::optional<MacAddr> parse_mac(std::string_view text) {
  MacAddr mac{};
  if (text.size() != 17) return std::nullopt;
  for (size_t i = 0; i < 6; ++i) {
    const char* begin = text.data() + i * 3;
    if (i < 5 && begin[2] != ':') return std::nullopt;
    auto [ptr, ec] = std::from_chars(begin, begin + 2, mac[i], 16);
    if (ec != std::errc{} || ptr != begin + 2) return std::nullopt;
  }
  return mac;
}

std::optional<uint32_t> parse_ipv4(std::string_view text) {
  const std::string copy(text);
  in_addr addr{};
  if (inet_pton(AF_INET, copy.c_str(), &addr) != 1) return std::nullopt;
  return ntohl(addr.s_addr);
}

std::optional<Ipv6Addr> parse_ipv6(std::string_view text) {
  const std::string copy(text);
  Ipv6Addr addr{};
  if (inet_pton(AF_INET6, copy.c_str(), addr.data()) != 1) return std::nullopt;
  return addr;
}

std::string rate_text(const Rate& rate) {
  switch (rate.kind) {
    case RateKind::kPercentOfLine: return fmt::format("{}%", rate.value);
    case RateKind::kL1Bps: return fmt::format("{}bps", rate.value);
    case RateKind::kL2Bps: return fmt::format("{}bps-l2", rate.value);
    case RateKind::kPps: return fmt::format("{}pps", rate.value);
    case RateKind::kMax: break;
  }
  return "max";
}

std::string duration_text(uint64_t ns) { return fmt::format("{}ns", ns); }

std::string link_speed_text(uint64_t bps) { return fmt::format("{}Mbps", static_cast<double>(bps) / 1e6); }

}  // namespace lr::profile
