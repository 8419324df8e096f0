#pragma once
// A profile's [run] table, or a run's JSON form (run_spec_json.hpp) read through it.

#include "lib/api/run_spec.hpp"
#include "lib/profile/table_reader.hpp"

namespace lr::profile {

/// Reads the table's keys into `run` (those absent keep its values); throws ConfigError.
void read_run(TableReader& in, api::RunSpec& run);

}  // namespace lr::profile
