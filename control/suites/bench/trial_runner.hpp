#pragma once
// One benchmark trial on the data plane (RFC 2544 §23): the profile's streams at one
// frame size and one offered load (% of each port's line rate) for the trial's duration,
// or a burst of N frames at that load, then stop, the data plane's drain, and only then
// the counters, so loss is exact. What the trial offered is what TX measurably sent; a
// trial the tester itself could not drive (a stream short of its target) or whose link
// went down is marked invalid; one that lost frames although it only sent less than
// asked is also marked the device's loss (TrialResult::lost_anyway). Learning frames
// (§23) go out before the first trial.

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "control/client/port_client.hpp"
#include "control/client/run_client.hpp"
#include "control/client/run_target.hpp"
#include "control/suites/bench/bench_sections.hpp"
#include "control/suites/bench/latency_summary.hpp"
#include "control/suites/bench/throughput_search.hpp"
#include "lib/profile/profile.hpp"

namespace lr::bench {

struct TrialSpec {
  bench::BenchFrameSize frame;
  double percent = 100;       ///< of each stream's port line rate
  uint64_t duration_ns = 0;   ///< the measured interval, or
  uint64_t burst_frames = 0;  ///< a burst of this many frames per stream (back-to-back)
  uint64_t warm_up_ns = 0;    ///< first the same load for this long, unmeasured (not for bursts)
  /// A tester lcore held up this long or more makes the trial invalid (latency trials: a
  /// frame read late looks late); 0: no limit.
  double stall_limit_us = 0;
};

// NOLINTBEGIN(bugprone-exception-escape): clang-tidy 16 reports this aggregate's implicit members; they throw only
// std::bad_alloc, as any copy of a container does
struct Trial {
  TrialSpec spec;
  TrialResult result;        ///< what the searches need
  double offered_pps = 0;    ///< all streams, measured
  double offered_l1_bps = 0;
  uint64_t tx_packets = 0;
  uint64_t rx_packets = 0;   ///< distinct frames received
  int64_t lost = 0;
  bool interrupted = false;  ///< stopped early by Ctrl-C
  std::string invalid_reason;
  double wall_s = 0;         ///< how long the trial took, drain included
  LatencyTrial latency;      ///< every stream's frames together, from their histograms
  nlohmann::json report;     ///< the data plane's run report of the trial, as sent (the report keeps it)
  api::RunReport run;        ///< the same, read
};
// NOLINTEND(bugprone-exception-escape)

/// Why the host, not the device, made a run's numbers, or "": a port of the tester that
/// could not take in what arrived (its RX ring full: the device forwarded those frames), or a
/// tester lcore held up `stall_limit_us` or more (0: no limit) while traffic ran (the first
/// `traffic_s` seconds).
std::string held_up_by_host(const api::RunReport& run, double stall_limit_us, double traffic_s);

class TrialRunner {
 public:
  TrialRunner(ctl::RunTarget& target, const profile::Profile& profile);
  /// Runs one trial; returns early (interrupted) on a stop request. Throws what the
  /// client throws (a data plane that refuses or disappears).
  Trial run(const TrialSpec& spec);
  /// Sends `frames` learning frames from every receiving port, with the source address
  /// its streams' frames are sent to, so that a switch knows where each lives (RFC 2544
  /// §23). Returns the frames sent.
  uint64_t learn(uint32_t frames);
  /// Frames per second at line rate for this frame size on the slowest port a stream
  /// sends from (the speed rates refer to, as the data plane reports it).
  double line_pps(const bench::BenchFrameSize& frame);
  /// Runs streams of the suite's own making until they have all sent, then stops, drains
  /// and returns the data plane's run report. `what` names them in the data plane's
  /// errors. `interrupted`: a stop request ended it early.
  ctl::EndedRun run_streams(const std::vector<api::StreamSpec>& streams, const std::string& what, bool& interrupted);
  /// The same, with `run`'s settings (a timeline) for this run only, and `during(elapsed)`
  /// called at each poll while it runs (a link flap in the middle of the run).
  ctl::EndedRun run_streams(const std::vector<api::StreamSpec>& streams, const std::string& what, bool& interrupted,
                            const api::RunSpec& run,
                            const std::function<void(std::chrono::steady_clock::duration)>& during);
  /// Replaces the data plane's emulated hosts with `devices` (device.load): they start at once.
  void load_devices(const std::vector<api::DeviceSpec>& devices);
  /// Sets a port's link down or up (port.link.set); up returns once the link is up.
  void set_link(const std::string& port, bool up);
  /// Changes a port's settings between runs (port.config.set).
  void set_port(const std::string& port, const ctl::PortConfigChange& change);
  /// Each port's speed as the data plane reports it (bit/s; 0: unknown).
  std::map<std::string, uint64_t> port_speeds();

 private:
  std::vector<api::StreamSpec> streams_at(const TrialSpec& spec) const;
  void run_until_sent(bool& interrupted);
  /// The spec's warm-up, if it has one; false when a stop request ended it.
  bool warm_up(const TrialSpec& spec, Trial& trial);
  /// Adds up the trial's streams (packets, rates, latency with their histograms); returns
  /// what they were asked to send, in frames/s.
  double sum_streams(Trial& trial);

  ctl::RunTarget& run_;  ///< one data plane, or several by location
  const profile::Profile& profile_;
};

}  // namespace lr::bench
