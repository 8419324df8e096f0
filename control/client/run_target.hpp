#pragma once
// The tester's ports a run drives, whether one data plane holds them all (DataplaneTarget)
// or several do, each named by location (EngineFleet, engine_fleet.hpp). The benchmark
// suites and `linerate run` drive a run through this, so that a suite runs the same on
// ports of one host or of many: streams loaded, traffic started and awaited, the run
// ended with one report, and the port settings a suite changes between trials.

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "control/client/port_client.hpp"
#include "control/client/run_client.hpp"
#include "lib/api/host_spec.hpp"
#include "lib/api/neighbor_report.hpp"

namespace lr::ctl {

/// Where a port is: the data plane that holds it, and the port's name there.
struct PortPlace {
  DataplaneClient* dataplane = nullptr;
  std::string name;
};

class RunTarget {
 public:
  RunTarget() = default;
  RunTarget(const RunTarget&) = delete;
  RunTarget& operator=(const RunTarget&) = delete;
  virtual ~RunTarget() = default;

  /// Replaces the streams, and with `run` the run settings; returns those in force after it.
  /// `path` names the streams in the data plane's errors.
  virtual api::RunSpec load(const std::vector<api::StreamSpec>& streams, const std::string& path,
                            const std::optional<api::RunSpec>& run = std::nullopt) = 0;
  /// Starts every stream loaded.
  void start() { start({}); }
  /// Starts the streams named (none: every stream loaded).
  virtual void start(const std::vector<std::string>& streams) = 0;
  /// Holds a stream's transmission while the run goes on, or releases it.
  virtual void hold(const std::string& stream, bool held) = 0;
  /// Whether every stream has sent all it was to send (every data plane asked).
  virtual bool all_sent() = 0;
  /// How often a front end that waits asks (all_sent, or any call): over several data
  /// planes, often enough that none's lease lapses.
  virtual std::chrono::milliseconds ask_every() const { return std::chrono::seconds(1); }
  /// Polls until every stream has sent all it was to send (`each_poll` after each poll
  /// that found one still sending); false when a stop request ended the wait first.
  virtual bool wait_until_sent(std::chrono::milliseconds poll, const std::function<void()>& each_poll = {}) = 0;
  /// Ends the run: what still sends stops, the drain runs, then the one report.
  virtual EndedRun stop() = 0;
  /// A stream's latency histogram of the last run (empty where its latency was withheld).
  virtual api::LatencyHistogram histogram(const std::string& stream) = 0;
  /// Each port: identity, link, speed, by the names the streams use.
  virtual std::vector<api::PortReport> ports() = 0;
  /// While the run goes on: each stream's results so far.
  virtual std::vector<api::StreamReport> stream_stats() = 0;
  /// While the run goes on: what each port sent and received, and its report so far.
  virtual std::vector<api::PortTraffic> port_traffic() = 0;
  virtual std::vector<api::PortReport> port_stats() = 0;
  /// The emulated hosts' neighbours, by port (neighbors.list).
  virtual std::vector<api::PortNeighbors> neighbors() = 0;
  /// The data plane holding `port`, for the controls this interface does not cover (PFC,
  /// pause, captures); std::invalid_argument for a port that is not the run's.
  virtual PortPlace place_of(const std::string& port) = 0;
  /// Each port's speed (bit/s; 0: unknown).
  std::map<std::string, uint64_t> port_speeds();
  /// Changes a port's settings between runs (port.config.set on the port's data plane).
  virtual void set_port(const std::string& port, const PortConfigChange& change) = 0;
  /// Sets a port's link down or up; up returns once the link is up.
  virtual void set_link(const std::string& port, bool up) = 0;
  /// Replaces the emulated hosts (device.load): they start at once.
  virtual void load_devices(const std::vector<api::DeviceSpec>& devices, const std::string& path) = 0;
};

/// Every port on one data plane.
class DataplaneTarget final : public RunTarget {
 public:
  explicit DataplaneTarget(DataplaneClient& client) : run_(client) {}

  using RunTarget::start;
  api::RunSpec load(const std::vector<api::StreamSpec>& streams, const std::string& path,
                    const std::optional<api::RunSpec>& run = std::nullopt) override;
  void start(const std::vector<std::string>& streams) override;
  void hold(const std::string& stream, bool held) override;
  bool all_sent() override;
  bool wait_until_sent(std::chrono::milliseconds poll, const std::function<void()>& each_poll = {}) override;
  EndedRun stop() override;
  api::LatencyHistogram histogram(const std::string& stream) override;
  std::vector<api::PortReport> ports() override;
  std::vector<api::StreamReport> stream_stats() override;
  std::vector<api::PortTraffic> port_traffic() override;
  std::vector<api::PortReport> port_stats() override;
  std::vector<api::PortNeighbors> neighbors() override;
  PortPlace place_of(const std::string& port) override;
  void set_port(const std::string& port, const PortConfigChange& change) override;
  void set_link(const std::string& port, bool up) override;
  void load_devices(const std::vector<api::DeviceSpec>& devices, const std::string& path) override;

 private:
  RunClient run_;
};

}  // namespace lr::ctl
