#include "control/suites/bench/lossless/cases.hpp"

#include <fmt/format.h>

#include "control/suites/bench/lossless/storm.hpp"
#include "control/suites/bench/lossless/timeline.hpp"
#include "control/suites/bench/bench_sections.hpp"

namespace lr::bench::lossless {

CaseOutcome pfc_pause(Plan& p) {
  const bench::LosslessCfg& c = p.cfg;
  const uint8_t lossless = c.lossless.front();
  Streams streams(p);
  streams.test_traffic(lossless);
  if (!c.lossy.empty()) streams.traffic("background", sender_of_background(c), c.lossy.front(), c.rate_percent, 0, c.duration_ns);
  streams.pfc_storm(lossless);
  const double allowance = p.response_s.value_or(1e-3);
  const ctl::EndedRun ended = run(p, streams, "pfc_pause", "", reaction_window("storm", planned_storm(c), allowance, us(allowance) / 4));
  const api::RunReport& report = ended.report;
  const auto [t0, t1] = sent_of(report, "storm", planned_storm(c));
  std::vector<Check> checks;
  const api::StreamReport& test = stream_of(report, "test");
  held_checks(checks, "test", test, t0, t1, allowance);
  checks.push_back(exactly("test: frames lost", static_cast<double>(test.lost), 0, "frames"));
  const double after = static_cast<double>(frames_within(bins_of(test, "rx"), bin_s_of(test), t1, 1e9) +
                                           (test.timeline ? test.timeline->rx_after : uint64_t{0}));
  checks.push_back(at_least("test: frames received after the storm", after, 1, "frames"));
  if (!c.lossy.empty()) {
    const api::StreamReport& bg = stream_of(report, "background");
    checks.push_back(exactly("background: frames lost", static_cast<double>(bg.lost), 0, "frames"));
    const double sent = static_cast<double>(frames_within(bins_of(bg, "tx"), bin_s_of(bg), t0, t1));
    const double got = static_cast<double>(frames_within(bins_of(bg, "rx"), bin_s_of(bg), t0, t1));
    // Frames sent just before the storm arrive in it: the share can pass 100 % by those in flight.
    checks.push_back(at_least("background: received / sent during the storm (over 100 % by the frames in flight at "
                              "its start)",
                              sent > 0 ? 100 * got / sent : 0, 95, "%"));
  }
  record(p, "pfc_pause", "", ended);
  return judge("pfc_pause", std::move(checks),
               fmt::format("priority {} held for the whole storm and resumed after it, nothing lost, the background "
                           "went on", lossless));
}

}  // namespace lr::bench::lossless
