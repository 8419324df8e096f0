#pragma once
// A profile's streams with eth.src or eth.dst "auto" checked against its emulated hosts:
// each must have a host on its TX port and VLAN whose address is its IP source, and with
// eth.dst "auto" a next hop to its destination (lib/hosts/stream_source.hpp). A serving
// data plane checks streams sent to it against its running profile, whose devices are the
// ones device.load set.

#include "lib/profile/profile.hpp"

namespace lr::profile {

/// Throws ConfigError at "stream[i].eth.dst" (at "stream[i].eth.src" when only eth.src is
/// auto), with stream_source's reason: the stream, the port, the address.
void check_stream_hosts(const Profile& profile);

}  // namespace lr::profile
