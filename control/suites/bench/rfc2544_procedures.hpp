#pragma once
// The four RFC 2544 tests (§26.1–26.4, back-to-back as RFC 9004 updates it), each per
// frame size, over the trial runner; each fills its answer's struct (reports/bench_report),
// appends it by that codec to the report's list of the same name, and every trial to
// `trials[]`. They return early, with what they have
// recorded, on a stop request.

#include <map>
#include <optional>

#include "control/suites/bench/bench_session.hpp"
#include "control/suites/bench/throughput_search.hpp"
#include "control/suites/bench/trial_runner.hpp"
#include "control/suites/bench/bench_sections.hpp"
#include "control/reports/bench_report.hpp"
#include "lib/profile/profile.hpp"

namespace lr::bench {

struct Procedure {
  TrialRunner& runner;
  BenchSession& session;
  const bench::SearchCfg& cfg;
};

/// A throughput answer: the load asked of the trial at the answer, and what TX sent in it.
struct ThroughputFound {
  double rate_percent;
  double offered_percent;
};

/// §26.1: the highest load without loss beyond the tolerance, to the resolution; its
/// answer in % of line rate, or nullopt (none, or interrupted).
std::optional<ThroughputFound> run_throughput(Procedure& p, const bench::BenchFrameSize& size);
unsigned expected_throughput_trials(const bench::SearchCfg& cfg);

/// §26.2: `trials` trials at `rate_percent` (the size's throughput), with histograms.
void run_latency(Procedure& p, const bench::BenchFrameSize& size, double rate_percent, unsigned trials);

/// §26.3: from 100 % down in `step_percent` steps to two loss-free trials in a row.
void run_frame_loss(Procedure& p, const bench::BenchFrameSize& size, double step_percent);
unsigned expected_frame_loss_trials(double step_percent);

/// §26.4 / RFC 9004: `searches` searches for the longest burst at line rate without
/// loss, bursts of at most `duration_ns` of line rate; `throughput_percent` (when
/// known) gives the corrected buffer time.
void run_back_to_back(Procedure& p, const bench::BenchFrameSize& size, unsigned searches, uint64_t duration_ns,
                      std::optional<double> throughput_percent);
unsigned expected_back_to_back_trials(const bench::Rfc2544Cfg& cfg);

/// The trial's streams grouped by port pair: `tx_port`, `rx_port`, frames and rates.
std::vector<PairFigures> pair_figures(const api::RunReport& run_report);

/// The trials that passed, by the rate asked: the first at each (confirmations repeat a
/// rate). A search's answer is always a rate that passed, so its figures come from here.
using PassingTrials = std::map<double, Trial>;

/// A rate answer (throughput, NDR, PDR): the search's answer with what TX measurably sent
/// in the passing trial at it, or none and `why`.
RateAnswer rate_answer(const bench::BenchFrameSize& size, const ThroughputSearch& search, const PassingTrials& passing,
                       const std::string& why);
/// The same from any search: the answer `rate_percent` with the figures of the trial at it,
/// and what limited it; or none, and why.
RateAnswer rate_answer(const bench::BenchFrameSize& size, double rate_percent, const Trial& at,
                       const std::string& limited_by);
RateAnswer rate_answer(const bench::BenchFrameSize& size, const std::string& why);

}  // namespace lr::bench
