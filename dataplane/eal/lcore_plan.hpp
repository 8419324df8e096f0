#pragma once
// Which worker lcore serves which (port, queue). Pure: lcores and sockets come in as
// data, so NUMA placement is unit-tested without EAL.
//
// Queue q of a port goes to the port's local workers round robin, offset by the port's
// index so two single-queue ports land on two lcores. A port whose socket has no worker
// is served across NUMA only when the profile allows it: every frame then crosses the
// inter-socket link twice (descriptor and data), which costs line rate on 40G and up.

#include <cstdint>
#include <string>
#include <vector>

#include "lib/common/result.hpp"

namespace lr::dp {

inline constexpr int kAnySocket = -1;  // SOCKET_ID_ANY: vdevs have no NUMA node

struct WorkerLcore {
  unsigned lcore_id = 0;
  int socket = 0;
};

struct PortQueues {
  std::string name;
  int socket = kAnySocket;
  uint16_t rx_queues = 1;
  uint16_t tx_queues = 1;
  std::vector<unsigned> rx_lcores;  ///< explicit placement (profile), else empty
  std::vector<unsigned> tx_lcores;
};

struct QueueAssignment {
  uint16_t port_index = 0;
  uint16_t queue_id = 0;
  unsigned lcore_id = 0;
  bool cross_numa = false;
};

struct LcorePlan {
  std::vector<QueueAssignment> rx;
  std::vector<QueueAssignment> tx;
  std::vector<std::string> warnings;

  /// Lcore serving TX queue `queue_id` of port `port_index`.
  unsigned tx_lcore(uint16_t port_index, uint16_t queue_id) const;
};

/// Errors: kInvalid (no worker lcore for the ports; a placed lcore that is not a worker; a cross-NUMA
/// plan without allow_cross_numa).
Result<LcorePlan> plan_lcores(const std::vector<WorkerLcore>& workers, const std::vector<PortQueues>& ports,
                              bool allow_cross_numa);

}  // namespace lr::dp
