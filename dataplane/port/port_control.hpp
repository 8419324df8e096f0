#pragma once
// Port control over two backends: DPDK ethdev, and the port's kernel netdev when the
// device has one (bifurcated mlx5, af_packet / af_xdp / tap over a Linux interface).
// Each operation goes to the backend that can do it and says which one did; a set is
// read back and, when the port does not take it, undone. Thread: mgmt.

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lib/api/run_report.hpp"
#include "lib/common/result.hpp"
#include "lib/host/kernel/kernel_netdev.hpp"
#include "lib/host/port_settings.hpp"
#include "dataplane/port/ethdev_port.hpp"
#include "dataplane/port/flow/port_flows.hpp"

namespace lr::dp {

template <class T>
struct Served {
  T value;
  Backend backend = Backend::kEthdev;
};

/// An instant on the two clocks a link event is told on: the system clock (its time of
/// day) and the TSC, the clock of a run's timelines. Their seconds are TSC cycles at DPDK's
/// tsc_hz, which DPDK measures and rounds to 10 MHz: a system clock difference parts from
/// them by that rounding (0.15% on a 2.596 GHz host, 1.5 ms a second), a TSC one does not.
struct LinkInstant {
  std::chrono::system_clock::time_point at;
  uint64_t tsc = 0;
  static LinkInstant now() noexcept;
};

/// A link state change seen on the port, with when it was seen.
struct LinkEvent {
  LinkInstant when;
  bool up = false;
  uint32_t speed_mbps = 0;
  std::string cause;  ///< "observed", "set by session 3", "start"
};

/// One counter of the merged view: cumulative, and since the baseline (the run's start).
struct MergedCounter {
  NamedCounter counter;
  std::string canonical;   ///< "" when only the driver's name applies
  uint64_t since_baseline = 0;
};

class PortControl {
 public:
  /// `netdev` may be null: the port has no kernel netdev (net_ring, net_null, vfio PCI).
  /// `ethdev`: the port's owner for link up / down and ethdev link_speeds (it outlives
  /// this); null: those are not supported.
  PortControl(std::string name, uint16_t port_id, std::string driver, std::unique_ptr<KernelNetdev> netdev,
              EthdevLink* ethdev);

  const std::string& name() const noexcept { return name_; }
  uint16_t port_id() const noexcept { return port_id_; }
  /// The kernel netdev's name, "" when there is none.
  std::string netdev_name() const { return netdev_ ? netdev_->ifname() : std::string(); }

  Result<Served<LinkStatus>> link();
  /// Up / down through ethdev (the port's owner); speed, autoneg and advertised modes
  /// through the kernel netdev, else through ethdev link_speeds (the port's owner
  /// reconfigures the port; ethdev has no lane counts: exact link modes need the kernel).
  /// Returns the link read back.
  /// Returns without waiting for the link: the caller waits (mgmt: on a timer) until it is
  /// up or a timeout, then calls verify_link_set.
  Result<Served<LinkStatus>> set_link(const LinkRequest& request, const std::string& cause, bool keep = false);
  /// After a set_link that changed ethdev link speeds: a link that came up at another
  /// speed than the one asked for is refused and the previous speeds restored. Errors:
  /// kInvalid (with both speeds).
  Result<void> verify_link_set();
  Result<Served<FecStatus>> fec();
  Result<Served<FecStatus>> set_fec(uint32_t mode, bool keep = false);
  Result<Served<PauseStatus>> pause();
  Result<Served<PauseStatus>> set_pause(const PauseStatus& pause, bool keep = false);
  /// PFC from the kernel's DCB (it reads back); ethdev can only set it (DPDK 22.11 has no
  /// PFC get), so a set served by ethdev comes back with `read_back` false.
  Result<Served<PfcStatus>> pfc();
  Result<Served<PfcStatus>> set_pfc(uint8_t enabled, bool& read_back, bool keep = false);
  /// The kernel netdev's MTU. Errors: kNotSupported (no netdev).
  Result<uint32_t> mtu();
  /// Sets the MTU through the port's ethdev side (which stops and restarts a started
  /// port) and records it as a change of the host's setting when the port has a netdev.
  Result<void> set_mtu(uint16_t mtu, bool keep = false);
  /// Promiscuous mode through the port's ethdev side; recorded as a change of the host's
  /// setting when the port has a netdev (af_packet sets the netdev's IFF_PROMISC).
  Result<void> set_promiscuous(bool on, bool keep = false);
  Result<Served<std::vector<uint8_t>>> module_eeprom();

