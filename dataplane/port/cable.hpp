#pragma once
// In-process cables: a port whose device is "cable:NAME" is one end of a cable to the
// other port (tester or switch) with the same device. Each cable is two rings, one per
// direction, and each end a net_ring ethdev sending into one and receiving from the
// other, so frames cross it by pointer, in order, and nothing else can reach them.
// Thread: mgmt, after EAL initialisation.

#include <string>
#include <vector>

#include "lib/common/result.hpp"

namespace lr::dp {

struct CableEnd {
  std::string port;   ///< the port's name
  std::string cable;  ///< the cable's name
};

/// The ethdev name of the cable end that port `port` is ("" before make_cables made it):
/// find_port looks it up by this name.
std::string cable_ethdev_name(const std::string& port);

/// Makes the ethdev ports of every cable (each named twice in `ends`, as the profile
/// validated), with fresh, empty rings. Errors: kNoMemory, kInvalid.
Result<void> make_cables(const std::vector<CableEnd>& ends);

}  // namespace lr::dp
