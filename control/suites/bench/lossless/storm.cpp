#include "control/suites/bench/lossless/storm.hpp"
#include "control/suites/bench/bench_sections.hpp"

namespace lr::bench::lossless {

uint64_t storm_at_ns(const bench::LosslessCfg& cfg) { return (cfg.duration_ns - cfg.storm_ns) / 2; }
Sent planned_storm(const bench::LosslessCfg& cfg) {
  return {static_cast<double>(storm_at_ns(cfg)) / 1e9, static_cast<double>(storm_at_ns(cfg) + cfg.storm_ns) / 1e9};
}

void held_checks(std::vector<Check>& checks, const std::string& who, const api::StreamReport& stream, double t0, double t1,
                 double allowance_s) {
  const Silence gap = silence_of(stream);
  if (!gap.known) {
    checks.push_back({who + ": silence during the storm", 0, "us", "a silence measured", false});
    return;
  }
  checks.push_back(at_most(who + ": last frame after the storm's first PFC frame", us(gap.from_s - t0), us(allowance_s), "us"));
  checks.push_back(at_least(who + ": first frame after the storm's last PFC frame", us(gap.to_s - t1), 0, "us"));
}

void flowing_checks(std::vector<Check>& checks, const std::string& who, const api::StreamReport& stream, double storm_s) {
  checks.push_back(exactly(who + ": frames lost", static_cast<double>(stream.lost), 0, "frames"));
  const Silence gap = silence_of(stream);
  checks.push_back(at_most(who + ": longest silence", us(gap.known ? gap.seconds() : 0), us(storm_s / 2), "us"));
}

}  // namespace lr::bench::lossless
