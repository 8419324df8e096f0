#pragma once
// The time reports carry: UTC, to the second, ISO 8601 ("2026-12-01T07:05:56Z").

#include <fmt/chrono.h>

#include <chrono>
#include <string>

namespace lr {

/// Now, in seconds since the Unix epoch.
inline double unix_now_s() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

inline std::string utc_now_iso8601() {
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now()));
}

}  // namespace lr
