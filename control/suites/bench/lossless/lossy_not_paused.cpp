#include "control/suites/bench/lossless/cases.hpp"

#include <fmt/format.h>

#include "control/suites/bench/lossless/storm.hpp"
#include "control/suites/bench/lossless/timeline.hpp"
#include "control/suites/bench/bench_sections.hpp"

namespace lr::bench::lossless {

CaseOutcome lossy_not_paused(Plan& p) {
  const bench::LosslessCfg& c = p.cfg;
  const uint8_t lossy = c.lossy.front();
  Streams streams(p);
  streams.test_traffic(lossy);
  streams.pfc_storm(lossy);
  const ctl::EndedRun ended = run(p, streams, "lossy_not_paused", "", flowing_window(c));
  const api::RunReport& report = ended.report;
  std::vector<Check> checks;
  flowing_checks(checks, "test", stream_of(report, "test"), static_cast<double>(c.storm_ns) / 1e9);
  record(p, "lossy_not_paused", "", ended);
  return judge("lossy_not_paused", std::move(checks),
               fmt::format("PFC for lossy priority {} was not obeyed: its traffic went on, nothing lost", lossy));
}

}  // namespace lr::bench::lossless
