#include "control/suites/bench/rfc2544_procedures.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "control/suites/bench/back_to_back_search.hpp"
#include "control/suites/bench/frame_loss_sweep.hpp"
#include "control/suites/bench/latency_summary.hpp"
#include "control/suites/bench/throughput_search.hpp"
#include "control/client/stop_signal.hpp"
#include "control/suites/bench/bench_sections.hpp"
#include "lib/common/line_rate.hpp"

namespace lr::bench {

namespace {

// A latency trial whose tester lcore was held up this long is invalid (see run_latency).
constexpr double kLatencyStallLimitUs = 1000;

std::string label(const bench::BenchFrameSize& size, const char* test) {
  return fmt::format("{:>5} B  {:<12}", size.name, test);
}

void rest(const Procedure& p) { ctl::sleep_unless_stopped(static_cast<double>(p.cfg.rest_ns) / 1e9); }

}  // namespace

std::vector<PairFigures> pair_figures(const api::RunReport& run_report) {
  std::map<std::pair<std::string, std::string>, PairFigures> pairs;
  for (const api::StreamReport& s : run_report.streams) {
    PairFigures& pair = pairs[{s.tx_port, s.rx_port.value_or("")}];
    ++pair.streams;
    pair.tx_packets += s.tx_packets;
    pair.rx_packets += s.rx_packets - s.duplicate;
    pair.lost += s.lost;
    pair.pps += s.tx_pps_achieved;
    pair.l1_bps += s.tx_l1_bps_achieved;
  }
  std::vector<PairFigures> out;
  for (auto& [ports, pair] : pairs) {
    pair.tx_port = ports.first;
    pair.rx_port = ports.second;
    out.push_back(std::move(pair));
  }
  return out;
}

RateAnswer rate_answer(const bench::BenchFrameSize& size, const ThroughputSearch& search, const PassingTrials& passing,
                       const std::string& why) {
  const std::optional<double> found = search.result();
  RateAnswer result = found ? rate_answer(size, *found, passing.at(*found), search.limited_by()) : rate_answer(size, why);
  result.tester_limited_at_percent = search.tester_limited();
  return result;
}

RateAnswer rate_answer(const bench::BenchFrameSize& size, const std::string& why) {
  RateAnswer result;
  result.frame_size = frame_size_name(size);
  result.frame_bytes_mean = size.mean();
  result.why = why;
  return result;
}

RateAnswer rate_answer(const bench::BenchFrameSize& size, double rate_percent, const Trial& at,
                       const std::string& limited_by) {
  RateAnswer result;
  result.frame_size = frame_size_name(size);
  result.frame_bytes_mean = size.mean();
  // Above the answer, did the device lose frames, or could the tester not offer more?
  result.limited_by = limited_by;
  // What TX measurably sent in the trial at the answer, not what was asked.
  result.percent_line_rate = at.result.offered_percent;
  result.rate_percent = rate_percent;
  result.pps = at.offered_pps;
  result.l1_bps = at.offered_l1_bps;
  result.l2_bps = l2_bps(at.offered_pps, size.mean());
  result.latency_ns = latency_of(at.latency.stats);
  result.per_pair = pair_figures(at.run);
  return result;
}

unsigned expected_throughput_trials(const bench::SearchCfg& cfg) {
  const double span = (100.0 - cfg.lower_bound_percent) / cfg.resolution_percent;
  return 2 + static_cast<unsigned>(std::ceil(std::log2(std::max(2.0, span)))) + cfg.confirmations;
}

unsigned expected_frame_loss_trials(double step_percent) {
  return static_cast<unsigned>(std::ceil(100.0 / step_percent));
}

namespace {

unsigned expected_back_to_back_trials_per_search(double resolution_percent) {
  return 1 + static_cast<unsigned>(std::ceil(std::log2(100.0 / resolution_percent)));
}

}  // namespace

unsigned expected_back_to_back_trials(const bench::Rfc2544Cfg& cfg) {
  return cfg.back_to_back_trials * expected_back_to_back_trials_per_search(cfg.resolution_percent);
}

std::optional<ThroughputFound> run_throughput(Procedure& p, const bench::BenchFrameSize& size) {
  ThroughputSearch search({p.cfg.lower_bound_percent, 100.0, p.cfg.resolution_percent,
                           p.cfg.loss_tolerance_percent / 100.0, p.cfg.confirmations, 0});
  PassingTrials passing;
  unsigned trials = 0;
  while (search.next() && !ctl::stop_requested()) {
    const double rate = *search.next();
    const size_t before = search.steps().size();
    Trial trial = p.runner.run({size, rate, p.cfg.trial_duration_ns, 0, p.cfg.warm_up_ns});
    ++trials;
    if (trial.interrupted) {
      p.session.record("throughput", trial, false);
      break;
    }
    search.record(trial.result);
    const bool passed = search.steps().size() > before && search.steps().back().passed;
    if (passed) passing.try_emplace(rate, trial);
    p.session.record("throughput", trial, passed, search.steps().size() > before && search.steps().back().confirmation);
    p.session.progress(label(size, "throughput"), trial,
                       !search.counts(trial.result) ? "invalid: " + trial.invalid_reason
                       : (passed                     ? std::string("pass")
                          : trial.result.lost_anyway ? "fail, the device's loss: " + trial.invalid_reason
                                                     : std::string("fail")) +
                             (search.next() ? fmt::format(" -> next {:.4f} %", *search.next()) : std::string(" -> done")));
    if (search.next()) rest(p);
  }
  p.session.add_expected_trials(static_cast<int>(trials) - static_cast<int>(expected_throughput_trials(p.cfg)));
  if (ctl::stop_requested()) return std::nullopt;

  RateAnswer result = rate_answer(size, search, passing, "frames were lost even at the lower bound");
  result.trials = search.steps().size();
  p.session.report()["throughput"].push_back(to_json(result));
  p.session.save();
  if (!search.result()) return std::nullopt;
  return ThroughputFound{*search.result(), passing.at(*search.result()).result.offered_percent};
}

void run_latency(Procedure& p, const bench::BenchFrameSize& size, double rate_percent, unsigned trials) {
  std::vector<LatencyTrial> measured;
  LatencyAnswer result;
  result.frame_size = frame_size_name(size);
  result.rate_percent = rate_percent;
  double offered_sum = 0;  // what the measured trials offered: the tester may fall short of the rate asked
  std::string last_invalid;
  for (unsigned k = 0; k < trials && !ctl::stop_requested(); ++k) {
    // Latency is taken when a frame is read: a tester lcore held up for a millisecond reads
    // some frames that much late (the bridge-class devices in the tests add tens of us).
    Trial trial = p.runner.run({size, rate_percent, p.cfg.trial_duration_ns, 0, p.cfg.warm_up_ns, kLatencyStallLimitUs});
    p.session.record("latency", trial, trial.result.valid);
    if (trial.interrupted) break;
    p.session.progress(label(size, "latency"), trial,
                       trial.result.valid ? fmt::format("p99 {:.3f} us", trial.latency.stats.p99_ns / 1e3)
                                          : "invalid: " + trial.invalid_reason);
    if (trial.result.valid) {
      measured.push_back(trial.latency);
      offered_sum += trial.result.offered_percent;
      result.per_trial.push_back({latency_of(trial.latency.stats), trial.lost});
      result.lost += std::max<int64_t>(trial.lost, 0);
    } else {
      ++result.invalid_trials;
      last_invalid = trial.invalid_reason;
    }
    if (k + 1 < trials) rest(p);
  }
  if (ctl::stop_requested()) return;
  result.trials = measured.size();
  if (!measured.empty()) {
    result.offered_percent = offered_sum / static_cast<double>(measured.size());
    result.across_trials = latency_of(across_trials(measured));
  } else {
    // No figures rather than zeros: the host spoiled every trial, the device showed nothing.
    result.why =
        fmt::format("SKIPPED: all {} latency trials were invalid; the last: {}", result.invalid_trials, last_invalid);
  }
  if (result.lost > 0)
    result.note = fmt::format("{} frames were lost at the throughput rate during the latency trials", result.lost);
  p.session.report()["latency"].push_back(to_json(result));
  p.session.save();
}

void run_frame_loss(Procedure& p, const bench::BenchFrameSize& size, double step_percent) {
  FrameLossSweep sweep(100.0, step_percent);
  unsigned trials = 0;
  while (sweep.next() && !ctl::stop_requested()) {
    const double rate = *sweep.next();
    Trial trial = p.runner.run({size, rate, p.cfg.trial_duration_ns, 0, p.cfg.warm_up_ns});
    ++trials;
    p.session.record("frame_loss", trial, trial.result.valid && trial.lost == 0);
    if (trial.interrupted) break;
    const size_t before = sweep.points().size();
    // A point the tester sent short of, where the device lost frames anyway, is the
    // device's loss at the load offered (both are in the report).
    const bool measured = trial.result.valid || trial.result.lost_anyway;
    sweep.record(trial.result.loss_ratio, measured);
    if (sweep.points().size() > before) {
      FrameLossPoint point{frame_size_name(size), rate, trial.result.offered_percent, 100.0 * trial.result.loss_ratio,
                           measured, std::nullopt};
      if (trial.result.lost_anyway) point.note = trial.invalid_reason;
      p.session.report()["frame_loss"].push_back(to_json(point));
      p.session.save();
    }
    p.session.progress(label(size, "frame_loss"), trial,
                       trial.result.lost_anyway ? "lost frames, the device's: " + trial.invalid_reason
                       : !trial.result.valid    ? "invalid: " + trial.invalid_reason
                       : sweep.next()           ? fmt::format("-> next {:.1f} %", *sweep.next())
                                                : std::string("-> two loss-free trials: done"));
    if (sweep.next()) rest(p);
  }
  p.session.add_expected_trials(static_cast<int>(trials) - static_cast<int>(expected_frame_loss_trials(step_percent)));
}

namespace {

// What a size's back-to-back searches found: the longest burst of each, or how they ended.
struct BurstsFound {
  std::vector<uint64_t> bursts;
  bool tester_limited = false;
  uint64_t lossy_when_limited = 0;  // the shortest burst the device lost frames of, when the tester ended a search
  bool whole_burst_passed = false;
};

// One search of search `n` of `searches`, trial by trial; false when a stop request ended it.
bool search_bursts(Procedure& p, const bench::BenchFrameSize& size, BackToBackSearch& search, unsigned n,
                   unsigned searches) {
  while (search.next() && !ctl::stop_requested()) {
    const uint64_t frames = *search.next();
    Trial trial = p.runner.run({size, 100.0, 0, frames});
    const bool passed = trial.result.valid && trial.lost == 0 && trial.tx_packets > 0;
    p.session.record("back_to_back", trial, passed);
    if (trial.interrupted) break;
    // A burst sent below line rate that lost frames anyway: the device could not take
    // even the gentler burst, so it fails this length.
    search.record(passed, trial.result.valid || trial.result.lost_anyway);
    p.session.progress(label(size, "back_to_back"), trial,
                       fmt::format("search {} of {}: burst of {} frames {}", n + 1, searches, frames,
                                   trial.result.lost_anyway ? "lost frames, the device's: " + trial.invalid_reason
                                   : !trial.result.valid    ? "invalid: " + trial.invalid_reason
                                   : passed                 ? "passed"
                                                            : "lost frames"));
    if (search.next()) rest(p);
  }
  return !ctl::stop_requested();
}

// RFC 9004's figures from the bursts found: their mean, its length in time at line rate,
// and (the throughput known) the buffer time corrected by what the device forwards at its
// throughput while the burst arrives (the rest had to be buffered); a note where the
// searches say something else than the device's buffer.
BackToBackAnswer back_to_back_answer(const bench::BenchFrameSize& size, const BurstsFound& found, uint64_t max_frames,
                                     double line_pps, uint64_t duration_ns, std::optional<double> throughput_percent) {
  BackToBackAnswer result;
  result.frame_size = frame_size_name(size);
  result.searches = found.bursts.size();
  result.bursts = found.bursts;
  result.max_burst_frames = max_frames;
  result.line_rate_pps = line_pps;
  if (!found.bursts.empty()) {
    double sum = 0;
    for (uint64_t b : found.bursts) sum += static_cast<double>(b);
    const double mean = sum / static_cast<double>(found.bursts.size());
    result.mean_frames = mean;
    result.min_frames = *std::min_element(found.bursts.begin(), found.bursts.end());
    result.max_frames = *std::max_element(found.bursts.begin(), found.bursts.end());
    result.implied_buffer_time_s = mean / line_pps;
    if (throughput_percent) {
      result.throughput_percent = *throughput_percent;
      result.buffered_frames = mean * (1.0 - *throughput_percent / 100.0);
      result.corrected_buffer_time_s = mean * (1.0 - *throughput_percent / 100.0) / line_pps;
    }
  }
  if (found.whole_burst_passed)
    result.note = fmt::format("the longest burst ({} frames, {:g} s at line rate) passed: the device forwards this "
                              "size at line rate, so the figure is not a measure of its buffer (RFC 9004)",
                              max_frames, static_cast<double>(duration_ns) / 1e9);
  if (found.tester_limited && found.lossy_when_limited != 0) {
    // The device showed its limit before the tester reached its own: say both.
    result.lost_at_frames = found.lossy_when_limited;
    result.note = fmt::format("the device lost frames in a burst of {} frames (sent at or below line rate); the tester "
                              "could not send a shorter burst back to back (twice), so the longest burst the device "
                              "takes is below {} frames, not measured further",
                              found.lossy_when_limited, found.lossy_when_limited);
  } else if (found.tester_limited) {
    result.note = "the tester could not send the burst at line rate (twice): the tester, not the device, was the limit";
  }
  return result;
}

}  // namespace

void run_back_to_back(Procedure& p, const bench::BenchFrameSize& size, unsigned searches, uint64_t duration_ns,
                      std::optional<double> throughput_percent) {
  const double line_pps = p.runner.line_pps(size);
  const auto max_frames =
      std::max<uint64_t>(1, static_cast<uint64_t>(line_pps * static_cast<double>(duration_ns) / 1e9));
  BurstsFound found;
  unsigned per_search = expected_back_to_back_trials_per_search(p.cfg.resolution_percent);
  for (unsigned n = 0; n < searches && !ctl::stop_requested(); ++n) {
    BackToBackSearch search({max_frames, p.cfg.resolution_percent});
    if (!search_bursts(p, size, search, n, searches)) return;
    // The ETA learns from the searches done: the next ones take about as many bursts.
    p.session.add_expected_trials(static_cast<int>(search.trials()) - static_cast<int>(per_search));
    per_search = search.trials();
    const int trials_left = static_cast<int>(searches - n - 1) * static_cast<int>(per_search);
    if (search.tester_limited()) {
      found.tester_limited = true;
      found.lossy_when_limited = search.shortest_lossy();
      p.session.add_expected_trials(-trials_left);
      break;
    }
    found.bursts.push_back(search.result());
    if (search.result() == max_frames) {
      found.whole_burst_passed = true;
      p.session.add_expected_trials(-trials_left);
      break;  // the device keeps up with line rate for the longest burst: repeating says nothing new
    }
    if (n + 1 < searches) rest(p);
  }
  p.session.report()["back_to_back"].push_back(
      to_json(back_to_back_answer(size, found, max_frames, line_pps, duration_ns, throughput_percent)));
  p.session.save();
}

}  // namespace lr::bench
