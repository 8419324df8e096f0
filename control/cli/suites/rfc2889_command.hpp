#pragma once
// `linerate bench rfc2889 PROFILE`: RFC 2889's LAN switch benchmarks from the profile's
// [rfc2889], against the device the tester's ports are cabled to.

#include "control/cli/suites/suite_command.hpp"

namespace lr::bench {

int run_rfc2889(const BenchOptions& options);

}  // namespace lr::bench
