#pragma once
// A port's FEC and 802.3x pause modes: one enum each and one spelling, the names a
// profile writes (`fec = "rs"`, `pause = "rx"`), the RPC takes (port.fec.set) and the
// reports print. Both programs and every layer use these, from lib/host up.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace lr {

/// Forward error correction: none, BASE-R (Clause 74), RS (Clause 91/134), low-latency
/// RS, or what the PHY and its partner choose.
enum class FecMode : uint8_t { kOff, kBaseR, kRs, kLlrs, kAuto };

inline constexpr std::array<std::pair<FecMode, std::string_view>, 5> kFecModeNames{{{FecMode::kOff, "off"},
                                                                                    {FecMode::kBaseR, "baser"},
                                                                                    {FecMode::kRs, "rs"},
                                                                                    {FecMode::kLlrs, "llrs"},
                                                                                    {FecMode::kAuto, "auto"}}};

/// 802.3x PAUSE: which way the port honours (rx) and sends (tx) it.
enum class PauseMode : uint8_t { kOff, kRx, kTx, kBoth };

inline constexpr std::array<std::pair<PauseMode, std::string_view>, 4> kPauseModeNames{
    {{PauseMode::kRx, "rx"}, {PauseMode::kTx, "tx"}, {PauseMode::kBoth, "both"}, {PauseMode::kOff, "off"}}};

constexpr bool pause_rx(PauseMode m) noexcept { return m == PauseMode::kRx || m == PauseMode::kBoth; }
constexpr bool pause_tx(PauseMode m) noexcept { return m == PauseMode::kTx || m == PauseMode::kBoth; }
constexpr PauseMode pause_mode(bool rx, bool tx) noexcept {
  return rx && tx ? PauseMode::kBoth : rx ? PauseMode::kRx : tx ? PauseMode::kTx : PauseMode::kOff;
}

/// The mode's name ("rs", "both").
std::string_view name_of(FecMode mode) noexcept;
std::string_view name_of(PauseMode mode) noexcept;

/// The mode a name spells; none for any other text (names are lower case, as written).
std::optional<FecMode> fec_mode_named(std::string_view name) noexcept;
std::optional<PauseMode> pause_mode_named(std::string_view name) noexcept;

/// Every name, for messages: "off, baser, rs, llrs, auto" and "rx, tx, both, off".
std::string fec_mode_choices();
std::string pause_mode_choices();

}  // namespace lr