  /// Every counter of every source, with its canonical name and its value since the
  /// baseline. Sources that fail are skipped (their error is in `errors`).
  std::vector<MergedCounter> counters(std::vector<std::string>* errors = nullptr);
  /// What the port itself counted (rte_eth_stats) since the baseline: the run report's
  /// port counters.
  Result<PortCounters> port_counters_this_run() const;
  /// Takes every source's current values as the port's one baseline (at each run's start).
  void mark_baseline();

  // ---- leaving the port as it was found (settings_restore.cpp) ----
  // Each `keep` above: the change stays after the data plane exits. Every `set_*` records
  // what the port had before linerate's first change of that setting. Link speeds, MTU
  // and promiscuous mode are recorded only where they are the host's (the port has a kernel netdev): without
  // one they are ethdev configuration, which ends with the process.

  /// Before the port is brought up with a profile's MTU and link speeds: reads what the
  /// host has, to compare with after_bring_up.
  void before_bring_up(bool mtu, bool link, bool promiscuous);
  /// After it: records what bringing the port up changed.
  void after_bring_up(bool keep);
  /// What linerate changed on this port, and whether each was put back.
  const std::vector<api::SettingChange>& settings_changed() const noexcept { return changes_; }
  /// Puts back every change not kept, newest setting first, each read back; a setting
  /// the port refuses (or cannot read) is reported in its change, not skipped.
  const std::vector<api::SettingChange>& restore_settings();

  /// The port's rte_flow rules.
  PortFlows& flows() noexcept { return flows_; }

  /// Reads the link (the kernel netdev's carrier where it has one, else ethdev's) and
  /// records a change, at once, under `cause`. Whether it is up (false: unreadable, closed).
  bool observe_link(const std::string& cause);
  /// observe_link as "observed" ("first seen" the first time). Called by the mgmt loop
  /// every 100 ms.
  void poll_link();
  const std::deque<LinkEvent>& link_history() const noexcept { return history_; }
  /// A port with a kernel netdev: whether its link is up as last seen (observe_link,
  /// set_link), which is the wire's carrier (af_packet's ethdev link stays up whatever the
  /// wire does). None without a netdev, or before the first look.
  std::optional<bool> wire_link_up() const noexcept {
    return netdev_ && last_link_ ? std::optional<bool>(last_link_->first) : std::nullopt;
  }

 private:
  Error unsupported(const std::string& what, const Error* kernel_error) const;
  /// Records `status` when it is a change, as of `when`.
  void record_link(const LinkStatus& status, const std::string& cause, LinkInstant when = LinkInstant::now());
  Result<void> set_kernel_speeds(const LinkRequest& request);
  Result<void> set_ethdev_speeds(const LinkRequest& request);
  void record_change(const char* setting, const std::string& before, const std::string& set_to, bool keep);
  api::SettingChange restore_one(const api::SettingChange& change);

  std::string name_;
  uint16_t port_id_;
  std::string driver_;
  std::unique_ptr<KernelNetdev> netdev_;
  EthdevLink* ethdev_;
  PortFlows flows_;
  struct SpeedCheck {
    uint32_t link_speeds_before = 0;
    uint32_t speed_mbps = 0;
  };
  std::optional<SpeedCheck> pending_speed_check_;  ///< set by set_ethdev_speeds, for verify_link_set
  /// The port's counters at the run's start: rte_eth_stats, and the named counters
  /// (xstats, the kernel's) as "source/name" -> value.
  struct RunBaseline {
    PortCounters ethdev;
    std::map<std::string, uint64_t> named;
  };
  /// xstats and the kernel netdev's counters (ethtool -S, FEC), as read now.
  std::vector<NamedCounter> read_named_counters(std::vector<std::string>* errors);

  RunBaseline baseline_;
  /// What the port had before linerate's first change of each setting (unset: not
  /// changed, or not readable: PFC set through ethdev).
  struct Originals {
    std::optional<uint32_t> fec;
    std::optional<PauseStatus> pause;
    std::optional<uint8_t> pfc;
    std::optional<LinkStatus> link;  ///< the kernel netdev's
    std::optional<uint32_t> mtu;     ///< the kernel netdev's
    std::optional<bool> promiscuous; ///< the kernel netdev's IFF_PROMISC
    std::optional<bool> admin_up;    ///< the kernel netdev's IFF_UP (link down through the netdev)
  } originals_;
  std::vector<api::SettingChange> changes_;
  bool restoring_ = false;  ///< sets made by restore_settings are not changes
  std::deque<LinkEvent> history_;
  std::optional<std::pair<bool, uint32_t>> last_link_;
};

/// The kernel netdev behind ethdev port `port_id`: from the ethdev's if_index, else the
/// PCI address's net/ directory in sysfs; null when there is none.
std::unique_ptr<KernelNetdev> find_kernel_netdev(uint16_t port_id, const std::string& device, KernelIo& io);

}  // namespace lr::dp
