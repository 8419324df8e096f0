#pragma once
// The ports' controls: one PortControl per port of the engine, over one KernelIo, each
// reaching its port's ethdev side (EthdevPort) directly; the profile's port settings
// applied at start-up, link polling, counter baselines, and what a run report gets from
// them. Owned by the engine with the ports. Thread: mgmt.

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dataplane/port/ethdev_port.hpp"
#include "dataplane/port/port_control.hpp"
#include "lib/api/run_report.hpp"
#include "lib/profile/profile.hpp"

namespace lr::dp {

/// A run's clock: the TSC its lanes start at (its timelines' bin 0) and the TSC's rate as
/// DPDK has it (rte_get_tsc_hz), at which its timelines count.
struct RunClock {
  uint64_t start_tsc = 0;
  uint64_t tsc_hz = 0;
};

class PortControls {
 public:
  /// One PortControl per port in `ports` (which outlive this), over `io`; made before
  /// the ports are brought up, so that what the host had can be read first.
  PortControls(std::deque<EthdevPort>& ports, std::unique_ptr<KernelIo> io);

  /// The port named `name`, or null.
  PortControl* find(const std::string& name);
  /// The ports' names, in the profile's order.
  std::vector<std::string> names() const;
  std::vector<std::unique_ptr<PortControl>>& all() { return ports_; }

  /// The profile's fec, pause, pfc and flow_rules on each port, each read back. Errors
  /// name the port, the key and the reason; the ports stay as they were for what failed.
  Result<void> apply_profile(const profile::Profile& profile);
  /// Around bringing the ports up with the profile's MTU and link speeds: what each port
  /// had before, and what bringing it up changed (PortControl::before_bring_up).
  void before_bring_up(const profile::Profile& profile);
  void after_bring_up(const profile::Profile& profile);
  /// Puts back what linerate changed on every port (unless kept); each port's
  /// settings_changed() then says how it went.
  void restore_settings();
  void mark_baselines();
  void poll_links();
  /// Each of `ports` (a run report's, by name) gets its merged counters for this run and
  /// its link history, each event at or after the start of `run` (none: no run was
  /// launched) with its run_s: call before the ports stop or close.
  void fill_report(std::vector<api::PortReport>& ports, std::optional<RunClock> run);

 private:
  std::unique_ptr<KernelIo> io_;
  std::vector<std::unique_ptr<PortControl>> ports_;
};

/// A port's link history as the report has it; with `run`, each event at or after its
/// start with its seconds since then (run_s), on the run's clock.
std::vector<api::LinkEventReport> link_events(const PortControl& port, std::optional<RunClock> run = std::nullopt);

/// Merged counters as the report has them (value: this run).
std::vector<api::NicCounter> nic_counters(const std::vector<MergedCounter>& counters);

}  // namespace lr::dp
