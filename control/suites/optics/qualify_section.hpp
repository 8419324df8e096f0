#pragma once
// The [qualify] section of a profile (`linerate optics qualify`): what each key means, read
// with the profile's own table reader and checked against its ports and streams. The data
// plane ignores it.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/profile/profile.hpp"

namespace lr::optics {

/// `[qualify]`: `linerate optics qualify`: the modules and cables of `ports` (each looped
/// back, or a pair cabled to each other) under the profile's streams at `rate_percent` of
/// line rate, sampled every `interval_ns`, then judged.
struct QualifyCfg {
  std::vector<std::string> ports;    ///< empty: every port a stream sends from or to
  uint64_t speed_bps = 0;            ///< the expected link speed; 0: any, the link must be up
  std::string fec;                   ///< the expected active FEC (off, baser, rs, llrs); "": any
  bool set_fec = false;              ///< set `fec` before the traffic (put back after)
  std::string fec_code;              ///< "rs528" / "rs544": which RS code `rs` is; "": from the lanes
  double rate_percent = 100;         ///< of each stream's port line rate
  uint64_t duration_ns = 0;          ///< 0: auto, long enough to claim `target_ber` at `confidence`
  uint64_t max_auto_duration_ns = 600'000'000'000;  ///< auto never runs longer than this
  uint64_t interval_ns = 1'000'000'000;  ///< between samples of counters and monitors
  double target_ber = 1e-12;         ///< the post-FEC bit error ratio claimed when no error is seen
  double confidence = 0.95;          ///< of that claim
  double ber_limit = 0;              ///< pre-FEC BER bound; 0: the PHY's (by FEC mode and code)
  double rx_power_drift_db = 1.0;    ///< per lane, largest minus smallest over the run
  double tx_power_drift_db = 1.0;
  api::SourceLoc loc;
  std::map<std::string, api::SourceLoc, std::less<>> key_locs;
  api::SourceLoc loc_of(std::string_view key) const {
    const auto it = key_locs.find(key);
    return it == key_locs.end() ? loc : it->second;
  }
};

/// The [qualify] section of `text`, the TOML `profile` was read from, checked against it:
/// every port it names exists and has a stream that sends to it. None when the profile has
/// no such section. Throws profile::ConfigError.
std::optional<QualifyCfg> read_qualify_section(const profile::Profile& profile, std::string_view text);

}  // namespace lr::optics
