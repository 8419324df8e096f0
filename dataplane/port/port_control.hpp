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

#include "dataplane/common/result.hpp"
#include "dataplane/port/ethdev_port.hpp"
#include "dataplane/port/flow/port_flows.hpp"
#include "dataplane/port/kernel/kernel_netdev.hpp"
#include "dataplane/port/port_settings.hpp"

namespace lr::dp {

template <class T>
struct Served {
  T value;
  Backend backend = Backend::kEthdev;
};

/// A link state change seen on the port, with when it was seen.
struct LinkEvent {
  std::chrono::system_clock::time_point at;
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
  Result<Served<LinkStatus>> set_link(const LinkRequest& request, const std::string& cause);
  /// After a set_link that changed ethdev link speeds: a link that came up at another
  /// speed than the one asked for is refused and the previous speeds restored. Errors:
  /// kInvalid (with both speeds).
  Result<void> verify_link_set();
  Result<Served<FecStatus>> fec();
  Result<Served<FecStatus>> set_fec(uint32_t mode);
  Result<Served<PauseStatus>> pause();
  Result<Served<PauseStatus>> set_pause(const PauseStatus& pause);
  /// PFC from the kernel's DCB (it reads back); ethdev can only set it (DPDK 22.11 has no
  /// PFC get), so a set served by ethdev comes back with `read_back` false.
  Result<Served<PfcStatus>> pfc();
  Result<Served<PfcStatus>> set_pfc(uint8_t enabled, bool& read_back);
  Result<Served<std::vector<uint8_t>>> module_eeprom();

  /// Every counter of every source, with its canonical name and its value since the
  /// baseline. Sources that fail are skipped (their error is in `errors`).
  std::vector<MergedCounter> counters(std::vector<std::string>* errors = nullptr);
  /// Takes the current values as the baseline (at each run's start).
  void mark_baseline();

  /// The port's rte_flow rules.
  PortFlows& flows() noexcept { return flows_; }

  /// Reads the link and records a change. Called by the mgmt loop every 100 ms.
  void poll_link();
  const std::deque<LinkEvent>& link_history() const noexcept { return history_; }

 private:
  Error unsupported(const std::string& what, const Error* kernel_error) const;
  void record_link(const LinkStatus& status, const std::string& cause);
  Result<void> set_kernel_speeds(const LinkRequest& request);
  Result<void> set_ethdev_speeds(const LinkRequest& request);

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
  std::map<std::string, uint64_t> baseline_;  // "source/name" -> value
  std::deque<LinkEvent> history_;
  std::optional<std::pair<bool, uint32_t>> last_link_;
};

/// The kernel netdev behind ethdev port `port_id`: from the ethdev's if_index, else the
/// PCI address's net/ directory in sysfs; null when there is none.
std::unique_ptr<KernelNetdev> find_kernel_netdev(uint16_t port_id, const std::string& device, KernelIo& io);

}  // namespace lr::dp
