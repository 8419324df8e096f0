#pragma once
// What every lossless case works with: the plan (the profile, the runner, the session and
// the receiver's speed and reaction bound), the streams a case builds from the profile's
// [[stream]] templates, and running them until a run is valid, each run recorded.

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "control/suites/bench/bench_session.hpp"
#include "control/suites/bench/lossless/dut_comparison.hpp"
#include "control/suites/bench/lossless/validity.hpp"
#include "control/suites/bench/trial_runner.hpp"
#include "control/suites/bench/bench_sections.hpp"
#include "lib/profile/profile.hpp"

namespace lr::bench::lossless {

struct Plan {
  const profile::Profile& profile;
  const bench::LosslessCfg& cfg;
  TrialRunner& runner;
  BenchSession& session;
  uint64_t receiver_bps = 0;
  std::map<std::string, uint64_t> speeds;
  std::optional<double> response_s;  ///< the reaction bound; none: no default at this speed
  std::string response_basis;        ///< where it came from
  bool interrupted = false;
  std::string not_judged;            ///< a run step had no valid run: why
  std::vector<JudgedRun> judged;     ///< every valid run so far, for the DUT comparison
};

// The case's streams: the senders' profile streams with the case's priority, size, load
// and timing; the receiver's MAC Control frames.
class Streams {
 public:
  explicit Streams(const Plan& plan) : plan_(plan) {}

  void traffic(const std::string& name, const std::string& sender, uint8_t priority, double percent,
               uint64_t start_after_ns, uint64_t duration_ns, uint64_t count = 0, bool ecn_capable = false);
  /// Most cases' "test" stream: the first sender on `priority`, at the plan's rate for its duration.
  void test_traffic(uint8_t priority);
  /// Most cases' "storm": PFC on `priority` asking the longest pause, refreshed for the plan's
  /// storm_ns, in the middle of the traffic.
  void pfc_storm(uint8_t priority);
  /// PFC on `priority` (or, with `pause`, 802.3x PAUSE) from the receiver toward the
  /// device: refreshed to hold the pause for `duration_ns`, or one frame when it is 0.
  void mac_control(const std::string& name, bool pause, uint8_t priority, uint32_t quanta, uint64_t start_after_ns,
                   uint64_t duration_ns);
  const std::vector<api::StreamSpec>& specs() const noexcept { return streams_; }

 private:
  const api::StreamSpec& template_of(const std::string& sender) const;

  const Plan& plan_;
  std::vector<api::StreamSpec> streams_;
};

/// The sender of the background traffic: the second sender, else the first.
std::string sender_of_background(const bench::LosslessCfg& cfg);

// Every run into trials[] (its timelines coarsened), then the rest between runs.
void record(Plan& p, const std::string& case_name, const std::string& label, const ctl::EndedRun& run,
            const std::string& invalid_reason = "");

// Runs the streams until a run is valid, at most 8 times; every run is recorded,
// the invalid ones with their reason. When none was valid, the case is not judged
// (`p.not_judged` says why) and the last run is returned.
ctl::EndedRun run(Plan& p, const Streams& streams, const std::string& case_name, const std::string& label,
         const WindowsOf& windows_of, bool tail_drops_expected = false);

}  // namespace lr::bench::lossless
