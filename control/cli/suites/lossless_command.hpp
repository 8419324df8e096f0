#pragma once
// `linerate bench lossless PROFILE`: the lossless-fabric test plan (PFC, PAUSE, response
// time, quanta, incast, ECN) from the profile's [lossless] section, each case PASS /
// FAIL / SKIPPED with its numbers; exit code 3 when an enabled case did not pass.

#include "control/cli/suites/suite_command.hpp"

namespace lr::bench {

int run_lossless(const BenchOptions& options);

}  // namespace lr::bench
