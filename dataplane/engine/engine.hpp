#pragma once
// The engine: ports, mempools, stream plans and worker lcores for one profile, and the
// collection of their results. This is the data plane's API: the one-shot run drives
// it from main(), and the control server (later) drives the same calls over the socket.
// Thread: mgmt (main lcore) only; EAL must be initialised.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dataplane/port/ethdev_port.hpp"
#include "dataplane/port/port_controls.hpp"
#include "lib/api/capture_spec.hpp"
#include "lib/api/lcore_report.hpp"
#include "lib/api/neighbor_report.hpp"
#include "lib/api/run_report.hpp"
#include "lib/api/traffic.hpp"
#include "lib/common/result.hpp"
#include "lib/host/kernel/kernel_io.hpp"
#include "lib/profile/profile.hpp"

namespace lr::dp {

// The report's types are the protocol's (lib/api/run_report.hpp).
using api::LaneReport;
using api::LatencyHistogram;
using api::LcoreReport;
using api::LatencySummary;
using api::PortReport;
using api::PortTraffic;
using api::RunReport;
using api::RxQueueReport;
using api::StreamReport;


/// What finish does with the ports: a one-shot run closes them (and then checks every
/// pool, RX included); a service keeps them for the next run (stopped: TX pools checked).
enum class AfterRun : uint8_t { kClosePorts, kKeepPorts };

class Engine {
 public:
  /// Brings up the profile's ports, builds stream plans and their template mempools and
  /// assigns queues to worker lcores. Errors: kNoDevice, kInvalid (NUMA, rates, queues),
  /// kNotSupported, kNoMemory, each with the port or stream it concerns.
  /// `kernel_io`: how port control reaches the ports' kernel netdevs (null: the system's).
  static Result<std::unique_ptr<Engine>> create(const lr::profile::Profile& profile,
                                                std::unique_ptr<KernelIo> kernel_io = nullptr);

  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  /// Port -> socket -> lcores -> queues, and each stream's rate and lanes.
  api::RunPlan plan() const;
  /// About the ports (NUMA, offloads) and the current streams (a "max" stream beside
  /// paced ones). A run report adds each stream that missed its rate.
  std::vector<std::string> warnings() const;

  /// Launches the worker lcores; traffic starts on all lanes at one TSC (only the lanes
  /// of `only_streams` when given): at `at_utc_ns` on the UTC clock when given (a start
  /// synchronised across data planes), else at once. After a finish, starts a new run of
  /// the same streams with fresh counters. Errors: kBusy (already running), kInvalid (no
  /// such stream; an instant past, or more than kMaxStartAhead ahead).
  Result<void> start(const std::vector<std::string>& only_streams = {}, std::optional<int64_t> at_utc_ns = {});
  /// How far ahead a start may be asked for: the lanes spin until then.
  static constexpr int64_t kMaxStartAheadNs = 60'000'000'000;

  /// Replaces the set of streams (validated against the ports, like a profile), and with
  /// `run` the run's settings (drain, timeline) for the runs that follow.
  /// Errors: kBusy (traffic running), kInvalid (the reason, naming key and stream),
  /// kNoMemory.
  Result<void> set_streams(const std::vector<lr::api::StreamSpec>& streams,
                           const std::optional<lr::api::RunSpec>& run = std::nullopt);

  /// Replaces the emulated hosts (a profile's [[device]] tables, device.load's): each port
  /// with hosts gets a TX queue of their own (a started port is reconfigured for it: its
  /// link flaps), and its hosts start at once. Returns the hosts in all. Errors: kBusy
  /// (traffic runs), kInvalid (a device's port, hosts not distinct, naming them),
  /// kNotSupported (a PMD without a TX queue to spare), kNoMemory.
  Result<uint32_t> set_devices(const std::vector<lr::api::DeviceSpec>& devices);
  /// Each port's hosts and neighbours (neighbors.list); `port` given, that one's.
  /// Errors: kInvalid (no such port, or no hosts on it).
  Result<std::vector<api::PortNeighbors>> neighbors(const std::optional<std::string>& port) const;

  const lr::profile::Profile& profile() const noexcept;
  bool running() const noexcept;
  /// The TSC's rate the run is clocked at (tsc_hz_against_utc): its stamps, pacing and starts.
  uint64_t tsc_hz() const noexcept;

  /// True when every lane has finished (count or duration reached, or stopped).
  bool tx_finished() const;

