#pragma once
// The lossless-fabric test plan (`linerate bench lossless`): each case as runs of streams
// the suite builds from the profile's [[stream]] templates (test traffic on a lossless or
// lossy priority, background on another, PFC / PAUSE storms from the receiver, which faces
// the device's egress), judged from the run reports' counts, rate timelines and exact
// silences (lossless_verdicts). Every run goes into `trials[]`, every verdict into
// `cases[]`; a stop request ends the plan with what it has.

#include "control/suites/bench/bench_session.hpp"
#include "lib/api/run_report.hpp"
#include "control/suites/bench/trial_runner.hpp"
#include "control/suites/bench/bench_sections.hpp"
#include "lib/profile/profile.hpp"

namespace lr::bench {

void run_lossless_cases(const BenchProfile& profile, TrialRunner& runner, BenchSession& session);

/// Runs the plan takes (for the progress line's ETA).
unsigned expected_lossless_runs(const bench::LosslessCfg& cfg);

/// Timelines of a run report merged down to at most `max_bins` bins each, in place: the
/// report keeps every case's shape without megabytes of microsecond bins.
void coarsen_timelines(api::RunReport& run_report, size_t max_bins);

}  // namespace lr::bench
