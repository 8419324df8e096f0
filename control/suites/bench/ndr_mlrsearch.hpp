#pragma once
// `[ndr] method = "mlrsearch"` (or `linerate bench ndr --method mlrsearch`): each frame
// size searched by MLRsearch (RFC 9971) over the trial runner. The report's `mlrsearch[]`
// holds, per size, every goal in the RFC's terms (relevant lower bound, relevant upper
// bound, conditional throughput) and every load with its trials; the goals named "ndr"
// and "pdr" are also the report's classic NDR and PDR answers (their relevant lower
// bounds), so every view of an NDR report reads it.

#include <nlohmann/json.hpp>

#include "control/suites/bench/bench_sections.hpp"
#include "control/suites/bench/bench_session.hpp"
#include "control/suites/bench/trial_runner.hpp"

namespace lr::bench {

void run_mlrsearch_size(const NdrCfg& cfg, const BenchFrameSize& size, TrialRunner& runner, BenchSession& session);

/// A guess for the ETA: each goal's own target decides two loads with duration_sum of trials.
unsigned expected_mlrsearch_trials(const NdrCfg& cfg);

/// The goals' answers as the terminal shows them, from the report.
void print_mlrsearch(const nlohmann::json& report);

}  // namespace lr::bench
