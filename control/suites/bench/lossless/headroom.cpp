#include "control/suites/bench/lossless/cases.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <optional>

#include "control/suites/bench/lossless/storm.hpp"
#include "control/suites/bench/lossless/timeline.hpp"
#include "control/reports/quantity_text.hpp"
#include "control/client/stop_signal.hpp"
#include "control/suites/bench/bench_sections.hpp"
#include "lib/common/line_rate.hpp"

namespace lr::bench::lossless {

namespace {

// A port's PFC reaction delay as the profile set it, put back when the case ends
// however it ends.
class ReactionDelayRestorer {
 public:
  ReactionDelayRestorer(TrialRunner& runner, const api::PortSpec& port) : runner_(runner), port_(port) {}
  ReactionDelayRestorer(const ReactionDelayRestorer&) = delete;
  ReactionDelayRestorer& operator=(const ReactionDelayRestorer&) = delete;
  ~ReactionDelayRestorer() {
    try {
      ctl::PortConfigChange as_profiled;
      if (port_.pfc_reaction_delay_quanta)
        as_profiled.pfc_reaction_delay_quanta = *port_.pfc_reaction_delay_quanta;
      else
        as_profiled.pfc_reaction_delay = fmt::format("{}ns", port_.pfc_reaction_delay_ns);
      runner_.set_port(port_.name, as_profiled);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "linerate: port '%s' keeps the headroom case's PFC reaction delay: %s\n",
                   port_.name.c_str(), e.what());
    }
  }

 private:
  TrialRunner& runner_;
  const api::PortSpec& port_;
};

}  // namespace

// Case 6: while a storm holds the device's egress, the sender obeys the device's PFC
// later and later (its pfc_reaction_delay): what it sends after the XOFF, its rate x the
// delay, lands in the device's headroom. Every delay whose bytes fit the expected
// headroom must lose nothing; the largest delay without loss is the figure. Stops at the
// first loss.
CaseOutcome headroom(Plan& p) {
  const bench::LosslessCfg& c = p.cfg;
  if (c.headroom_bytes == 0)
    return skipped("headroom", "no [lossless] headroom (the bytes the device should absorb after its XOFF) to hold it to");
  const std::string& sender = c.senders[0];
  const auto port = std::find_if(p.profile.ports.begin(), p.profile.ports.end(),
                                 [&](const api::PortSpec& cfg) { return cfg.name == sender; });
  if (port == p.profile.ports.end()) return skipped("headroom", fmt::format("no [[port]] '{}'", sender));
  const uint8_t lossless = c.lossless.front();
  // Frame bytes (what a buffer holds) the sender sends per second.
  const double bytes_per_s = line_rate_pps(p.speeds[sender], c.frame_size) * c.rate_percent / 100 * c.frame_size;
  const double expected_s = static_cast<double>(c.headroom_bytes) / bytes_per_s;
  std::vector<uint64_t> delays = c.headroom_delays_ns;
  if (delays.empty())
    for (const double share : {0.25, 0.5, 0.8, 1.25, 2.0}) delays.push_back(static_cast<uint64_t>(share * expected_s * 1e9));
  ReactionDelayRestorer restore(p.runner, *port);
  std::vector<Check> checks;
  std::optional<double> largest_ok_s, first_loss_s;
  double xoff_heard = 0;
  for (const uint64_t delay_ns : delays) {
    if (ctl::stop_requested()) break;
    const double delay_s = static_cast<double>(delay_ns) / 1e9, in_flight = delay_s * bytes_per_s;
    ctl::PortConfigChange delay;
    delay.pfc_reaction_delay = fmt::format("{}ns", delay_ns);
    p.runner.set_port(sender, delay);
    Streams streams(p);
    streams.traffic("test", sender, lossless, c.rate_percent, 0, c.duration_ns);
    streams.pfc_storm(lossless);
    // A stall of the switch adds its length x the rate to what lands in the headroom:
    // more than a tenth of the expected headroom's worth, and the run says nothing.
    const std::string label = fmt::format("{:.0f} us", us(delay_s));
    const ctl::EndedRun ended = run(p, streams, "headroom", label, [&](const api::RunReport& r) {
      const Sent storm = sent_of(r, "storm", planned_storm(c));
      return Windows{{storm.first_s, storm.last_s, us(expected_s) / 10, ""}};
    });
    const api::RunReport& report = ended.report;
    const double lost = static_cast<double>(stream_of(report, "test").lost);
    xoff_heard += pfc_xoff_heard(report, sender, lossless);
    const std::string what = fmt::format("sender {:.0f} us late ({:.0f} bytes after the XOFF): frames lost", us(delay_s), in_flight);
    if (in_flight <= static_cast<double>(c.headroom_bytes)) checks.push_back(exactly(what, lost, 0, "frames"));
    else checks.push_back({what, lost, "frames", "(reported: beyond the expected headroom)", true});
    record(p, "headroom", label, ended);
    if (p.interrupted || !p.not_judged.empty()) break;
    if (lost > 0) {
      first_loss_s = delay_s;
      break;
    }
    largest_ok_s = delay_s;
  }
  checks.push_back(at_least(fmt::format("PFC XOFF frames heard at '{}' (the device paused it)", sender), xoff_heard, 1, "frames"));
  if (largest_ok_s)
    checks.push_back({"largest delay without loss, as headroom at the sender's rate", *largest_ok_s * bytes_per_s,
                      "bytes", fmt::format("(reported: {:.0f} us x {:.0f} bytes/s)", us(*largest_ok_s), bytes_per_s), true});
  return judge("headroom", std::move(checks),
               fmt::format("the device absorbed a sender {:.0f} us late: at least {} ({:.0f} bytes) of headroom ({}); "
                           "expected {}", us(largest_ok_s.value_or(0)), ctl::text::bytes(largest_ok_s.value_or(0) * bytes_per_s),
                           largest_ok_s.value_or(0) * bytes_per_s,
                           first_loss_s ? fmt::format("frames lost from {:.0f} us", us(*first_loss_s))
                                        : std::string("no loss at any delay tried"),
                           ctl::text::bytes(static_cast<double>(c.headroom_bytes))));
}

}  // namespace lr::bench::lossless
