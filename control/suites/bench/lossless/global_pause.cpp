#include "control/suites/bench/lossless/cases.hpp"

#include <fmt/format.h>

#include "control/suites/bench/lossless/storm.hpp"
#include "control/suites/bench/lossless/timeline.hpp"
#include "control/suites/bench/bench_sections.hpp"

namespace lr::bench::lossless {

CaseOutcome global_pause(Plan& p) {
  const bench::LosslessCfg& c = p.cfg;
  Streams streams(p);
  streams.test_traffic(c.lossless.front());
  if (!c.lossy.empty()) streams.traffic("background", sender_of_background(c), c.lossy.front(), c.rate_percent, 0, c.duration_ns);
  streams.mac_control("storm", true, 0, kStormQuanta, storm_at_ns(c), c.storm_ns);
  const double storm_s = static_cast<double>(c.storm_ns) / 1e9, allowance = p.response_s.value_or(1e-3);
  const ctl::EndedRun ended = run(p, streams, "global_pause", "",
                          c.global_pause_honoured ? reaction_window("storm", planned_storm(c), allowance, us(allowance) / 4)
                                                   : flowing_window(c));
  const api::RunReport& report = ended.report;
  const auto [t0, t1] = sent_of(report, "storm", planned_storm(c));
  std::vector<Check> checks;
  for (const char* who : {"test", "background"}) {
    const api::StreamReport& s = stream_of(report, who);
    if (s.name.empty()) continue;  // no such stream in this run
    if (c.global_pause_honoured) {
      held_checks(checks, who, s, t0, t1, allowance);
      if (std::string(who) == "test") checks.push_back(exactly("test: frames lost", static_cast<double>(s.lost), 0, "frames"));
    } else {
      flowing_checks(checks, who, s, storm_s);
    }
  }
  record(p, "global_pause", "", ended);
  return judge("global_pause", std::move(checks),
               c.global_pause_honoured ? "802.3x PAUSE held every priority for the storm, as expected"
                                       : "802.3x PAUSE was ignored, as expected of a PFC port: traffic went on");
}

}  // namespace lr::bench::lossless
