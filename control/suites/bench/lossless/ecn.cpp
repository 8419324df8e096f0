#include "control/suites/bench/lossless/cases.hpp"

#include <fmt/format.h>

#include <cmath>

#include "control/suites/bench/lossless/storm.hpp"
#include "control/suites/bench/lossless/timeline.hpp"
#include "control/client/stop_signal.hpp"
#include "control/suites/bench/bench_sections.hpp"
#include "lib/common/line_rate.hpp"

namespace lr::bench::lossless {

CaseOutcome ecn(Plan& p) {
  const bench::LosslessCfg& c = p.cfg;
  if (!c.ecn) return skipped("ecn", "no [lossless] ecn curve (kmin, kmax, pmax) to hold the marks to");
  const uint8_t lossless = c.lossless.front();
  const double pps = line_rate_pps(p.speeds[c.senders[0]], c.frame_size) * c.rate_percent / 100;
  std::vector<Check> checks;
  bool told_apart = false;  // a check a device that never marks would fail
  const uint64_t telling_fill = shallowest_telling_ecn_fill(c.frame_size, c.ecn_kmin_bytes, c.ecn_kmax_bytes, c.ecn_pmax);
  for (const uint64_t fill : c.ecn_fill_bytes) {
    if (ctl::stop_requested()) break;
    // The egress is paused before the first frame and stays so until the last is queued:
    // frame i finds i frames before it.
    const uint64_t frames = (fill + c.frame_size - 1) / c.frame_size;
    const uint64_t lead_ns = 2'000'000;
    const auto sending_ns = static_cast<uint64_t>(static_cast<double>(frames) / pps * 1e9);
    Streams streams(p);
    streams.traffic("test", c.senders[0], lossless, c.rate_percent, lead_ns, 0, frames, true);
    streams.mac_control("storm", false, lossless, kStormQuanta, 0, 2 * lead_ns + sending_ns);
    // Every frame's depth counts: the whole fill.
    const double fill_s = static_cast<double>(2 * lead_ns + sending_ns) / 1e9;
    const WindowsOf fill_time = [fill_s](const api::RunReport&) {
      return Windows{{0, fill_s, kEmulationStallLimitUs, ""}};
    };
    const ctl::EndedRun ended = run(p, streams, "ecn", fmt::format("{} B", fill), fill_time);
    const api::RunReport& report = ended.report;
    const api::StreamReport& test = stream_of(report, "test");
    const ExpectedMarks expected = expected_ecn_marks(frames, c.frame_size, c.ecn_kmin_bytes, c.ecn_kmax_bytes, c.ecn_pmax);
    const double ce = test.ecn ? static_cast<double>(test.ecn->ce) : 0.0;
    Check marks{fmt::format("CE marks of {} frames filling {} bytes", frames, frames * c.frame_size), ce, "frames",
                fmt::format("{:.1f} +- {:.1f}", expected.mean, expected.allowed),
                std::abs(ce - expected.mean) <= expected.allowed};
    // Below Kmin none may be marked: a device that marks early fails, so that is judged.
    // Above it, a fill whose allowance holds 0 is passed by a device without ECN.
    if (expected.mean > 0 && zero_marks_allowed(expected))
      marks.not_judged = fmt::format("a device that never marks would pass too; a fill of {} bytes or more tells it apart",
                                     telling_fill);
    told_apart = told_apart || !zero_marks_allowed(expected);
    checks.push_back(std::move(marks));
    checks.push_back(exactly(fmt::format("frames lost at {} bytes", fill), static_cast<double>(test.lost), 0, "frames"));
    record(p, "ecn", fmt::format("{} B", fill), ended);
  }
  told_apart = told_apart || checks.empty();  // none run: stopped, said elsewhere
  return unless_told_apart(
      judge("ecn", std::move(checks), "the CE marks followed the configured Kmin / Kmax / Pmax curve at every depth"),
      told_apart,
      fmt::format("no fill is deep enough that a device that never marks would fail (the shallowest that is: {} bytes)",
                  telling_fill));
}

}  // namespace lr::bench::lossless
