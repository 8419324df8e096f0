#include "control/suites/bench/lossless/cases.hpp"

#include <fmt/format.h>

#include <cmath>

#include "control/suites/bench/lossless/storm.hpp"
#include "control/suites/bench/lossless/timeline.hpp"
#include "control/suites/bench/bench_sections.hpp"

namespace lr::bench::lossless {

CaseOutcome response_time(Plan& p) {
  const bench::LosslessCfg& c = p.cfg;
  if (!p.response_s)
    return skipped("response_time", fmt::format("no default bound at {} Gbit/s: set [lossless] response_time",
                                                static_cast<double>(p.receiver_bps) / 1e9));
  Streams streams(p);
  const uint8_t lossless = c.lossless.front();
  streams.test_traffic(lossless);
  streams.pfc_storm(lossless);
  const ctl::EndedRun ended = run(p, streams, "response_time", "", reaction_window("storm", planned_storm(c), *p.response_s, us(*p.response_s) / 4));
  const api::RunReport& report = ended.report;
  const api::StreamReport& test = stream_of(report, "test");
  const auto [t0, t1] = sent_of(report, "storm", planned_storm(c));
  const Silence gap = silence_of(test);
  std::vector<Check> checks;
  if (!gap.known || gap.to_s < t1) {
    checks.push_back({"test: silence through the storm", us(gap.seconds()), "us",
                      "to last the storm: the device must obey the PFC for a response time to exist", false});
  } else {
    Check response = at_most("response: PFC frame sent to the last test frame received", us(gap.from_s - t0),
                             us(*p.response_s), "us");
    response.bound += " (" + p.response_basis + ")";
    checks.push_back(std::move(response));
    const double bin = bin_s_of(test);
    checks.push_back({"test frames received after the PFC frame was sent (to the bin)",
                      static_cast<double>(frames_within(bins_of(test, "rx"), bin, std::floor(t0 / bin) * bin,
                                                        std::ceil(gap.from_s / bin + 1e-9) * bin)),
                      "frames", "(reported)", true});
  }
  record(p, "response_time", "", ended);
  return judge("response_time", std::move(checks), "the device stopped the priority within the bound");
}

}  // namespace lr::bench::lossless
