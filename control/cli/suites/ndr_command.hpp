#pragma once
// `linerate bench ndr PROFILE`: the no-drop and partial-drop rates per frame size, from
// the profile's [ndr] section, found in one search (NdrPdrSearch).

#include "control/cli/suites/suite_command.hpp"

namespace lr::bench {

int run_ndr(const BenchOptions& options);

}  // namespace lr::bench
