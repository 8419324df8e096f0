#pragma once
// The clock of the fast-path unit tests: a virtual TSC, advanced by hand, at the rate of
// a typical invariant TSC. One definition for every test file of a unity build.

#include <cstdint>

namespace lr::test {

constexpr uint64_t kTscHz = 2'500'000'000;

}  // namespace lr::test
