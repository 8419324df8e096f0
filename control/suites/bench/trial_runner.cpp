#include "control/suites/bench/trial_runner.hpp"

#include <fmt/format.h>

#include <chrono>
#include <map>
#include <set>

#include "control/client/stop_signal.hpp"
#include "control/suites/bench/bench_sections.hpp"
#include "lib/api/missed_target.hpp"
#include "lib/api/run_report.hpp"
#include "lib/common/line_rate.hpp"

namespace lr::bench {

using nlohmann::json;

namespace {

LatencyStats stats_of(const api::LatencySummary& l) {
  return {l.samples,
          static_cast<double>(l.min_ns),
          l.mean_ns,
          static_cast<double>(l.max_ns),
          static_cast<double>(l.p50_ns),
          static_cast<double>(l.p99_ns),
          static_cast<double>(l.p999_ns),
          l.jitter_ns};
}

}  // namespace

std::string held_up_by_host(const api::RunReport& run, double stall_limit_us, double traffic_s) {
  const auto longest = [&run] {
    const api::LcoreStalls* worst = nullptr;
    for (const api::LcoreStalls& l : run.lcores)
      if (worst == nullptr || l.longest_stall_us > worst->longest_stall_us) worst = &l;
    return worst;
  };
  for (const api::PortReport& p : run.ports)
    if (const uint64_t missed = p.counters.imissed + p.counters.rx_nombuf; missed != 0) {
      const api::LcoreStalls* worst = longest();
      return fmt::format("the tester's port '{}' could not take in {} frames the device delivered (its RX ring was "
                         "full{}): not the device's loss",
                         p.name, missed,
                         worst != nullptr ? fmt::format("; lcore {} was held up by the host for up to {:.0f} us",
                                                        worst->lcore, worst->longest_stall_us)
                                          : "");
    }
  if (stall_limit_us <= 0) return "";
  if (const auto held = api::longest_stall_within(run.lcores, 0, traffic_s); held && held->stall.us >= stall_limit_us)
    return fmt::format("the tester's lcore {} was held up by the host for {:.0f} us at {:.4f} s (frames read "
                       "meanwhile look up to that late; the trial allows {:.0f} us)",
                       held->lcore, held->stall.us, held->stall.from_s, stall_limit_us);
  return "";
}

TrialRunner::TrialRunner(ctl::RunTarget& target, const profile::Profile& profile) : run_(target), profile_(profile) {}

// The profile's streams with the trial's frame size, load and duration (or burst).
std::vector<api::StreamSpec> TrialRunner::streams_at(const TrialSpec& spec) const {
  std::vector<api::StreamSpec> streams = profile_.streams;
  for (api::StreamSpec& s : streams) {
    s.frame = {};
    s.frame.sizes = spec.frame.sizes;
    if (spec.frame.is_mix()) {
      s.frame.kind = api::FrameSizeKind::kImix;
      s.frame.weights = spec.frame.weights;
    }
    s.rate = {api::RateKind::kPercentOfLine, spec.percent};
    s.burst.reset();
    s.count = spec.burst_frames;
    s.duration_ns = spec.burst_frames > 0 ? 0 : spec.duration_ns;
  }
  return streams;
}

void TrialRunner::run_until_sent(bool& interrupted) {
  run_.start();
  interrupted = !run_.wait_until_sent(std::chrono::milliseconds(20));
}

uint64_t TrialRunner::learn(uint32_t frames) {
  if (frames == 0) return 0;
  std::vector<api::StreamSpec> streams;
  std::set<std::pair<std::string, api::MacAddr>> seen;
  for (const api::StreamSpec& s : profile_.streams) {
    // A group address (multicast, broadcast) is never a source a switch learns.
    const bool group_address = (s.eth_dst[0] & 1) != 0;
    // A stream between emulated hosts goes through a router to a host that announced itself
    // and answers its resolution: no MAC to teach.
    if (s.eth_dst_auto || !s.rx_port || group_address || !seen.insert({*s.rx_port, s.eth_dst}).second) continue;
    api::StreamSpec learning;
    learning.name = fmt::format("learning-{}-{}", *s.rx_port, seen.size());
    learning.tx_port = *s.rx_port;
    learning.eth_src = s.eth_dst;
    learning.eth_dst = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    learning.rate = {api::RateKind::kPercentOfLine, 1};
    learning.count = frames;
    streams.push_back(std::move(learning));
  }
  if (streams.empty()) return 0;
  run_.load(streams, profile_.path + " (learning frames)");
  bool interrupted = false;
  run_until_sent(interrupted);
  uint64_t sent = 0;
  for (const api::StreamReport& s : run_.stop().report.streams) sent += s.tx_packets;
  return sent;
}

std::map<std::string, uint64_t> TrialRunner::port_speeds() { return run_.port_speeds(); }

void TrialRunner::set_port(const std::string& port, const ctl::PortConfigChange& change) {
  run_.set_port(port, change);
}

ctl::EndedRun TrialRunner::run_streams(const std::vector<api::StreamSpec>& streams, const std::string& what,
                                       bool& interrupted) {
  run_.load(streams, profile_.path + " (" + what + ")");
  run_until_sent(interrupted);
  return run_.stop();
}

ctl::EndedRun TrialRunner::run_streams(const std::vector<api::StreamSpec>& streams, const std::string& what,
                                       bool& interrupted, const api::RunSpec& run,
                                       const std::function<void(std::chrono::steady_clock::duration)>& during) {
  const api::RunSpec before = run_.load(streams, profile_.path + " (" + what + ")");
  run_.load(streams, profile_.path + " (" + what + ")", run);
  run_.start();
  const auto started = std::chrono::steady_clock::now();
  interrupted =
      !run_.wait_until_sent(std::chrono::milliseconds(20), [&] { during(std::chrono::steady_clock::now() - started); });
  ctl::EndedRun ended = run_.stop();
  run_.load(streams, profile_.path + " (" + what + ")", before);  // the data plane's settings back
  return ended;
}

void TrialRunner::load_devices(const std::vector<api::DeviceSpec>& devices) {
  run_.load_devices(devices, profile_.path);
}

void TrialRunner::set_link(const std::string& port, bool up) { run_.set_link(port, up); }

double TrialRunner::line_pps(const bench::BenchFrameSize& frame) {
  std::map<std::string, uint64_t> speeds = port_speeds();
  uint64_t slowest = 0;
  for (const api::StreamSpec& s : profile_.streams)
    if (const uint64_t bps = speeds[s.tx_port]; bps > 0) slowest = slowest == 0 ? bps : std::min(slowest, bps);
  return line_rate_pps(slowest, frame.mean());
}

namespace {

// A stream short of its target: the data plane's own missed-target rule for a timed
// trial; for a burst, its rate measured from its first TX batch to its last, allowed
// the larger of 0.5 % and one batch (32 frames), a large share of a short burst's timing.
std::string sent_short_reason(const api::RunReport& run, const api::StreamReport& s, uint64_t burst_frames) {
  const double target = s.target_pps;
  const double sent = s.tx_pps_achieved;
  if (burst_frames == 0) {
    const double active_s = sent > 0 ? static_cast<double>(s.tx_packets) / sent : 0.0;
    const double held = active_s > 0 ? static_cast<double>(s.paused_ns.value_or(0)) / 1e9 / active_s : 0.0;
    return api::missed_target(s.name, target, sent, s.tx_queue_full, held, run.lcores, active_s);
  }
  const double allowed = std::max(0.005, 32.0 / static_cast<double>(burst_frames));
  if (target > 0 && sent < target * (1 - allowed))
    return fmt::format("stream '{}' sent its burst at {:.6f} Mpps, {:.2f} % below line rate ({:.6f} Mpps): not back "
                       "to back",
                       s.name, sent / 1e6, 100 * (1 - sent / target), target / 1e6);
  return "";
}

// The trial's load, loss and rates from its streams' totals (`target_pps`: what they were asked).
void set_rate_result(Trial& trial, double target_pps) {
  const double loss = trial.tx_packets == 0 ? 1.0 : static_cast<double>(std::max<int64_t>(trial.lost, 0)) /
                                                          static_cast<double>(trial.tx_packets);
  const double offered = target_pps > 0 ? trial.spec.percent * trial.offered_pps / target_pps : 0;
  trial.result.offered_percent = offered;
  trial.result.forwarded_percent = offered * (1 - loss);
  trial.result.loss_ratio = loss;
}

// The tester's limit is not the device's: a stream short of its target, a link that
// dropped during the trial, a host that held the tester up, or nothing sent makes the
// trial invalid (the search repeats it once). Frames lost although the tester only sent
// short are the device's (lost_anyway).
void judge_validity(Trial& trial) {
  const TrialSpec& spec = trial.spec;
  const api::RunReport& run = trial.run;
  bool sent_short = false;  // the one fault so far: a stream sent less than asked
  // A trial never changes its rate, so each stream is held to its one target.
  for (const api::StreamReport& s : run.streams)
    if (std::string missed = sent_short_reason(run, s, spec.burst_frames); !missed.empty()) {
      trial.invalid_reason = std::move(missed);
      sent_short = true;
    }
  // Link events are the port's whole history: only those in this trial's run count (they
  // have a time on its clock).
  for (const api::PortReport& p : run.ports)
    for (const api::LinkEventReport& e : p.link_events)
      if (!e.up && e.run_s) {
        trial.invalid_reason = fmt::format("port '{}' link went down during the trial", p.name);
        sent_short = false;
      }
  if (std::string held = held_up_by_host(run, spec.stall_limit_us,
                                           static_cast<double>(spec.duration_ns) / 1e9 + 0.001); !held.empty()) {
    trial.invalid_reason = std::move(held);
    sent_short = false;
  }
  if (trial.tx_packets == 0 && !trial.interrupted) {
    trial.invalid_reason = "nothing was sent";
    sent_short = false;
  }
  trial.result.valid = trial.invalid_reason.empty() && !trial.interrupted;
  if (!trial.result.valid && sent_short && !trial.interrupted && trial.lost > 0) {
    // Sending less only eases a device's task: the lanes' catch-up after a stall is capped
    // at 100 us of frames at the rate asked (pacer.hpp), the shape a trial at that rate has
    // too. Frames lost anyway are the device's.
    trial.result.lost_anyway = true;
    trial.invalid_reason += fmt::format("; yet the device lost {} frames, and sending less only eases its task: the loss "
                                        "is the device's",
                                        trial.lost);
  }
}

}  // namespace

bool TrialRunner::warm_up(const TrialSpec& spec, Trial& trial) {
  if (spec.warm_up_ns == 0 || spec.burst_frames > 0) return true;
  // The device's tables, caches and queues settle at this load before it is measured.
  TrialSpec warm_up = spec;
  warm_up.duration_ns = spec.warm_up_ns;
  run_.load(streams_at(warm_up), profile_.path + " (warm-up)");
  run_until_sent(trial.interrupted);
  run_.stop();
  if (trial.interrupted) trial.invalid_reason = "interrupted during the warm-up";
  return !trial.interrupted;
}

double TrialRunner::sum_streams(Trial& trial) {
  double target_pps = 0;
  std::vector<LatencyTrial> per_stream;
  for (const api::StreamReport& s : trial.run.streams) {
    trial.tx_packets += s.tx_packets;
    trial.rx_packets += s.rx_packets - s.duplicate;
    trial.lost += s.lost;
    trial.offered_pps += s.tx_pps_achieved;
    trial.offered_l1_bps += s.tx_l1_bps_achieved;
    target_pps += s.target_pps;
    LatencyTrial latency{stats_of(s.latency), {}};
    if (latency.stats.samples > 0)
      for (const api::LatencyHistogram::Bucket& b : run_.histogram(s.name).buckets)
        latency.buckets.push_back({b.low_ns, b.high_ns, b.count});
    per_stream.push_back(std::move(latency));
  }
  trial.latency.stats = across_trials(per_stream);
  for (LatencyTrial& s : per_stream)
    trial.latency.buckets.insert(trial.latency.buckets.end(), s.buckets.begin(), s.buckets.end());
  // The worst stream's p99 is the trial's (a latency bound holds for every stream).
  for (const LatencyTrial& s : per_stream) trial.result.latency_p99_ns = std::max(trial.result.latency_p99_ns, s.stats.p99_ns);
  return target_pps;
}

Trial TrialRunner::run(const TrialSpec& spec) {
  const auto began = std::chrono::steady_clock::now();
  Trial trial;
  trial.spec = spec;
  if (!warm_up(spec, trial)) return trial;
  run_.load(streams_at(spec), profile_.path + " (trial)");
  run_until_sent(trial.interrupted);
  ctl::EndedRun ended = run_.stop();  // stops what still sends, drains, then counts
  trial.report = std::move(ended.json);
  trial.run = std::move(ended.report);
  set_rate_result(trial, sum_streams(trial));
  judge_validity(trial);
  trial.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  return trial;
}

}  // namespace lr::bench
