#pragma once
// What the emulated hosts of a port answer to a received frame:
//   ARP request for a host's address        -> ARP reply (a gratuitous ARP: nothing)
//   NS for a host's preferred address,      -> NA, O set, with the host's MAC; S set and to
//     to its solicited-node group or to it     the asker, or (asker ::) S clear, to all-nodes
//   NS for a tentative or duplicate address -> nothing (RFC 4862 section 5.4.3: DAD's business)
//   ICMP / ICMPv6 echo request to a host    -> echo reply: same identifier, sequence, data
//   anything else                           -> nothing, with the verdict that says why
// A host's frames are matched on its VLAN (untagged: none). The responder keeps no state:
// resolution and DAD read the same parsed frame (resolver.hpp, dad.hpp).
// Thread: the control path's one thread.

#include <span>
#include <vector>

#include "lib/hosts/host_frames.hpp"
#include "lib/hosts/host_table.hpp"
#include "lib/hosts/neighbor_frame.hpp"

namespace lr::hosts {

struct Response {
  RxVerdict verdict = RxVerdict::kNotForUs;
  std::vector<Frame> replies;  ///< empty unless verdict is kAnswered
};

Response respond(const HostTable& hosts, const NeighborFrame& frame);

/// Parses, then answers.
Response respond(const HostTable& hosts, std::span<const uint8_t> frame);

}  // namespace lr::hosts
