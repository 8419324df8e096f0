#pragma once
// The engine's state, shared by its two halves (engine.cpp: lifecycle; run_stats.cpp:
// reading the counters). Private to dataplane/engine. Thread: mgmt.

#include <chrono>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "dataplane/capture/capture.hpp"
#include "dataplane/eal/lcore_plan.hpp"
#include "dataplane/engine/engine.hpp"
#include "dataplane/engine/tsc_utc.hpp"
#include "dataplane/hosts/host_service.hpp"
#include "dataplane/plan/run_state.hpp"
#include "dataplane/port/ethdev_port.hpp"
#include "dataplane/port/port_controls.hpp"
#include "dataplane/switch/software_switch.hpp"
#include "lib/host/kernel/kernel_io.hpp"
#include "lib/profile/profile.hpp"

namespace lr::dp {

// kLive: the lcores are running: a lane still sending has run until now, and `lost`
// (which then includes frames in flight) is never shown negative. kFinal: the lcores have
// returned and every count is exact.
enum class Reading : uint8_t { kLive, kFinal };

struct Engine::State {
  profile::Profile profile;
  std::deque<EthdevPort> ports;           ///< the profile's, in order; deque: PortControl points at them
  std::unique_ptr<KernelIo> kernel_io;      ///< until the port controls take it
  std::unique_ptr<PortControls> controls;  ///< one per port, made once the ports are up
  std::vector<std::unique_ptr<SoftwareSwitch>> switches;  ///< the profile's, each on an lcore the tester does not use
  std::vector<WorkerLcore> workers;        ///< the tester's: without the switches' lcores
  std::vector<unsigned> switch_lcore_ids;  ///< per switch, in the profile's order
  LcorePlan lcore_plan;
  RunState run;  ///< the current set of streams, built for the lcores
  /// Captures: running ones, and ended ones whose taps a run may still hold (freed when
  /// no run is launched). Declared after `run`: freed before its RX queues.
  std::vector<std::unique_ptr<capture::Capture>> captures;
  std::deque<api::CaptureReport> ended_captures;  ///< the last few freed, for capture.list
  uint32_t next_capture_id = 1;
  /// The emulated hosts' control path, once a port has hosts; stopped before the ports
  /// close, freed after (their TX queues hold its frames).
  std::unique_ptr<HostService> hosts;
  std::vector<std::string> warnings;
  uint64_t tsc_hz = 0;
  uint64_t start_tsc = 0;
  bool launched = false;
  bool finished = false;
  std::chrono::steady_clock::time_point started;
  std::string started_at;
  TscUtcMap start_map;  ///< the TSC read as UTC, taken at start()
  std::optional<int64_t> start_asked_utc_ns;  ///< traffic.start's at_utc_ns

  ~State();
  Result<void> build();
  Result<void> build_ports();   // the ports and their lcores, not yet brought up
  Result<void> bring_up_ports();
  /// Takes each switch's lcore out of `workers` (its own, or the last one left).
  /// Errors: kInvalid (not a worker lcore; none left for the tester).
  Result<std::vector<unsigned>> reserve_switch_lcores();
  Result<void> build_switches(const std::vector<unsigned>& lcores);
  /// A new RunState for the profile's streams. Errors: as build_run.
  Result<void> build_run_state();
  /// A port's kernel netdev ("" if none, or before the port controls exist), and every port's.
  std::string kernel_netdev(size_t port) const;
  std::vector<std::string> kernel_netdevs() const;
  /// Per port, how its MAC Control frames leave (plan::mac_control_path).
  std::string mac_control_tx(size_t port) const;
  void stop_lcores();
  /// The hosts' slow-path rings on the run's RX queues, and RX handed to the workers.
  void hand_rx_to_workers();
  /// Each stream of the run (`only_streams`, or all) with eth.src / eth.dst "auto" gets its
  /// MACs (waiting up to 4 s in all for neighbours still being resolved); the run is rebuilt
  /// when one changed. Errors: kInvalid (why one cannot be sent), the rebuild's (kNoMemory).
  Result<void> resolve_auto_streams(const std::vector<std::string>& only_streams);
  /// Points each RX queue of the current run at its port's running capture (or none), and
  /// tells the captures the run's stream names. Frees the ended captures when no run is
  /// launched.
  void attach_captures();
  /// The port named `name`. Errors: kInvalid.
  Result<EthdevPort*> port_named(const std::string& name);
  /// The run's start on the UTC clock: the instant set, and when the first TX lcore began.
  api::RunStart run_start() const;
  StreamReport collect_stream(size_t s, Reading reading) const;
  PortReport collect_port(size_t p) const;
  StreamState* find_stream(const std::string& name);
  /// Sets `flag` of the named stream's TX lanes (a stop or hold request). Errors: kInvalid.
  Result<void> signal_lanes(const std::string& name, std::atomic<bool> fast::TxLane::*flag, bool value);
};

}  // namespace lr::dp
