#pragma once
// The data plane's port controls: one PortControl per engine port over one KernelIo, the
// profile's port settings applied at start-up, link polling, counter baselines and
// snapshots, and what a run report gets from them. Thread: mgmt.

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "dataplane/engine/engine.hpp"
#include "dataplane/port/port_control.hpp"

namespace lr::dp {

/// One PortControl per engine port, by name, over one KernelIo.
class PortControls {
 public:
  /// Ethdev link speed changes go through `engine` (it reconfigures the port).
  PortControls(Engine& engine, std::unique_ptr<KernelIo> io);
  /// Throws RpcError kInvalidParams naming the ports there are.
  PortControl& at(const std::string& name);
  std::vector<std::unique_ptr<PortControl>>& all() { return ports_; }
  /// The profile's fec, pause, pfc and flow_rules on each port, each read back. Errors
  /// name the port, the key and the reason; the ports stay as they were for what failed.
  Result<void> apply_profile(const profile::Profile& profile);
  void mark_baselines();
  void poll_links();
  /// Reads every port's merged counters for this run (before its ports stop or close).
  void snapshot_counters();
  /// `report` (a run report's JSON) with, per port, its link history ("link_events") and the
  /// merged counters of the last snapshot ("nic_counters": name, source, canonical, value
  /// this run, total).
  nlohmann::json annotate_report(nlohmann::json report) const;
  /// One line per link change after the first state seen ("" when the links never changed).
  std::string link_changes_text() const;

 private:
  std::unique_ptr<KernelIo> io_;
  std::vector<std::unique_ptr<PortControl>> ports_;
  std::map<std::string, nlohmann::json> counters_;  // port -> its last snapshot
};

/// A port's link history as JSON: [{at (ISO 8601, ms), up, speed_mbps, cause}].
nlohmann::json link_events_json(const PortControl& port);

/// Merged counters as JSON: [{name, source, canonical (or null), value (this run), total}].
nlohmann::json merged_counters_json(const std::vector<MergedCounter>& counters);

}  // namespace lr::dp
