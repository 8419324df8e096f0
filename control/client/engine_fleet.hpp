#pragma once
// A run whose ports are on several data planes, each port named by location
// ("ENGINE;PORT", ENGINE a HOST:PORT or a --locations name), driven as one RunTarget:
// `linerate run` and every benchmark suite run over it as over one data plane.
//
// Every data plane loads every stream, in one order (the signature's stream id is the
// stream's place in it): the sender's as it is, the receiver's as receive_only, any other's
// as a placeholder it receives on its first port. All start at one UTC instant, the latest
// clock plus a margin; they are stopped senders first, so that what was sent has arrived
// when the receivers drain, and the report joins each stream's TX counts from its sender
// with what its receiver counted. A data plane that goes away stops the others at once: no
// traffic runs unattended; nor after this controller dies: each run is started with a lease
// (DataplaneAddress::lease_ms) that the controller's requests renew, and ends once it lapses.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "control/client/dataplane_client.hpp"
#include "control/client/fleet_clocks.hpp"
#include "control/client/location_map.hpp"
#include "control/client/run_target.hpp"
#include "lib/api/port_spec.hpp"

namespace lr::ctl {

/// One data plane of the fleet.
// NOLINTBEGIN(bugprone-exception-escape): clang-tidy 16 reports this aggregate's implicit members; they throw only
// std::bad_alloc, as any copy of a container does
struct FleetEngine {
  std::string address;  ///< HOST:PORT, as the locations name it
  std::unique_ptr<DataplaneClient> client;
  nlohmann::json hello;
  int64_t rtt_ns = 0;
  int64_t offset_ns = 0;                             ///< its clock minus ours, at hello
  std::map<std::string, std::string> profile_names;  ///< its port names -> the profile's
  bool sends = false;                                ///< the streams loaded send from one of its ports
  std::optional<EndedRun> ended;                     ///< the last run's report, once it stopped
  nlohmann::json clock_after;  ///< its clock read once it stopped (hello), for the drift
};
// NOLINTEND(bugprone-exception-escape)

/// A profile port: which data plane holds it, and its name there.
struct FleetPlacement {
  size_t engine = 0;
  std::string port;
};

class EngineFleet final : public RunTarget {
 public:
  /// Connects to the data plane of every port's location (a name through `names`) and finds
  /// each port there, as `client_name` (hello). Returns null with `problem` set where a
  /// location is not HOST:PORT nor a name, or its data plane lacks the port; throws
  /// ConnectionError where a data plane cannot be reached.
  static std::unique_ptr<EngineFleet> open(const std::vector<api::PortSpec>& ports, const DataplaneAddress& options,
                                           const LocationMap& names, const std::string& client_name,
                                           std::string& problem);

  /// The profile's [run]: the settings of every load that gives none (a suite's trials), so
  /// that each data plane runs as the profile says, not as its own profile did.
  void use_run_settings(const api::RunSpec& run) { run_settings_ = run; }

  using RunTarget::start;
  api::RunSpec load(const std::vector<api::StreamSpec>& streams, const std::string& path,
                    const std::optional<api::RunSpec>& run = std::nullopt) override;
  /// Starts every data plane at one instant (start_utc_ns()); each counts every stream
  /// named, its senders send those that leave its ports.
  void start(const std::vector<std::string>& streams) override;
  /// On the data plane that sends it.
  void hold(const std::string& stream, bool held) override;
  /// Every data plane is asked, those that only receive too: each request renews its lease.
  bool all_sent() override;
  /// A quarter of the lease, at most a second.
  std::chrono::milliseconds ask_every() const override;
  /// Also watches every data plane: one that hung up stops the others, then ConnectionError.
  bool wait_until_sent(std::chrono::milliseconds poll, const std::function<void()>& each_poll = {}) override;
  /// Senders first, then receivers, each group together; the merged report. A data plane that went away: the
  /// others are stopped, then ConnectionError (report() has what was measured).
  EndedRun stop() override;
  api::LatencyHistogram histogram(const std::string& stream) override;
  std::vector<api::PortReport> ports() override;
  /// Joined as in the report (fleet_stream_stats).
  std::vector<api::StreamReport> stream_stats() override;
  std::vector<api::PortTraffic> port_traffic() override;
  std::vector<api::PortReport> port_stats() override;
  std::vector<api::PortNeighbors> neighbors() override;
  PortPlace place_of(const std::string& port) override;
  void set_port(const std::string& port, const PortConfigChange& change) override;
  void set_link(const std::string& port, bool up) override;
  void load_devices(const std::vector<api::DeviceSpec>& devices, const std::string& path) override;

  /// The last run's one report from every data plane that ended it, the lost one's
  /// receptions unknown and said so (after a ConnectionError).
  EndedRun report() const;
  /// A data plane went away (`what`) outside this fleet's own calls: the others are
  /// stopped, their reports kept for report().
  void stop_after_loss(const std::string& what) noexcept;
  /// What went away, once one did ("" before).
  const std::string& lost() const noexcept { return lost_; }
  const std::vector<FleetEngine>& engines() const noexcept { return engines_; }
  /// The instant the last start asked for (UTC, ns).
  int64_t start_utc_ns() const noexcept { return start_at_; }
  /// The data plane's own plan of the next run (run.plan), as sent.
  nlohmann::json plan_json(size_t engine);

 private:
  EngineFleet() = default;
  /// Stops the data planes `stopping` together, each on a thread of its own, the others
  /// renewing their lease meanwhile; each one's failure (null: stopped, its report kept).
  std::vector<std::exception_ptr> stop_group(const std::vector<size_t>& stopping);
  /// Stops the data planes that send (or those that only receive) together.
  void stop_together(bool senders);
  /// Every data plane not yet stopped is stopped, its report kept; errors are swallowed
  /// (each is stopped or gone).
  void stop_the_rest() noexcept;
  /// Notes `what` went away, stops the rest, throws ConnectionError.
  [[noreturn]] void halt(const std::string& what);
  /// `call` on every data plane in turn; one that went away halts the run (halt).
  void on_every_engine(const std::function<void(FleetEngine&)>& call);
  /// What `read` answers of every data plane's ports, those the run uses only, each under
  /// the profile's name (its member `name`).
  template <typename Port>
  std::vector<Port> ports_used(const std::function<std::vector<Port>(FleetEngine&)>& read, std::string Port::*name);
  /// The profile's name of data plane `e`'s port; null for a port the run does not use.
  static const std::string* profile_name(const FleetEngine& e, const std::string& port);
  const FleetPlacement& placement(const std::string& port) const;

  std::vector<FleetEngine> engines_;
  std::map<std::string, FleetPlacement> placed_;
  std::vector<api::StreamSpec> streams_;  ///< as loaded, by the profile's port names
  /// Each stream's latency between data planes, where it crosses (none: within one).
  std::vector<std::optional<LatencyAcross>> across_;
  std::string client_name_;
  std::optional<api::RunSpec> run_settings_;  ///< for loads that give none
  int64_t start_at_ = 0;
  int64_t lease_ms_ = 10000;  ///< each run ends by itself once we are silent this long
  std::string lost_;
  std::vector<std::string> unstopped_;  ///< data planes stopped after a loss that gave no report, and why
};

}  // namespace lr::ctl
