#pragma once
// The engine: ports, mempools, stream plans and worker lcores for one profile, and the
// collection of their results. This is the data plane's API: the one-shot run drives
// it from main(), and the control server (later) drives the same calls over the socket.
// Thread: mgmt (main lcore) only; EAL must be initialised.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>


#include "dataplane/common/result.hpp"
#include "dataplane/api/run_report.hpp"
#include "dataplane/profile/profile.hpp"

namespace lr::dp {

// The report's types are the protocol's (dataplane/api/run_report.hpp).
using api::LatencySummary;
using api::PortReport;
using api::PortTraffic;
using api::RunReport;
using api::StreamReport;

/// One TX lane of a worker lcore, and what it counted.
struct LaneReport {
  std::string stream;
  uint8_t lane = 0;
  uint16_t port_id = 0;
  uint16_t queue = 0;
  uint64_t tx_packets = 0;
  uint64_t tx_queue_full = 0;
  uint64_t alloc_failures = 0;
  bool done = false;
};

/// One RX queue of a worker lcore, and what it counted.
struct RxQueueReport {
  uint16_t port_id = 0;
  uint16_t queue = 0;
  uint64_t rx_packets = 0;
  uint64_t rx_bytes = 0;  ///< incl. FCS
  uint64_t rx_no_signature = 0;
};

struct LcoreReport {
  unsigned lcore = 0;
  int socket = 0;
  std::vector<LaneReport> tx_lanes;
  std::vector<RxQueueReport> rx_queues;
};

/// A stream's latency histogram merged over its RX lcores: the non-empty buckets.
struct LatencyHistogram {
  struct Bucket {
    uint64_t low_ns = 0;
    uint64_t high_ns = 0;
    uint64_t count = 0;
  };
  std::string stream;
  uint64_t samples = 0;
  std::vector<Bucket> buckets;
};

/// What finish does with the ports: a one-shot run closes them (and then checks every
/// pool, RX included); a service keeps them for the next run (stopped: TX pools checked).
enum class AfterRun : uint8_t { kClosePorts, kKeepPorts };

class Engine {
 public:
  /// Brings up the profile's ports, builds stream plans and their template mempools and
  /// assigns queues to worker lcores. Errors: kNoDevice, kInvalid (NUMA, rates, queues),
  /// kNotSupported, kNoMemory, each with the port or stream it concerns.
  static Result<std::unique_ptr<Engine>> create(const lr::profile::Profile& profile);

  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  /// Port -> socket -> lcores -> queues, and each stream's rate and lanes.
  api::RunPlan plan() const;
  const std::vector<std::string>& warnings() const noexcept;

  /// Launches the worker lcores; traffic starts on all lanes at one TSC (only the lanes
  /// of `only_streams` when given). After a finish, starts a new run of the same
  /// streams with fresh counters. Errors: kBusy (already running), kInvalid (no such stream).
  Result<void> start(const std::vector<std::string>& only_streams = {});

  /// Replaces the set of streams (validated against the ports, like a profile).
  /// Errors: kBusy (traffic running), kInvalid (the reason, naming key and stream),
  /// kNoMemory.
  Result<void> set_streams(const std::vector<lr::profile::StreamCfg>& streams);

  const lr::profile::Profile& profile() const noexcept;
  bool running() const noexcept;

  /// True when every lane has finished (count or duration reached, or stopped).
  bool tx_finished() const;

  /// What linerate sent and received per port so far (relaxed reads of lcore counters).
  std::vector<PortTraffic> live_counters() const;

  /// Each port: identity, link, the port's counters since the current run started.
  std::vector<PortReport> port_reports() const;

  /// Per worker lcore: socket, its TX lanes and RX queues with their counters.
  std::vector<LcoreReport> lcore_reports() const;

  /// A stream's latency histogram merged over its RX lcores: non-empty buckets as
  /// {low_ns, high_ns, count}. Errors: kInvalid (no such stream, or transmit-only).
  Result<LatencyHistogram> latency_histogram(const std::string& stream) const;

  /// Port settings. Errors: kInvalid (no such port; MTU too small for a stream's frames),
  /// kBusy (MTU while traffic runs), kNotSupported ("... is not supported by <driver>").
  Result<void> set_promiscuous(const std::string& port, bool on);
  /// Asks for the link up or down and returns without waiting for it: a link takes
  /// from microseconds (vdevs) to seconds (autoneg on a real NIC); poll link_up.
  Result<void> set_link(const std::string& port, bool up);
  /// Reads the port's link now (and keeps it for port_reports). Errors: kInvalid (no such port).
  Result<bool> link_up(const std::string& port);
  Result<void> set_mtu(const std::string& port, uint16_t mtu);
  /// Link speed negotiation through ethdev (`link_speeds` bits, see link_speeds_bits):
  /// the port is reconfigured and restarted, then its link awaited. Not while traffic runs.
  Result<void> set_link_speeds(const std::string& port, uint32_t link_speeds);
  /// Starts or stops a port between runs (traffic.start starts every port it needs);
  /// does not wait for its link (poll link_up).
  Result<void> set_port_started(const std::string& port, bool started);

  /// Per-stream results so far, while traffic runs: TX counters read relaxed, RX state
  /// read consistently per lcore (seqcount), `lost` including frames still in flight.
  /// Before start or after finish, the exact values.
  std::vector<StreamReport> live_stream_stats() const;

  /// Changes a stream's rate, also while it runs: each lane takes the new rate at its
  /// next burst, without a pause. Returns the new frames/s (0: unpaced).
  /// Errors: kInvalid (no such stream; a rate the port cannot carry).
  Result<double> set_stream_rate(const std::string& stream, const lr::profile::Rate& rate);

  /// Stops one stream's TX lanes; the others go on. Errors: kInvalid (no such stream).
  Result<void> stop_stream(const std::string& stream);

  /// The end of a run in steps, for a caller with an event loop: stop_tx, then wait
  /// (timers, not sleeps) until tx_finished and then for drain_interval, then
  /// finish_drained. `finish` below does the same, sleeping in between.
  void stop_tx();
  std::chrono::nanoseconds drain_interval() const noexcept;
  RunReport finish_drained(bool interrupted, AfterRun after = AfterRun::kClosePorts,
                           const std::function<void()>& before_close = {});

  /// Stops TX, lets RX drain for the profile's drain interval, stops the lcores, reads
  /// all counters, stops or closes the ports and checks that every mbuf came back. Port
  /// counters in the report are what this run added.
  /// `before_close`, if set, runs after the drain and before the ports are closed or
  /// stopped: the last moment their counters can be read for this run.
  RunReport finish(bool interrupted, AfterRun after = AfterRun::kClosePorts,
                   const std::function<void()>& before_close = {});

 private:
  struct State;  // ports, streams, lcores of this profile: engine.cpp
  explicit Engine(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace lr::dp
