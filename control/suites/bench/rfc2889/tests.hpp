#pragma once
// The RFC 2889 §5 tests, one file each (the meshed patterns share one): each builds its
// runs' streams between the stations, runs them (only valid runs measure), and adds its
// result to `results[]`: what it measured, and a verdict where the RFC gives one.

#include "control/suites/bench/rfc2889/plan.hpp"

namespace lr::bench::rfc2889 {

/// §5.1 every port to every other; §5.2 one to many and many to one; §5.4 the first half of
/// the ports to the second, pair by pair. At each frame size and load: forwarding rate and
/// loss, frames that went to a wrong port (flooded); the throughput by a search between the
/// loads; the forwarding rate at the maximum load and the maximum forwarding rate (§5.6).
void fully_meshed(Plan& p);
void partially_meshed(Plan& p);
void unidirectional(Plan& p);
/// §5.3: every port to every other across two or more devices joined by a trunk, with the
/// traffic within a device (local) and across it (remote) counted apart.
void multiple_devices(Plan& p);
/// §5.5: two ports into a congested one, one of them also into an uncongested one:
/// head-of-line blocking (loss toward the uncongested port) and backpressure (pause frames).
void congestion_control(Plan& p);
/// §5.6's overload half: offered above line rate, which these ports cannot do (SKIPPED).
void forward_pressure(Plan& p);
/// §5.7: the most addresses learned on a port without flooding, by a binary search.
void address_caching(Plan& p);
/// §5.8: the fastest learning frames the device learns every address of, by a binary search.
void address_learning(Plan& p);
/// §5.9: oversize frames are filtered (undersize and bad FCS: SKIPPED where the ports cannot send them).
void errored_frames(Plan& p);
/// §5.10: broadcast frames reach every other port: forwarding rate and latency.
void broadcast(Plan& p);

/// Beyond the RFC, a routed device's neighbour table (ARP): the most emulated hosts it keeps
/// resolved and forwards to without loss, by a binary search as §5.7 does for MACs; each
/// trial starts by taking the hosts' port's link down and up, which empties the device's
/// table of that port's neighbours.
void neighbor_caching(Plan& p);
/// How long after a link flap the device forwards to each host again: from the hosts'
/// port's link coming up (the data plane's clock) to each host's first frame after it.
void neighbor_reresolution(Plan& p);

}  // namespace lr::bench::rfc2889
