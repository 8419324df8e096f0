#include "lib/common/port_modes.hpp"

namespace lr {

namespace {

template <class Mode, size_t N>
std::string_view mode_name(const std::array<std::pair<Mode, std::string_view>, N>& names, Mode mode) noexcept {
  for (const auto& [m, name] : names)
    if (m == mode) return name;
  return "?";
}

template <class Mode, size_t N>
std::optional<Mode> mode_named(const std::array<std::pair<Mode, std::string_view>, N>& names,
                               std::string_view name) noexcept {
  for (const auto& [m, known] : names)
    if (known == name) return m;
  return std::nullopt;
}

template <class Mode, size_t N>
std::string mode_choices(const std::array<std::pair<Mode, std::string_view>, N>& names) {
  std::string out;
  for (const auto& [m, name] : names) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

}  // namespace

std::string_view name_of(FecMode mode) noexcept { return mode_name(kFecModeNames, mode); }
std::string_view name_of(PauseMode mode) noexcept { return mode_name(kPauseModeNames, mode); }
std::optional<FecMode> fec_mode_named(std::string_view name) noexcept { return mode_named(kFecModeNames, name); }
std::optional<PauseMode> pause_mode_named(std::string_view name) noexcept { return mode_named(kPauseModeNames, name); }
std::string fec_mode_choices() { return mode_choices(kFecModeNames); }
std::string pause_mode_choices() { return mode_choices(kPauseModeNames); }

}  // namespace lr
