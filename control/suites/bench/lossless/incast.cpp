#include "control/suites/bench/lossless/cases.hpp"

#include <fmt/format.h>

#include <cmath>

#include "control/suites/bench/lossless/storm.hpp"
#include "control/suites/bench/lossless/timeline.hpp"
#include "control/suites/bench/bench_sections.hpp"
#include "lib/common/line_rate.hpp"

namespace lr::bench::lossless {

namespace {

constexpr double kQueueBridgesS = 100e-6;  ///< a silence of the senders a device's queue bridges

}  // namespace

CaseOutcome incast(Plan& p) {
  const bench::LosslessCfg& c = p.cfg;
  const uint8_t lossless = c.lossless.front(), lossy = c.lossy.front();
  Streams streams(p);
  for (const std::string& sender : c.senders) {
    streams.traffic("lossless-" + sender, sender, lossless, c.incast_rate_percent, 0, c.duration_ns);
    streams.traffic("lossy-" + sender, sender, lossy, c.incast_rate_percent, 0, c.duration_ns);
  }
  const ctl::EndedRun ended = run(p, streams, "incast", "", kNoWindows, true);
  const api::RunReport& report = ended.report;
  double lossless_lost = 0, lossy_lost = 0, sent = 0;
  for (const std::string& sender : c.senders) {
    lossless_lost += static_cast<double>(stream_of(report, "lossless-" + sender).lost);
    lossy_lost += static_cast<double>(stream_of(report, "lossy-" + sender).lost);
    for (const char* kind : {"lossless-", "lossy-"}) sent += static_cast<double>(stream_of(report, kind + sender).tx_packets);
  }
  // What the receiver's link could carry over the traffic's time; the rest had to go.
  const double carried = line_rate_pps(p.receiver_bps, c.frame_size) * static_cast<double>(c.duration_ns) / 1e9;
  const double excess = std::max(0.0, sent - carried);
  double xoff_heard = 0, lossy_pfc_heard = 0;
  for (const std::string& sender : c.senders) {
    xoff_heard += pfc_xoff_heard(report, sender, lossless);
    lossy_pfc_heard += pfc_xoff_heard(report, sender, lossy);
  }
  std::vector<Check> checks;
  checks.push_back(exactly("lossless: frames lost", lossless_lost, 0, "frames"));
  checks.push_back(at_least("lossless: PFC XOFF frames heard at the senders", xoff_heard, 1, "frames"));
  checks.push_back(exactly("lossy: PFC XOFF frames heard at the senders", lossy_pfc_heard, 0, "frames"));
  // A tester that sent nothing at all for a while (its lcore held up) left the receiver's
  // link idle, on any device, once the queue had drained: what it could have carried
  // then is excess too.
  // (linerate's own switch, held up, catches up in wire order; held up longer than it can,
  // its egress lost time, and the run is invalid.)
  std::vector<std::string> names;
  for (const std::string& sender : c.senders)
    for (const char* kind : {"lossless-", "lossy-"}) names.push_back(kind + sender);
  const double idle = std::ceil(silent_seconds(report, names, static_cast<double>(c.duration_ns) / 1e9, kQueueBridgesS) *
                                line_rate_pps(p.receiver_bps, c.frame_size));
  checks.push_back(at_most(idle > 0 ? fmt::format("lossy: frames lost (the excess over the receiver's line rate, + 1 % "
                                                  "of all sent, + {:.0f} it could have carried while the tester sent "
                                                  "nothing for over 100 us)", idle)
                                    : "lossy: frames lost (the excess over the receiver's line rate, + 1 % of all sent)",
                           lossy_lost, std::ceil(excess + 0.01 * sent + idle), "frames"));
  record(p, "incast", "", ended);
  return judge("incast", std::move(checks),
               fmt::format("{}:1 incast: the lossless priority lost nothing and paused its senders; the lossy one "
                           "lost at most the excess", c.senders.size()));
}

}  // namespace lr::bench::lossless
