#pragma once
// `linerate bench rfc2544 PROFILE`: the tests of the profile's [rfc2544] section
// (throughput, latency, frame loss, back-to-back) per frame size over its streams.

#include "control/cli/suites/suite_command.hpp"

namespace lr::bench {

int run_rfc2544(const BenchOptions& options);

}  // namespace lr::bench
