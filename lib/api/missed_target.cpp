#include "lib/api/missed_target.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace lr::api {

namespace {

// Why a stream fell short with room in its TX queue: the host, when a tester lcore was held
// up long enough to explain it, said with the stall; else the lcore's own speed.
std::string short_without_full_queue(double shortfall, double active_s, const std::vector<LcoreStalls>& lcores) {
  if (lcores.empty()) return "the sending lcore could not keep up";
  const auto worst = std::max_element(lcores.begin(), lcores.end(), [](const LcoreStalls& a, const LcoreStalls& b) {
    return a.stalled_us < b.stalled_us;
  });
  const double needed_us = shortfall * active_s * 1e6;  // the silence that would cost as many frames
  if (worst->stalled_us > 0 && worst->stalled_us >= 0.5 * needed_us) {
    const std::string longest =
        worst->longest_stalls.empty()
            ? ""
            : fmt::format(", the longest {:.0f} us at {:.4f} s", worst->longest_stalls.front().us,
                          worst->longest_stalls.front().from_s);
    return fmt::format("the host held tester lcore {} up {:.0f} us in all{}: the host, not the lcore's speed",
                       worst->lcore, worst->stalled_us, longest);
  }
  return fmt::format("the sending lcore could not keep up (the host held no tester lcore up for more than {:.0f} us in "
                     "all)",
                     worst->stalled_us);
}

}  // namespace

std::string missed_target(const std::string& stream, double target_pps, double achieved_pps, uint64_t tx_queue_full,
                          double held_fraction, const std::vector<LcoreStalls>& tester_lcores, double active_s) {
  const double held = std::clamp(held_fraction, 0.0, 1.0);
  if (target_pps <= 0 || achieved_pps >= target_pps * (1.0 - held) * 0.995) return "";
  const std::string held_text =
      held > 0 ? fmt::format("; held {:.2f} % of the time by PFC / PAUSE, the rest still short", 100.0 * held) : "";
  const double shortfall = 1.0 - achieved_pps / target_pps;
  return fmt::format("stream '{}' sent {:.6f} Mpps, {:.2f} % below its target of {:.6f} Mpps ({} frames found the TX "
                     "queue full: {}{})",
                     stream, achieved_pps / 1e6, 100.0 * shortfall, target_pps / 1e6, tx_queue_full,
                     tx_queue_full != 0 ? "the port took frames more slowly than asked"
                                        : short_without_full_queue(shortfall, active_s, tester_lcores),
                     held_text);
}

}  // namespace lr::api
