#pragma once
// What every RFC 2889 test works with: the plan (the profile, the section, the runner, the
// session), the stations (one address per tester port, each said hello from the start of
// every run so the device knows where it lives), the streams a test builds between them,
// and running them until a run is valid, each run recorded in `trials[]`. Each test fills
// its Result (reports/rfc2889_report), which the report's codec writes.

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "control/reports/rfc2889_report.hpp"
#include "control/suites/bench/bench_sections.hpp"
#include "control/suites/bench/bench_session.hpp"
#include "control/suites/bench/trial_runner.hpp"
#include "lib/api/run_report.hpp"

namespace lr::bench::rfc2889 {

struct Measured;

struct Plan {
  const profile::Profile& profile;
  const Rfc2889Cfg& cfg;
  TrialRunner& runner;
  BenchSession& session;
  bool interrupted = false;
  std::optional<uint32_t> addresses_cached;  ///< §5.7's answer, for §5.8

  const std::string& port(size_t index) const { return cfg.ports[index]; }
  size_t ports() const { return cfg.ports.size(); }
  /// results[]: one entry per test (and pattern, frame size), in the order they ran.
  void result(const Result& entry);
  /// The entry SKIPPED: no run of it was valid (`m` says why), or it was interrupted.
  void skipped(Result entry, const Measured& m);
};

/// Port `index`'s station: where its frames come from and go to (a locally administered
/// address, 02:28:89:00:00:<index + 1>).
api::MacAddr station(size_t index);
/// The first of the addresses the address tests teach the device behind the learning port.
inline constexpr uint64_t kAddressBase = 0x022889100000;
api::MacAddr mac_of(uint64_t value);

class Streams {
 public:
  /// Begins with every port's hello: a few broadcast frames from its station.
  explicit Streams(const Plan& plan);
  /// Begins with the hellos of these ports only.
  Streams(const Plan& plan, const std::vector<size_t>& hello_from);

  /// Frames of `bytes` from port `from`'s station to port `to`'s (none: broadcast), at
  /// `rate`, from `start_after_ns`, for `duration_ns` or `count` frames; received (and
  /// counted) at `to`. The stream returned is the caller's to finish until the next call,
  /// which may move it.
  api::StreamSpec& traffic(const std::string& name, size_t from, std::optional<size_t> to, uint16_t bytes,
                           api::Rate rate, uint64_t start_after_ns, uint64_t duration_ns, uint64_t count = 0);
  /// A stream of the caller's own making (not between stations: between emulated hosts).
  api::StreamSpec& add(api::StreamSpec stream) { return streams_.emplace_back(std::move(stream)); }
  const std::vector<api::StreamSpec>& specs() const noexcept { return streams_; }

 private:
  const Plan& plan_;
  std::vector<api::StreamSpec> streams_;
};

/// A run that measured, or why none did.
// NOLINTBEGIN(bugprone-exception-escape): clang-tidy 16 reports this aggregate's implicit members; they throw only
// std::bad_alloc, as any copy of a container does
struct Measured {
  ctl::EndedRun run;
  std::string invalid;  ///< every attempt was invalid: the last one's reason
  bool interrupted = false;
  bool valid() const noexcept { return invalid.empty() && !interrupted; }
};
// NOLINTEND(bugprone-exception-escape)

/// Runs the streams until a run is valid (at most 3 runs); each is recorded in trials[]
/// under `test` and `label`, the invalid ones with their reason.
Measured measure(Plan& p, const Streams& streams, const std::string& test, const std::string& label);
/// Runs again (recorded) when `spoiled` finds a reason in a valid run, at most 3 runs in all,
/// each after `wait_s` (the address tests: the device's aging time).
Measured measure(Plan& p, const Streams& streams, const std::string& test, const std::string& label,
                 const std::function<std::string(const api::RunReport&)>& spoiled, double wait_s = 0);
/// The same for a run of the caller's own making: `run(interrupted)` runs it (a link flap
/// in its middle, say) and returns how it ended.
Measured measure(Plan& p, const std::string& test, const std::string& label,
                 const std::function<ctl::EndedRun(bool& interrupted)>& run,
                 const std::function<std::string(const api::RunReport&)>& spoiled, double wait_s = 0);

/// A stream of a run's report by name (throws when it has none: a report that is not the run's).
const api::StreamReport& stream_of(const api::RunReport& report, const std::string& name);

/// Why a run says nothing about the device, or "": a stream the tester sent short of its
/// rate, a tester port that could not take in what arrived or a tester lcore held up, a link
/// that went down, or linerate's own switch held up past its catch-up, or held up and
/// dropping frames at a port whose shaped rate carried all that came for it (what it
/// dropped was the stall's, not the congestion's).
/// Streams in `without_catch_up` send at their rate or slower by design (catch_up =
/// false): the caller judges their rate; the rest are held to the data plane's 0.5 %.
/// `flapped_port`: a port whose link the test itself takes down and up during the run.
std::string invalid_reason(const api::RunReport& report, double traffic_s,
                           const std::vector<std::string>& without_catch_up = {}, const std::string& flapped_port = "");

/// The test result every entry starts with: its name, the RFC's section, and a verdict.
Result entry(const std::string& test, const char* section);

}  // namespace lr::bench::rfc2889