  /// What linerate sent and received per port so far (relaxed reads of lcore counters).
  std::vector<PortTraffic> live_counters() const;

  /// Each port: identity, link, the port's counters since the current run started.
  std::vector<PortReport> port_reports() const;

  /// The software switches' counters: live while traffic runs, the last run's after it.
  std::vector<api::SwitchReport> switch_reports() const;

  /// Per worker lcore: socket, its TX lanes and RX queues with their counters.
  std::vector<LcoreReport> lcore_reports() const;

  /// A stream's latency histogram merged over its RX lcores: non-empty buckets as
  /// {low_ns, high_ns, count}. Errors: kInvalid (no such stream, or transmit-only).
  Result<LatencyHistogram> latency_histogram(const std::string& stream) const;

  /// The port named `name`: its ethdev side (link, promiscuous mode, started / stopped),
  /// which the engine owns. Errors: kInvalid (no such port).
  Result<EthdevPort*> port(const std::string& name);
  /// Port control (FEC, pause, PFC, module, merged counters, link history, flow rules) of
  /// every port, reaching each port's ethdev side directly.
  PortControls& port_controls() noexcept;
  /// The MTU of a port between runs, checked against its streams' frames. Errors: kInvalid
  /// (no such port; a stream's frames exceed it), kBusy (traffic runs), kNotSupported.
  /// Put back at exit unless `keep` (PortControl::set_mtu).
  Result<void> set_mtu(const std::string& port, uint16_t mtu, bool keep = false);
  /// How long after a PFC / PAUSE frame's arrival a port that obeys them itself
  /// (`pfc_honour`) does so, from the next run: as quanta at its speed, else `ns`. A slow
  /// endpoint, for headroom tests. Errors: kBusy while traffic runs, kInvalid without
  /// pfc_honour.
  Result<void> set_pfc_reaction_delay(const std::string& port, std::optional<uint32_t> quanta, uint64_t ns);

  /// Per-stream results so far, while traffic runs: TX counters read relaxed, RX state
  /// read consistently per lcore (seqcount), `lost` including frames still in flight.
  /// Before start or after finish, the exact values.
  std::vector<StreamReport> live_stream_stats() const;

  /// Changes a stream's rate, also while it runs: each lane takes the new rate at its
  /// next burst, without a pause. Returns the new frames/s (0: unpaced).
  /// Errors: kInvalid (no such stream; a rate the port cannot carry).
  Result<double> set_stream_rate(const std::string& stream, const lr::api::Rate& rate);

  /// Stops one stream's TX lanes; the others go on. Errors: kInvalid (no such stream).
  Result<void> stop_stream(const std::string& stream);
  /// Holds one stream's TX lanes (they send nothing, the run goes on) or releases them
  /// (they go on at the stream's rate from then: the time held is not made up).
  /// Errors: kInvalid (no such stream).
  Result<void> hold_stream(const std::string& stream, bool held);

  /// The end of a run in steps, for a caller with an event loop: stop_tx, then wait
  /// (timers, not sleeps) until tx_finished and then for drain_interval, then
  /// finish_drained. `finish` below does the same, sleeping in between.
  void stop_tx();
  std::chrono::nanoseconds drain_interval() const noexcept;
  RunReport finish_drained(bool interrupted, AfterRun after = AfterRun::kClosePorts);

  /// Starts a capture of what `spec.port` receives (one capture per port at a time): from
  /// now, through the runs that follow, until stop_capture, its count or its duration;
  /// `session` is the control session it ends with. Errors: kInvalid (no such port, a
  /// port with a capture, the filter, the file), kNoMemory.
  Result<api::CaptureReport> start_capture(const api::CaptureSpec& spec, uint64_t session);
  /// Ends a capture; returns when its file is complete. Errors: kInvalid (no such capture).
  Result<api::CaptureReport> stop_capture(uint32_t id);
  /// Ends the captures `session` started (its connection closed).
  void stop_captures_of(uint64_t session);
  /// The captures running and those that ended lately, oldest first.
  std::vector<api::CaptureReport> capture_reports() const;

  /// Stops TX, lets RX drain for the profile's drain interval, stops the lcores, reads
  /// all counters (the ports' own, this run's, and port control's merged view and link
  /// history), stops or closes the ports and checks that every mbuf came back.
  RunReport finish(bool interrupted, AfterRun after = AfterRun::kClosePorts);

 private:
  struct State;  // ports, streams, lcores of this profile: engine.cpp
  explicit Engine(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace lr::dp
