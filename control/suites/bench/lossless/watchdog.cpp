#include "control/suites/bench/lossless/cases.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "control/suites/bench/lossless/storm.hpp"
#include "control/suites/bench/lossless/timeline.hpp"
#include "control/suites/bench/bench_sections.hpp"

namespace lr::bench::lossless {

// Case 8: a storm longer than the watchdog's detection time, ended by an XON. Forwarding
// watchdog: the test stream's silence ends at detection. Dropping one: the device's
// queue, emptied at detection, lets the sender go (its last PFC frame, an XON), and the
// silence ends `restore` after the storm's XON.
CaseOutcome watchdog(Plan& p) {
  const bench::LosslessCfg& c = p.cfg;
  if (!c.watchdog) return skipped("watchdog", "no [lossless] watchdog = { detect, restore } to hold the device's to");
  const uint8_t lossless = c.lossless.front();
  const uint64_t lead_ns = 20'000'000, storm_ns = std::max(c.storm_ns, 2 * c.watchdog_detect_ns);
  const uint64_t tail_ns = 2 * c.watchdog_restore_ns + 20'000'000;
  const double detect = static_cast<double>(c.watchdog_detect_ns) / 1e9;
  const double restore = static_cast<double>(c.watchdog_restore_ns) / 1e9;
  const auto tolerance = [&](double expected) {
    return c.watchdog_tolerance_ns != 0 ? static_cast<double>(c.watchdog_tolerance_ns) / 1e9 : expected / 10;
  };
  Streams streams(p);
  streams.traffic("test", c.senders[0], lossless, c.rate_percent, 0, lead_ns + storm_ns + tail_ns);
  streams.mac_control("storm", false, lossless, kStormQuanta, lead_ns, storm_ns);
  streams.mac_control("xon", false, lossless, 0, lead_ns + storm_ns, 0);
  const Sent planned_storm{static_cast<double>(lead_ns) / 1e9, static_cast<double>(lead_ns + storm_ns) / 1e9};
  const Sent planned_xon{planned_storm.last_s, planned_storm.last_s};
  const ctl::EndedRun ended = run(p, streams, "watchdog", "", [&](const api::RunReport& r) {
    const double t0 = sent_of(r, "storm", planned_storm).first_s, xon = sent_of(r, "xon", planned_xon).first_s;
    return Windows{{t0 + detect - tolerance(detect), t0 + detect + tolerance(detect), us(tolerance(detect)) / 2, ""},
                   {xon, xon + restore + tolerance(restore), us(tolerance(restore)) / 2, ""}};
  });
  const api::RunReport& report = ended.report;
  const api::StreamReport& test = stream_of(report, "test");
  const double t0 = sent_of(report, "storm", planned_storm).first_s, xon = sent_of(report, "xon", planned_xon).first_s;
  const Silence gap = silence_of(test);
  const auto within = [](const std::string& what, double measured, double expected, double tol) {
    return Check{what, us(measured), "us", fmt::format("{:.0f} +- {:.0f} us", us(expected), us(tol)),
                 std::abs(measured - expected) <= tol};
  };
  std::vector<Check> checks;
  if (c.watchdog_forward) {
    checks.push_back(within("detection: the storm's first PFC frame to the test stream forwarded again",
                            gap.known ? gap.to_s - t0 : 0, detect, tolerance(detect)));
    checks.push_back(exactly("test: frames lost", static_cast<double>(test.lost), 0, "frames"));
  } else {
    const double released = last_pfc_heard(report, c.senders[0], t0, xon);
    if (released < 0)
      checks.push_back({"detection: the sender's last PFC frame (the XON of its emptied queue)", 0, "us",
                        "a PFC frame at the sender during the storm: the device's queue must reach its XOFF before "
                        "the watchdog fires (raise [lossless] rate)", false});
    else
      checks.push_back(within("detection: the storm's first PFC frame to the device's XON to the sender (to the bin)",
                              released - t0, detect, tolerance(detect)));
    checks.push_back(at_least("test: frames the watchdog dropped (lost)", static_cast<double>(test.lost), 1, "frames"));
    checks.push_back(within("restoration: the storm's XON to the test stream forwarded again",
                            gap.known ? gap.to_s - xon : 0, restore, tolerance(restore)));
  }
  record(p, "watchdog", "", ended);
  return judge("watchdog", std::move(checks),
               c.watchdog_forward
                   ? "the watchdog found the storm in its detection time and forwarded the paused priority"
                   : "the watchdog found the storm in its detection time, dropped, and restored PFC in its restore time");
}

}  // namespace lr::bench::lossless
