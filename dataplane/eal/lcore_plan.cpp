#include "dataplane/eal/lcore_plan.hpp"

#include <fmt/format.h>

namespace lr::dp {

unsigned LcorePlan::tx_lcore(uint16_t port_index, uint16_t queue_id) const {
  for (const QueueAssignment& a : tx)
    if (a.port_index == port_index && a.queue_id == queue_id) return a.lcore_id;
  return 0;
}

Result<LcorePlan> plan_lcores(const std::vector<WorkerLcore>& workers, const std::vector<PortQueues>& ports,
                              bool allow_cross_numa) {
  if (workers.empty())
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
    for (uint16_t q = 0; q < port.rx_queues; ++q)
      plan.rx.push_back({static_cast<uint16_t>(p), q, local[(q + p) % local.size()].lcore_id, cross});
    for (uint16_t q = 0; q < port.tx_queues; ++q)
      plan.tx.push_back({static_cast<uint16_t>(p), q, local[(q + p) % local.size()].lcore_id, cross});
  }
  return plan;
}

}  // namespace lr::dp
