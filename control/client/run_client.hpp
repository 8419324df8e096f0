#pragma once
// A run on the data plane as typed calls over the contract (lib/api/): streams
// loaded as specs, traffic started, awaited and ended, its report and live counters read
// back as structs. `linerate run`, the benchmark suites and optics qualification run
// through it; none of them builds a request or reads a reply by key. A stop request
// (Ctrl-C, stop_signal.hpp) ends a wait; a data plane that vanished throws
// ConnectionError from any call, a refusal RpcCallError.
//
// A method `X_json` returns the data plane's answer as sent, for a front end that prints
// it as-is (--json) or keeps it (report files); `X` reads that same answer into the
// contract's struct. Each RPC is called in one place.

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
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
// NOLINTBEGIN(bugprone-exception-escape): clang-tidy 16 reports this aggregate's implicit members; they throw only
// std::bad_alloc, as any copy of a container does
struct EndedRun {
  nlohmann::json json;
  api::RunReport report;
};
// NOLINTEND(bugprone-exception-escape)

/// The streams a traffic.start or traffic.stop concerns: those named, and those sent from
/// the ports named; both empty: every stream (a stop then ends the run).
struct TrafficSelection {
  std::vector<std::string> streams;
  std::vector<std::string> ports;
  std::optional<int64_t> at_utc_ns = {};  ///< traffic.start: begin at this UTC instant (several data planes at one)
  std::optional<int64_t> lease_ms = {};   ///< traffic.start: the run ends once this session is silent this long
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
  /// stream.load's answer as sent (the streams it loaded: api::streams_named).
  nlohmann::json load_json(const std::vector<api::StreamSpec>& streams, const std::string& path,
                           const std::optional<api::RunSpec>& run = std::nullopt);
  /// Adds `streams` to the data plane's (stream.add); the answer names those added.
  nlohmann::json add_json(const std::vector<api::StreamSpec>& streams, const std::string& path);
  /// Removes a stream (stream.remove).
  nlohmann::json remove_stream_json(const std::string& stream);
  /// Stops one stream while the others go on (stream.stop).
  nlohmann::json stop_stream_json(const std::string& stream);
  /// Sets a stream's rate, also while it runs: "10%", "1.5Mpps", "5Gbps", "5Gbps-l2" or
  /// "max" (stream.rate.set; api::stream_rate_from_json reads the new target).
  nlohmann::json set_rate_json(const std::string& stream, const std::string& rate);
  /// The streams as stream.list lists them (api::stream_listing_from_json reads each).
  nlohmann::json stream_list_json();
  /// The data plane's streams as specs (stream.list {specs: true}).
  std::vector<api::StreamSpec> specs();
  /// What the next run will do (plan), as sent and typed.
  nlohmann::json plan_json();
  /// The ports: identity, link, speed (port.list).
  std::vector<api::PortReport> ports();
  nlohmann::json port_list_json();
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
  nlohmann::json port_stats_json();
  /// The software switches' counters so far (stats.switches).
  std::vector<api::SwitchReport> switch_stats();
  /// Per-stream results so far (stats.streams).
  std::vector<api::StreamReport> stream_stats();
  nlohmann::json stream_stats_json();
  api::LatencyHistogram histogram(const std::string& stream);
  nlohmann::json histogram_json(const std::string& stream);
  /// The worker lcores with their TX lanes and RX queues (stats.lcores;
  /// api::lcore_report_from_json reads each).
  nlohmann::json lcores_json();

  /// Every counter at one moment, in one round trip: {traffic (traffic.status), ports
  /// (stats.ports), streams (stats.streams), counters: {port: its merged counters
  /// (port.counters)}} for each of `ports` (one whose counters cannot be read is left out).
  nlohmann::json snapshot_json(const std::vector<std::string>& ports);

  /// Starts a capture (capture.start); its report names its id.
  api::CaptureReport start_capture(const api::CaptureSpec& spec);
  /// Ends a capture; returns when its file is complete (capture.stop).
  api::CaptureReport stop_capture(uint32_t id);
  /// An ended capture's file, read over the connection in pieces (capture.read): for a
  /// data plane on another host. `piece` gets each in turn, so a file of any size costs
  /// one piece of memory (4 MiB).
  void read_capture_file(uint32_t id, const std::function<void(std::string_view)>& piece);
  /// The same, whole, in memory.
  std::string capture_file(uint32_t id);
  /// Removes an ended capture's file from the data plane's host (capture.remove); false
  /// where it was gone already.
  bool remove_capture_file(uint32_t id);
  /// Every capture running or lately ended (capture.list).
  std::vector<api::CaptureReport> captures();

  /// Starts a run of every stream, or of `streams` only.
  void start(const std::vector<std::string>& streams = {});
  /// Starts a run of the streams `selection` names (traffic.start), as answered.
  nlohmann::json start_json(const TrafficSelection& selection);
  api::TrafficStatus status();
  nlohmann::json status_json();
  /// Holds a stream's transmission while the run goes on, or releases it (stream.hold).
  void hold(const std::string& stream, bool held);
  nlohmann::json hold_json(const std::string& stream, bool held);
  /// Polls traffic.status every `poll` until every stream has sent all it was to send;
  /// `each_poll` runs after each poll that found it still sending (a live line). Returns
  /// false when a stop request ended the wait first.
  bool wait_until_sent(std::chrono::milliseconds poll, const std::function<void()>& each_poll = {});
  /// Ends the run: what still sends stops, the drain runs, then the report.
  EndedRun stop();
  /// traffic.stop as answered: with an empty selection the run's report (as stop()), else
  /// the streams it stopped while the run goes on (api::streams_named).
  nlohmann::json stop_json(const TrafficSelection& selection = {});
  /// The last run's report the data plane keeps (report.last); RpcCallError when it has
  /// ended none.
  nlohmann::json last_report_json();

  DataplaneClient& dataplane() noexcept { return client_; }

 private:
  DataplaneClient& client_;
};

/// Each port's speed (bit/s; 0: unknown), by name.
std::map<std::string, uint64_t> port_speeds(const std::vector<api::PortReport>& ports);

/// What linerate sent and received per port, read from a stats.ports answer.
std::vector<api::PortTraffic> port_traffic(const nlohmann::json& stats_ports);
/// The streams of a stats.streams answer.
std::vector<api::StreamReport> stream_reports(const nlohmann::json& stats_streams);

/// The streams at `percent` of line rate each, running until stopped (their count,
/// duration and burst dropped).
std::vector<api::StreamSpec> streams_at_percent(std::vector<api::StreamSpec> streams, double percent);

}  // namespace lr::ctl
