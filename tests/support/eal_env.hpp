#pragma once
// EAL for a vdev test binary: initialised once (EAL cannot init twice in a process)
// on virtual devices only, without hugepages, and cleaned up at exit.

#include <string>
#include <vector>

namespace lr::test {

/// The vdevs and lcores a test binary runs on; set by the binary before main runs.
std::vector<std::string> eal_test_args();

}  // namespace lr::test
