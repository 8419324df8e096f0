#include "dataplane/eal/lcore_plan.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace lr::dp {

unsigned LcorePlan::tx_lcore(uint16_t port_index, uint16_t queue_id) const {
  for (const QueueAssignment& a : tx)
    if (a.port_index == port_index && a.queue_id == queue_id) return a.lcore_id;
  return 0;
}

Result<LcorePlan> plan_lcores(const std::vector<WorkerLcore>& workers, const std::vector<PortQueues>& ports,
                              bool allow_cross_numa) {
  if (workers.empty() && !ports.empty())
    return make_error(Errc::kInvalid,
                      "eal.lcores leaves no worker lcore: give at least two (the first one is the main lcore, "
                      "which runs control and never polls packets)");
  LcorePlan plan;
  for (size_t p = 0; p < ports.size(); ++p) {
    const PortQueues& port = ports[p];
    std::vector<WorkerLcore> local;
    for (const WorkerLcore& w : workers)
      if (port.socket == kAnySocket || w.socket == port.socket) local.push_back(w);
    bool cross = false;
    if (local.empty()) {
      if (!allow_cross_numa)
        return make_error(Errc::kInvalid,
                          fmt::format("port '{}' is on NUMA socket {} but no worker lcore is: its frames would cross "
                                      "the inter-socket link twice each (descriptors and data), which costs line rate "
                                      "at 40G and up. Give eal.lcores on socket {}, or set eal.allow_cross_numa = true "
                                      "to accept the cost",
                                      port.name, port.socket, port.socket));
      local = workers;
      cross = true;
      plan.warnings.push_back(fmt::format("port '{}' (socket {}) is served by lcores on another socket", port.name,
                                          port.socket));
    }
    // Explicit placement: each listed lcore must be a worker, and on the port's socket
    // unless cross-NUMA is allowed.
    for (const auto* placed : {&port.rx_lcores, &port.tx_lcores}) {
      for (unsigned lcore : *placed) {
        auto worker = std::find_if(workers.begin(), workers.end(), [&](const WorkerLcore& w) { return w.lcore_id == lcore; });
        if (worker == workers.end())
          return make_error(Errc::kInvalid, fmt::format("port '{}' places a queue on lcore {}, which is not a worker "
                                                        "lcore of eal.lcores (the first lcore is the main lcore)",
                                                        port.name, lcore));
        if (port.socket != kAnySocket && worker->socket != port.socket && !allow_cross_numa)
          return make_error(Errc::kInvalid, fmt::format("port '{}' (socket {}) places a queue on lcore {} of socket {}: "
                                                        "set eal.allow_cross_numa = true to accept the cost",
                                                        port.name, port.socket, lcore, worker->socket));
      }
    }
    const auto pick = [&](const std::vector<unsigned>& placed, uint16_t q) {
      return placed.empty() ? local[(q + p) % local.size()].lcore_id : placed[q % placed.size()];
    };
    for (uint16_t q = 0; q < port.rx_queues; ++q)
      plan.rx.push_back({static_cast<uint16_t>(p), q, pick(port.rx_lcores, q), cross});
    for (uint16_t q = 0; q < port.tx_queues; ++q)
      plan.tx.push_back({static_cast<uint16_t>(p), q, pick(port.tx_lcores, q), cross});
  }
  return plan;
}

}  // namespace lr::dp
