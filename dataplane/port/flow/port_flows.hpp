#pragma once
// The rte_flow rules on one port: validated before creation, listed with their counters,
// destroyed one by one or flushed; isolated mode. A rule the PMD rejects comes back with
// DPDK's own message and the item or action it blames. Thread: mgmt.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/api/flow_report.hpp"
#include "lib/common/result.hpp"
#include "dataplane/port/flow/flow_rule.hpp"

namespace lr::dp {

/// A rule with its counters, as flow.list answers it.
using FlowInfo = api::FlowRuleReport;

class PortFlows {
 public:
  PortFlows(uint16_t port_id, std::string port_name, std::string driver)
      : port_id_(port_id), port_name_(std::move(port_name)), driver_(std::move(driver)) {}
  ~PortFlows();
  PortFlows(const PortFlows&) = delete;
  PortFlows& operator=(const PortFlows&) = delete;

  /// Errors: kInvalid (a queue the port does not have; the PMD's refusal, with its
  /// message and the blamed item), kNotSupported (no rte_flow on this driver).
  Result<void> validate(const FlowRule& rule) const;
  /// Validates, then creates. Returns the rule's id on this port.
  Result<uint32_t> create(FlowRule rule);
  Result<void> destroy(uint32_t id);
  /// Destroys every rule; returns how many there were.
  Result<size_t> flush();
  std::vector<FlowInfo> list();
  /// Isolated mode: only traffic that rules steer reaches the port's queues. Most PMDs
  /// take it only before the port is configured: the profile's flow_isolate does that.
  Result<void> isolate(bool on);

 private:
  Error refused(const char* what, int rc, const rte_flow_error& error, const FlowRule* rule) const;

  struct Installed {
    uint32_t id;
    FlowRule rule;
    rte_flow* flow;
  };
  uint16_t port_id_;
  std::string port_name_;
  std::string driver_;
  std::vector<Installed> flows_;
  uint32_t next_id_ = 1;
};

}  // namespace lr::dp
