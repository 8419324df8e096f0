#pragma once
// A run on the data plane as typed calls over the contract (lib/api/): streams
// loaded as specs, traffic started, awaited and ended, its report and live counters read
// back as structs. `linerate run`, the benchmark suites and optics qualification run
// through it; none of them builds a request or reads a reply by key. A stop request
// (Ctrl-C, stop_signal.hpp) ends a wait; a data plane that vanished throws
// ConnectionError from any call, a refusal RpcCallError.

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "control/client/dataplane_client.hpp"
#include "lib/api/capture_spec.hpp"
#include "lib/api/port_spec.hpp"
#include "lib/api/run_report.hpp"
#include "lib/api/run_spec.hpp"
#include "lib/api/stream_spec.hpp"
#include "lib/api/switch_spec.hpp"
#include "lib/api/traffic.hpp"

namespace lr::ctl {

/// A run ended by traffic.stop: its report as the data plane sent it (what report files
/// keep) and read into the contract's struct.
struct EndedRun {
  nlohmann::json json;
  api::RunReport report;
};

class RunClient {
 public:
  explicit RunClient(DataplaneClient& client) : client_(client) {}

  /// Replaces the data plane's streams (stream.load with their JSON form), and with `run`
  /// its run settings (drain, timeline). `path` names them in the data plane's errors
  /// where a stream does not name its own source.
  /// Returns the run settings in force after it (the data plane's own when `run` is none).
  api::RunSpec load(const std::vector<api::StreamSpec>& streams, const std::string& path,
                    const std::optional<api::RunSpec>& run = std::nullopt);
  /// The data plane's streams as specs (stream.list {specs: true}).
  std::vector<api::StreamSpec> specs();
  /// What the next run will do (plan), as sent and typed.
  nlohmann::json plan_json();
  /// The ports: identity, link, speed (port.list).
  std::vector<api::PortReport> ports();
  /// Each port's settings as the data plane has them (port.list's spec); a port it sends
  /// none for (an older data plane) is left out.
  std::vector<api::PortSpec> port_specs();
  /// The software switches as configured (switch.list).
  std::vector<api::SwitchSpec> switch_specs();
  /// Each port's speed as the data plane reports it (bit/s; 0: unknown).
  std::map<std::string, uint64_t> port_speeds();
  /// What linerate sent and received per port so far (stats.ports).
  std::vector<api::PortTraffic> port_traffic();
  /// Each port's report so far: its counters since the run started, the MAC Control
  /// frames it heard (stats.ports).
  std::vector<api::PortReport> port_stats();
  /// The software switches' counters so far (stats.switches).
  std::vector<api::SwitchReport> switch_stats();
  /// Per-stream results so far (stats.streams).
  std::vector<api::StreamReport> stream_stats();
  api::LatencyHistogram histogram(const std::string& stream);

  /// Starts a capture (capture.start); its report names its id.
  api::CaptureReport start_capture(const api::CaptureSpec& spec);
  /// Ends a capture; returns when its file is complete (capture.stop).
  api::CaptureReport stop_capture(uint32_t id);
  /// Every capture running or lately ended (capture.list).
  std::vector<api::CaptureReport> captures();

  /// Starts a run of every stream, or of `streams` only.
  void start(const std::vector<std::string>& streams = {});
  api::TrafficStatus status();
  /// Holds a stream's transmission while the run goes on, or releases it (stream.hold).
  void hold(const std::string& stream, bool held);
  /// Polls traffic.status every `poll` until every stream has sent all it was to send;
  /// `each_poll` runs after each poll that found it still sending (a live line). Returns
  /// false when a stop request ended the wait first.
  bool wait_until_sent(std::chrono::milliseconds poll, const std::function<void()>& each_poll = {});
  /// Ends the run: what still sends stops, the drain runs, then the report.
  EndedRun stop();

  DataplaneClient& dataplane() noexcept { return client_; }

 private:
  DataplaneClient& client_;
};

/// What linerate sent and received per port, read from a stats.ports answer.
std::vector<api::PortTraffic> port_traffic(const nlohmann::json& stats_ports);
/// The streams of a stats.streams answer.
std::vector<api::StreamReport> stream_reports(const nlohmann::json& stats_streams);

/// The streams at `percent` of line rate each, running until stopped (their count,
/// duration and burst dropped).
std::vector<api::StreamSpec> streams_at_percent(std::vector<api::StreamSpec> streams, double percent);

}  // namespace lr::ctl
