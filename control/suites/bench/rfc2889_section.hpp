#pragma once
// `[rfc2889]` read (file:line:column errors, a typo refused) and checked against the
// profile's ports before any traffic: a test that cannot work is refused at its key.

#include "control/suites/bench/bench_sections.hpp"
#include "lib/profile/table_reader.hpp"

namespace lr::bench {

/// Every run begins with the stations' hellos (each port's own address, learned by the
/// device); the test traffic starts this long after.
inline constexpr uint64_t kHelloSettleNs = 20'000'000;
/// Between an address test's learning frames and its test frames.
inline constexpr uint64_t kLearnToTestNs = 10'000'000;

/// neighbor_reresolution: one stream per host timed, each with its own frames' pool.
inline constexpr uint32_t kMaxReresolutionHosts = 64;

Rfc2889Cfg read_rfc2889(profile::TableReader& in);
void validate_rfc2889(const profile::Profile& profile, const Rfc2889Cfg& cfg);

/// The longest an address of the address tests (§5.7, §5.8) waits in the device's table
/// for its test frame: `addresses` learning frames at `learning_fps`, a pause, then a test
/// frame to each in the same order at `test_fps`. It must not age meanwhile.
double address_wait_s(uint32_t addresses, double learning_fps, double test_fps);

}  // namespace lr::bench
