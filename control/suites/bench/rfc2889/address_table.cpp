#include <fmt/format.h>

#include <cmath>

#include "control/client/stop_signal.hpp"
#include "control/suites/bench/rfc2889/address_search.hpp"
#include "control/suites/bench/rfc2889/tests.hpp"
#include "control/suites/bench/rfc2889_section.hpp"

namespace lr::bench::rfc2889 {

namespace {

// Port 0 learns, port 1 tests, port 2 monitors (RFC 2889 §5.7's ports 1, 2 and 3).
constexpr size_t kLearningPort = 0, kTestPort = 1, kMonitorPort = 2;
constexpr uint16_t kFrameBytes = 64;
constexpr uint32_t kDefaultLearningAddresses = 1000;
// A learning stream this far below its rate has not shown the rate (the data plane's own 0.5 %).
constexpr double kRateShortfall = 0.005;

// One trial: after the aging time (the device forgot the previous trial's addresses),
// the test port says hello; `n` learning frames from as many source addresses go from
// the learning port to it at `learning_fps`; then the test port sends one frame to each
// address at address_rate. A frame the device did not learn floods: the monitor port sees it.
AddressTrial address_trial(Plan& p, const std::string& test, uint32_t n, double learning_fps) {
  AddressTrial t;
  t.addresses = n;
  t.learning_fps = learning_fps;
  // Neither stream sends what it owes at once after the tester was held up: a burst of new
  // addresses is not the rate asked, and a learner may rightly refuse one.
  Streams streams(p, {kTestPort});
  {
    api::StreamSpec& learning = streams.traffic("learning", kLearningPort, kTestPort, kFrameBytes,
                                                {api::RateKind::kPps, learning_fps}, kHelloSettleNs, 0, n);
    learning.eth_src = mac_of(kAddressBase);
    learning.vary.push_back({api::VaryField::kEthSrc, api::VaryOp::kIncrement, n, 1, {}});
    learning.catch_up = false;
  }
  const auto learning_ns = static_cast<uint64_t>(std::ceil(n / learning_fps * 1e9));
  {
    api::StreamSpec& probe = streams.traffic("test", kTestPort, kLearningPort, kFrameBytes,
                                             {api::RateKind::kPps, p.cfg.address_rate_fps},
                                             kHelloSettleNs + learning_ns + kLearnToTestNs, 0, n);
    probe.eth_dst = mac_of(kAddressBase);
    probe.vary.push_back({api::VaryField::kEthDst, api::VaryOp::kIncrement, n, 1, {}});
    probe.catch_up = false;
  }
  const double traffic_s = static_cast<double>(kHelloSettleNs + learning_ns + kLearnToTestNs) / 1e9 + n / p.cfg.address_rate_fps;
  const auto spoiled = [&](const api::RunReport& report) {
    if (std::string why = invalid_reason(report, traffic_s, {"learning", "test"}); !why.empty()) return why;
    // Held up, the tester sends its learning frames later, never faster: that only eases
    // the learner. A trial that flooded is the device's at any rate sent; one that learned
    // everything only at the rate it was sent, which must be the rate asked.
    const api::StreamReport& learned = stream_of(report, "learning");
    const api::StreamReport& tested = stream_of(report, "test");
    const bool flooded = tested.misdelivered > 0 || tested.lost > 0;
    if (!flooded && learned.tx_pps_achieved < learned.target_pps * (1 - kRateShortfall))
      return fmt::format("every address was learned, but the learning frames went at {:.6g} frames/s, {:.2f} % below "
                         "the rate asked (the host held the tester up): no pass at the rate asked",
                         learned.tx_pps_achieved, 100 * (1 - learned.tx_pps_achieved / learned.target_pps));
    return std::string();
  };
  // Every run, the first and any run again, after the aging time: the device has forgotten
  // what the run before taught it.
  const Measured m = measure(p, streams, test, fmt::format("{} addresses at {:g} frames/s", n, learning_fps), spoiled,
                             static_cast<double>(p.cfg.age_time_ns) / 1e9);
  t.valid = m.valid();
  t.invalid = m.interrupted ? "interrupted" : m.invalid;
  if (!t.valid) return t;
  const api::StreamReport& tested = stream_of(m.run.report, "test");
  t.flooded = tested.misdelivered;
  t.lost = tested.lost;
  t.learning_lost = stream_of(m.run.report, "learning").lost;
  return t;
}

}  // namespace

void address_caching(Plan& p) {
  Result result = entry("address_caching", "5.7");
  std::vector<AddressTrialRow> trials;
  std::string why;
  bool capped = false;
  const auto found = search<uint32_t>(
      p.cfg.min_addresses, p.cfg.max_addresses,
      [&](uint32_t n) { return address_trial(p, "address_caching", n, p.cfg.address_rate_fps); },
      [](uint32_t lo, uint32_t hi) { return hi - lo <= 1; }, trials, why, capped);
  result.learning_port = p.port(kLearningPort);
  result.test_port = p.port(kTestPort);
  result.monitor_port = p.port(kMonitorPort);
  result.address_rate_fps = p.cfg.address_rate_fps;
  result.age_time_s = static_cast<double>(p.cfg.age_time_ns) / 1e9;
  result.trials = std::move(trials);
  if (found && !why.empty()) {
    cut_short<uint64_t>(result, result.addresses_at_least, *found, why,
                        fmt::format("at least {} addresses were learned", *found));
  } else if (found) {
    p.addresses_cached = *found;
    result.addresses = *found;
    // The test port's own station is in the table too.
    result.table_entries = *found + 1;
    result.why = capped ? fmt::format("every one of max_addresses ({}) was learned: the table holds at least that",
                                         *found)
                           : fmt::format("{} addresses learned without flooding, {} flooded (with the test port's "
                                         "station, the table held {})", *found, *found + 1, *found + 1);
    if (capped) result.at_least = true;
  } else {
    result.verdict = why.empty() ? "measured" : "SKIPPED";  // addresses: none, written as null
    result.why = why.empty() ? fmt::format("frames flooded already at min_addresses ({})", p.cfg.min_addresses) : why;
  }
  p.result(result);
}

void address_learning(Plan& p) {
  Result result = entry("address_learning", "5.8");
  uint32_t n = p.cfg.learning_addresses;
  if (n == 0) n = p.addresses_cached.value_or(kDefaultLearningAddresses);
  std::vector<AddressTrialRow> trials;
  std::string why;
  bool capped = false;
  if (const double wait_s = address_wait_s(n, p.cfg.min_learning_rate_fps, p.cfg.address_rate_fps);
      wait_s * 1e9 >= static_cast<double>(p.cfg.age_time_ns)) {
    result.verdict = "SKIPPED";
    result.why = fmt::format("{} addresses at min_learning_rate ({:g} frames/s) wait up to {:.3f} s for their test "
                                "frames, not within age_time ({:g} s): set learning_addresses lower or "
                                "min_learning_rate higher", n, p.cfg.min_learning_rate_fps, wait_s,
                                static_cast<double>(p.cfg.age_time_ns) / 1e9);
    p.result(result);
    return;
  }
  const double resolution = p.cfg.learning_resolution_percent / 100;
  const auto found = search<double>(
      p.cfg.min_learning_rate_fps, p.cfg.max_learning_rate_fps,
      [&](double fps) { return address_trial(p, "address_learning", n, fps); },
      [resolution](double lo, double hi) { return hi - lo <= lo * resolution; }, trials, why, capped);
  result.addresses = n;
  result.address_rate_fps = p.cfg.address_rate_fps;
  result.resolution_percent = p.cfg.learning_resolution_percent;
  result.trials = std::move(trials);
  if (found && !why.empty()) {
    cut_short(result, result.learning_rate_at_least_fps, *found, why,
              fmt::format("every address was learned at {:.6g} frames/s", *found));
  } else if (found) {
    result.learning_rate_fps = *found;
    result.why = capped ? fmt::format("every address was learned at max_learning_rate ({:g} frames/s)", *found)
                           : fmt::format("all {} addresses learned at {:.6g} frames/s, some not {:.2g} % faster", n,
                                         *found, p.cfg.learning_resolution_percent);
    if (capped) result.at_least = true;
  } else {
    result.verdict = why.empty() ? "measured" : "SKIPPED";  // learning_rate_fps: none, written as null
    result.why = !why.empty() ? why
                    : p.addresses_cached && n > *p.addresses_cached
                        ? fmt::format("addresses flooded already at min_learning_rate ({:g} frames/s): the {} "
                                      "addresses are more than address_caching found the table holds ({})",
                                      p.cfg.min_learning_rate_fps, n, *p.addresses_cached)
                        : fmt::format("addresses flooded already at min_learning_rate ({:g} frames/s)",
                                      p.cfg.min_learning_rate_fps);
  }
  p.result(result);
}

}  // namespace lr::bench::rfc2889
