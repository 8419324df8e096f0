#include "control/suites/bench/lossless/cases.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "control/suites/bench/lossless/storm.hpp"
#include "control/suites/bench/lossless/timeline.hpp"
#include "control/client/stop_signal.hpp"
#include "control/suites/bench/bench_sections.hpp"
#include "lib/api/stall_report.hpp"

namespace lr::bench::lossless {

CaseOutcome quanta_sweep(Plan& p) {
  const bench::LosslessCfg& c = p.cfg;
  const uint8_t lossless = c.lossless.front();
  std::vector<Check> checks;
  bool told_apart = false;  // a check a device that ignores the PFC would fail
  // A host's hold-up shorter than the stall rule is in no report: a silence that long may
  // be the host's, so a pause is told apart from none only by more than its tolerance and that.
  constexpr double kUnseen_s = static_cast<double>(api::kStallNs) / 1e9;
  const std::optional<uint32_t> telling = shortest_telling_quanta(
      p.receiver_bps, c.quanta_tolerance_percent, static_cast<double>(c.quanta_tolerance_ns) / 1e9, kUnseen_s);
  const std::string telling_text =
      telling ? fmt::format("{} quanta or more tell it apart", *telling) : std::string("no quanta tells it apart");
  for (const uint32_t quanta : c.quanta) {
    if (ctl::stop_requested()) break;
    Streams streams(p);
    streams.test_traffic(lossless);
    const uint64_t at_ns = c.duration_ns / 2;
    streams.mac_control("pfc", false, lossless, quanta, at_ns, 0);
    const double expected = quanta_seconds(quanta, p.receiver_bps);
    const double tolerance = std::max(expected * c.quanta_tolerance_percent / 100, static_cast<double>(c.quanta_tolerance_ns) / 1e9);
    const double planned = static_cast<double>(at_ns) / 1e9, reaction = p.response_s.value_or(1e-3);
    const bool telling_pause = expected - tolerance > kUnseen_s;
    // A hold-up in the window reads as silence: one the run lets pass must stay short of
    // what a device that ignores the PFC would need to pass (expected - tolerance).
    const double stall_limit_us = telling_pause ? std::min(us(tolerance) / 2, us(expected - tolerance)) : us(tolerance) / 2;
    const ctl::EndedRun ended = run(p, streams, "quanta_sweep", fmt::format("{} quanta", quanta),
                            reaction_window("pfc", {planned, planned}, reaction + expected + tolerance, stall_limit_us));
    const api::RunReport& report = ended.report;
    const api::StreamReport& test = stream_of(report, "test");
    const double t0 = sent_of(report, "pfc", {planned, planned}).first_s;
    // The pause is the silence that began at the PFC frame: the run's longest, to the
    // cycle, when that is the one; else (a longer stall of the host elsewhere) the empty
    // bins that follow the frame, to the bin.
    const Silence gap = silence_of(test);
    const double bin = bin_s_of(test);
    const bool at_the_frame = gap.known && gap.from_s >= t0 - bin && gap.from_s <= t0 + reaction;
    const double measured = at_the_frame ? gap.seconds() : empty_bins_after(bins_of(test, "rx"), bin, t0, reaction);
    Check check{fmt::format("pause at {} quanta (expected {:.3f} us)", quanta, us(expected)), us(measured), "us",
                fmt::format("{:.3f} +- {:.3f} us", us(expected), us(tolerance)), std::abs(measured - expected) <= tolerance};
    // A pause within its tolerance (and the unseen hold-up) of none is passed by a device
    // that ignores it. (Quanta 0 asks for no pause at all: a device that pauses anyway
    // fails it, so it is judged.)
    if (expected > 0 && !telling_pause)
      check.not_judged = fmt::format("a device that ignores the PFC (a pause of 0 us, or the host's unreported "
                                     "hold-up under {:.0f} us) would pass too; {}", us(kUnseen_s), telling_text);
    told_apart = told_apart || telling_pause;
    checks.push_back(std::move(check));
    record(p, "quanta_sweep", fmt::format("{} quanta", quanta), ended);
  }
  told_apart = told_apart || checks.empty();  // none run: stopped, said elsewhere
  return unless_told_apart(
      judge("quanta_sweep", std::move(checks),
            fmt::format("every pause lasted its quanta x 512 bit times at {} Gbit/s, within the tolerance",
                        static_cast<double>(p.receiver_bps) / 1e9)),
      told_apart,
      fmt::format("no quanta in the sweep is longer than its tolerance: a device that ignores the PFC would pass; {}",
                  telling_text));
}

}  // namespace lr::bench::lossless
