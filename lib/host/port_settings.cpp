#include "lib/host/port_settings.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <utility>

namespace lr::dp {

std::string fec_names(uint32_t modes) {
  std::string out;
  for (const auto& [mode, name] : kFecModeNames)
    if (modes & fec_bit(mode)) out += (out.empty() ? "" : "|") + std::string(name);
  return out;
}

std::optional<uint32_t> parse_fec_mode(const std::string& name) {
  const std::optional<FecMode> mode = fec_mode_named(name);
  return mode ? std::optional<uint32_t>(fec_bit(*mode)) : std::nullopt;
}

std::string pause_text(const PauseStatus& p) {
  const std::string_view mode = name_of(pause_mode(p.rx, p.tx));
  return p.autoneg ? fmt::format("{} (autoneg)", mode) : std::string(mode);
}

std::string pfc_text(uint8_t enabled) {
  std::vector<int> on;
  for (int p = 0; p < 8; ++p)
    if (enabled >> p & 1) on.push_back(p);
  return on.empty() ? "off" : fmt::format("{}", fmt::join(on, ","));
}

std::string link_settings_text(const LinkStatus& link) {
  if (link.autoneg)
    return link.advertised.empty() ? "autoneg on"
                                   : fmt::format("autoneg on, advertising {}", fmt::join(link.advertised, " "));
  return fmt::format("autoneg off, {} Mb/s", link.speed_mbps);
}

uint32_t fec_from_backend(uint32_t theirs, FecBitMap map) {
  uint32_t ours = 0;
  for (const auto& [their_bit, our_bit] : map)
    if (theirs & their_bit) ours |= our_bit;
  return ours;
}

uint32_t fec_to_backend(uint32_t ours, FecBitMap map) {
  uint32_t theirs = 0;
  for (const auto& [their_bit, our_bit] : map)
    if (ours & our_bit) theirs |= their_bit;
  return theirs;
}

}  // namespace lr::dp
