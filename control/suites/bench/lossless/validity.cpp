#include "control/suites/bench/lossless/validity.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "control/suites/bench/bench_sections.hpp"
#include "lib/api/switch_report.hpp"

namespace lr::bench::lossless {

const WindowsOf kNoWindows = [](const api::RunReport&) { return Windows{}; };

namespace {

// Frames the tester offered while linerate's own switch was held up by the host (all
// its stalls together): its catch-up spreads them over each stall, an approximation of
// when they came, so it may drop them where a real device would not.
double frames_offered_while_stalled(const api::RunReport& report) {
  double stalled_s = 0, pps = 0;
  for (const api::SwitchReport& sw : report.switches) stalled_s += sw.stalled_us / 1e6;
  for (const api::StreamReport& s : report.streams)
    if (s.rx_port) pps += s.tx_pps_achieved;
  return std::ceil(stalled_s * pps);
}

// The first stall long enough to move a measurement where a window measures, with that window.
std::optional<std::pair<api::Stall, Window>> stall_in_windows(const std::vector<api::Stall>& stalls,
                                                              const Windows& windows) {
  for (const api::Stall& stall : stalls)
    for (const Window& w : windows)
      if (api::stall_overlaps(stall, w.from_s, w.to_s, w.stall_limit_us)) return std::pair{stall, w};
  return std::nullopt;
}

// Where the device holds the storm's pause, and the longest stall of it that pause
// survives: the pause each refresh sets, less the time to the next refresh. A switch held
// up longer than that lets frames through the storm by the host's doing.
struct PauseHeld {
  double from_s = 0;
  double to_s = 0;
  double stall_limit_us = 0;
};

std::optional<PauseHeld> pause_held(const api::RunReport& report, double pause_s) {
  const api::StreamReport& storm = stream_of(report, "storm");
  const std::vector<uint64_t> tx = bins_of(storm, "tx");
  const double bin = bin_s_of(storm);
  const std::optional<BinSpan> sent = bins_with_frames(tx);
  const uint64_t frames = storm.tx_packets;
  if (!sent || bin <= 0 || frames < 2) return std::nullopt;
  const double first_s = static_cast<double>(sent->first) * bin, last_s = static_cast<double>(sent->last + 1) * bin;
  const double refresh_s = (last_s - first_s) / static_cast<double>(frames - 1);
  return PauseHeld{first_s, last_s + pause_s, us(std::max(0.0, pause_s - refresh_s))};
}

}  // namespace

WindowsOf reaction_window(const std::string& name, Sent planned, double length, double stall_limit_us) {
  return [=](const api::RunReport& report) {
    const double t0 = sent_of(report, name, planned).first_s;
    return Windows{{t0, t0 + length, stall_limit_us, "test"}};
  };
}

WindowsOf flowing_window(const bench::LosslessCfg& c) {
  const double run_s = static_cast<double>(c.duration_ns) / 1e9, limit_us = static_cast<double>(c.storm_ns) / 2e3;
  return [=](const api::RunReport&) { return Windows{{0, run_s, limit_us, ""}}; };
}

namespace {

// Why linerate's own switch, the device here, spoiled the run (a stall of its lcore where the
// case measures, or a link it sends on that did not take its frames); "" when it did not.
std::string switch_invalid_reason(const api::SwitchReport& sw, const api::RunReport& report,
                                  const std::optional<PauseHeld>& hold, const Windows& windows,
                                  bool tail_drops_expected) {
  const std::string& name = sw.name;
  // A link that refused frames first: it names the cause, where a port that lost time
  // without can only name a stall.
  for (const api::SwitchPortReport& port : sw.ports)
    if (port.egress_lost_us > 0 && port.tx_refused > 0)
      return fmt::format(
          "linerate's switch '{}', the device here, lost {:.0f} us of sending on port '{}', whose link "
          "refused {} frames: the tester's port at its other end was not reading in time (its lcore "
          "held up by the host), or the switch itself was held up: no hardware link refuses, so the "
          "run says nothing of the device",
          name, port.egress_lost_us, port.name, port.tx_refused);
  for (const api::SwitchPortReport& port : sw.ports)
    if (port.egress_lost_us > 0)
      return fmt::format(
          "linerate's switch '{}', the device here, was held up by the host long enough that port "
          "'{}' lost {:.0f} us of sending: no hardware switch stops, so the run says nothing of the "
          "device",
          name, port.name, port.egress_lost_us);
  const std::vector<api::Stall>& stalls = sw.longest_stalls;
  if (hold)
    for (const api::Stall& stall : stalls)
      if (api::stall_overlaps(stall, hold->from_s, hold->to_s, hold->stall_limit_us))
        return fmt::format(
            "linerate's switch '{}', the device here, was held up by the host for {:.0f} us at {:.4f} s, "
            "during the storm and longer than the {:.0f} us of pause its last refresh left: the pause "
            "lapsed by the host's doing (its lcore shares a CPU), so the run says nothing of the device",
            name, stall.us, stall.from_s, hold->stall_limit_us);
  if (const auto held = stall_in_windows(stalls, windows))
    return fmt::format(
        "linerate's switch '{}', the device here, was held up by the host for {:.0f} us at "
        "{:.4f} s, where the case measures ({:.4f}-{:.4f} s; its lcore shares a CPU): no hardware "
        "switch stops, so the run says nothing of the device",
        name, held->first.us, held->first.from_s, held->second.from_s, held->second.to_s);
  // A stall can only add drops (what arrived meanwhile meets the queues late and together):
  // a run where the switch dropped frames and was held up says nothing of its drops
  // (but for the lossy drops an incast must have, judged against a bound with room).
  uint64_t drops = 0;
  for (const api::SwitchPortReport& port : sw.ports)
    for (const api::SwitchPriorityReport& prio : port.priorities)
      drops += (tail_drops_expected ? 0 : prio.drop_tail) + prio.drop_headroom;
  const double longest_us = sw.longest_stall_us;
  if (const double could = frames_offered_while_stalled(report);
      drops != 0 && drops <= could && longest_us >= kEmulationStallLimitUs)
    return fmt::format(
        "linerate's switch '{}', the device here, dropped {} frames in a run where the host held it "
        "up for {:.0f} us, {:.0f} frames' worth in all (its lcore shares a CPU): the drops may be the "
        "host's doing, not the device's",
        name, drops, longest_us, could);
  // Every kept stall that long, and more not kept (`stalls` counts them all), perhaps as
  // long: where those fell is unknown.
  double limit_us = std::numeric_limits<double>::infinity();
  for (const Window& w : windows) limit_us = std::min(limit_us, w.stall_limit_us);
  if (sw.stalls > stalls.size() && !stalls.empty() && stalls.back().us >= limit_us)
    return fmt::format(
        "linerate's switch '{}', the device here, was held up by the host for {:.0f} us or more at "
        "least {} times (its lcore shares a CPU): no hardware switch stops, so the run says nothing "
        "of the device",
        name, limit_us, stalls.size());
  return "";
}

}  // namespace

std::string invalid_reason(const api::RunReport& report, double pause_s, const Windows& windows,
                           bool tail_drops_expected) {
  for (const api::StreamReport& s : report.streams) {
    if (s.name != "storm") continue;
    const std::vector<uint64_t> tx = bins_of(s, "tx");
    const double bin = bin_s_of(s);
    // The longest run of empty bins between the storm's first frame and its last.
    const std::optional<BinSpan> sent = bins_with_frames(tx);
    if (!sent || bin <= 0) continue;
    const size_t longest = longest_empty_run(tx, sent->first, sent->last, sent->last).length;
    if (static_cast<double>(longest + 2) * bin >= pause_s)
      return fmt::format(
          "the storm lapsed: no PFC frame sent for {:.0f} us, longer than the {:.0f} us pause each holds "
          "(the tester's lcore was held up)",
          us(static_cast<double>(longest) * bin), us(pause_s));
  }
  for (const Window& w : windows) {
    if (w.sender.empty()) continue;
    const api::StreamReport& s = stream_of(report, w.sender);
    const std::vector<uint64_t> tx = bins_of(s, "tx");
    const double bin = bin_s_of(s);
    if (bin <= 0) continue;
    const auto from = static_cast<size_t>(w.from_s / bin), to = static_cast<size_t>(std::ceil(w.to_s / bin));
    const EmptyRun empty = to > from ? longest_empty_run(tx, from, to - 1, to) : EmptyRun{};
    if (us(static_cast<double>(empty.length) * bin) >= w.stall_limit_us)
      return fmt::format(
          "the tester sent no '{}' frame for {:.0f} us at {:.4f} s, where the case measures (its "
          "lcore was held up)",
          w.sender, us(static_cast<double>(empty.length) * bin), static_cast<double>(empty.from) * bin);
  }
  // The tester's own lcores: a frame read late looks late (its time is taken when read), a
  // lane held up sends late.
  for (const api::LcoreStalls& lcore : report.lcores) {
    if (const auto held = stall_in_windows(lcore.longest_stalls, windows))
      return fmt::format(
          "the tester's lcore {} was held up by the host for {:.0f} us at {:.4f} s, where the case "
          "measures ({:.4f}-{:.4f} s): what it received meanwhile was read late, so the run says "
          "nothing of the device",
          lcore.lcore, held->first.us, held->first.from_s, held->second.from_s, held->second.to_s);
  }
  const std::optional<PauseHeld> hold = pause_held(report, pause_s);
  for (const api::SwitchReport& sw : report.switches)
    if (std::string why = switch_invalid_reason(sw, report, hold, windows, tail_drops_expected); !why.empty())
      return why;
  return "";
}

}  // namespace lr::bench::lossless
