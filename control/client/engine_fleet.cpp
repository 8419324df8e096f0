#include "control/client/engine_fleet.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <stdexcept>
#include <thread>

#include "control/client/fleet_report.hpp"
#include "control/client/host_client.hpp"
#include "control/client/stop_signal.hpp"
#include "lib/profile/device_spec_json.hpp"

namespace lr::ctl {

using nlohmann::json;

namespace {

// The least time between asking the data planes to start and the instant they start at.
constexpr int64_t kMinStartMarginNs = 100'000'000;

int64_t utc_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

FleetEngine connect_engine(const std::string& address, const DataplaneAddress& options, const std::string& name) {
  FleetEngine e;
  e.address = address;
  e.client = std::make_unique<DataplaneClient>(engine_address(options, address));
  const int64_t before = utc_now_ns();
  e.hello = e.client->hello(name);
  const int64_t after = utc_now_ns();
  e.rtt_ns = after - before;
  e.offset_ns = e.hello.at("clock").at("utc_ns").get<int64_t>() - (before + after) / 2;
  return e;
}

std::vector<std::string> map_names(const LocationMap& map) {
  std::vector<std::string> names;
  for (const auto& [name, endpoint] : map) names.push_back(name);
  return names;
}

std::vector<std::string> port_names(const FleetEngine& e) {
  std::vector<std::string> names;
  for (const json& p : e.hello.at("ports")) names.push_back(p.at("name").get<std::string>());
  return names;
}

// Stream `s` as data plane `e` takes it: the sender's with its ports there; else received
// there (receive_only), on its RX port or, for its place in the order only, the first port.
api::StreamSpec stream_for(const api::StreamSpec& s, size_t e, const std::map<std::string, FleetPlacement>& placed,
                           const FleetEngine& engine) {
  api::StreamSpec out = s;
  const FleetPlacement& tx = placed.at(s.tx_port);
  const FleetPlacement* rx = s.rx_port ? &placed.at(*s.rx_port) : nullptr;
  if (tx.engine == e) {
    out.tx_port = tx.port;
    out.rx_port = rx != nullptr && rx->engine == e ? std::optional(rx->port) : std::nullopt;
    return out;
  }
  const std::string port =
      rx != nullptr && rx->engine == e ? rx->port : engine.hello.at("ports").at(0).at("name").get<std::string>();
  out.tx_port = port;
  out.rx_port = port;
  out.receive_only = true;
  out.eth_src_auto = false;
  out.eth_dst_auto = false;
  return out;
}

}  // namespace

std::unique_ptr<EngineFleet> EngineFleet::open(const std::vector<api::PortSpec>& ports, const DataplaneAddress& options,
                                               const LocationMap& names, const std::string& client_name,
                                               std::string& problem) {
  std::unique_ptr<EngineFleet> fleet(new EngineFleet());
  fleet->lease_ms_ = options.lease_ms;
  fleet->client_name_ = client_name;
  for (const api::PortSpec& port : ports) {
    const size_t semicolon = port.location.find(';');
    std::string address = port.location.substr(0, semicolon);
    const std::string name = port.location.substr(semicolon + 1);
    if (const auto mapped = names.find(address); mapped != names.end()) {
      address = mapped->second;
    } else if (std::string host, number; !split_engine_address(address, host, number)) {
      problem = fmt::format("port '{}' (location \"{}\"): '{}' is not HOST:PORT, and no --locations entry names it{}",
                            port.name, port.location, address,
                            names.empty() ? "" : fmt::format(" (it names {})", fmt::join(map_names(names), ", ")));
      return nullptr;
    }
    auto& engines = fleet->engines_;
    auto it = std::find_if(engines.begin(), engines.end(), [&](const FleetEngine& e) { return e.address == address; });
    if (it == engines.end()) it = engines.insert(engines.end(), connect_engine(address, options, client_name));
    if (const std::vector<std::string> there = port_names(*it);
        std::find(there.begin(), there.end(), name) == there.end()) {
      problem = fmt::format("port '{}' (location \"{}\"): the data plane at {} has no port '{}' (it has {})", port.name,
                            port.location, address, name, fmt::join(there, ", "));
      return nullptr;
    }
    fleet->placed_[port.name] = {static_cast<size_t>(it - engines.begin()), name};
    it->profile_names[name] = port.name;
  }
  return fleet;
}

const FleetPlacement& EngineFleet::placement(const std::string& port) const {
  const auto it = placed_.find(port);
  if (it == placed_.end()) throw std::invalid_argument(fmt::format("no port '{}' among the locations", port));
  return it->second;
}

api::RunSpec EngineFleet::load(const std::vector<api::StreamSpec>& streams, const std::string& path,
                               const std::optional<api::RunSpec>& run) {
  for (const api::StreamSpec& s : streams) {
    placement(s.tx_port);
    if (s.rx_port) placement(*s.rx_port);
  }
  // Each clock as it is now: whether latency between two is measured, and the shift that
  // puts one's stamps on the other's clock, hold from this run's start.
  for (FleetEngine& e : engines_) e.hello = e.client->hello(client_name_);
  streams_ = streams;  // with across_, together: report() reads both
  across_.assign(streams.size(), std::nullopt);
  for (size_t i = 0; i < streams.size(); ++i) {
    if (!streams[i].rx_port) continue;
    const FleetEngine& from = engines_[placed_.at(streams[i].tx_port).engine];
    const FleetEngine& to = engines_[placed_.at(*streams[i].rx_port).engine];
    if (&from != &to)
      across_[i] = latency_across(from.hello.at("clock"), from.address, to.hello.at("clock"), to.address);
  }
  std::optional<api::RunSpec> in_force;
  for (size_t e = 0; e < engines_.size(); ++e) {
    FleetEngine& engine = engines_[e];
    std::vector<api::StreamSpec> theirs;  // every stream of the run, as this data plane takes it
    engine.sends = false;
    for (size_t i = 0; i < streams.size(); ++i) {
      theirs.push_back(stream_for(streams[i], e, placed_, engine));
      api::StreamSpec& mine = theirs.back();
      if (across_[i] && across_[i]->measured && mine.receive_only && mine.rx_port &&
          placed_.at(*streams[i].rx_port).engine == e)
        mine.latency_shift_ns = across_[i]->shift_ns;
      engine.sends = engine.sends || !mine.receive_only;
    }
    const api::RunSpec settings = RunClient(*engine.client).load(theirs, path, run ? run : run_settings_);
    if (!in_force) in_force = settings;
  }
  return in_force.value_or(api::RunSpec{});
}

json EngineFleet::plan_json(size_t engine) { return RunClient(*engines_.at(engine).client).plan_json(); }

void EngineFleet::start(const std::vector<std::string>& streams) {
  int64_t latest = utc_now_ns();
  int64_t worst_rtt = 0;
  for (const FleetEngine& e : engines_) {
    latest = std::max(latest, utc_now_ns() + e.offset_ns);
    worst_rtt = std::max(worst_rtt, e.rtt_ns);
  }
  // Ahead of the latest clock by 4 round trips, and never less than the margin.
  start_at_ = latest + std::max(kMinStartMarginNs, 4 * worst_rtt);
  for (FleetEngine& e : engines_) {
    e.ended.reset();
    e.clock_after = nullptr;
  }
  lost_.clear();  // a run after one a loss ended (every data plane serving again)
  unstopped_.clear();
  for (FleetEngine& e : engines_) {
    try {
      RunClient(*e.client).start_json({streams, {}, start_at_, lease_ms_});
    } catch (const ConnectionError& error) {
      halt(fmt::format("the data plane at {}: {}", e.address, error.what()));
    }
  }
}

void EngineFleet::on_every_engine(const std::function<void(FleetEngine&)>& call) {
  for (FleetEngine& e : engines_) {
    try {
      if (e.client->hung_up()) throw ConnectionError("it hung up");
      call(e);
    } catch (const ConnectionError& error) {
      halt(fmt::format("the data plane at {}: {}", e.address, error.what()));
    }
  }
}

std::chrono::milliseconds EngineFleet::ask_every() const {
  return std::chrono::milliseconds(std::clamp<int64_t>(lease_ms_ / 4, 10, 1000));
}

bool EngineFleet::all_sent() {
  bool sent = true;
  on_every_engine([&sent](FleetEngine& e) {
    if (!RunClient(*e.client).status().tx_finished && e.sends) sent = false;
  });
  return sent;
}

bool EngineFleet::wait_until_sent(std::chrono::milliseconds poll, const std::function<void()>& each_poll) {
  while (!stop_requested()) {
    if (all_sent()) return true;
    if (each_poll) each_poll();
    std::this_thread::sleep_for(poll);
  }
  return false;
}

void EngineFleet::hold(const std::string& stream, bool held) {
  const auto s =
      std::find_if(streams_.begin(), streams_.end(), [&](const api::StreamSpec& x) { return x.name == stream; });
  if (s == streams_.end()) throw std::invalid_argument(fmt::format("no stream '{}' in the run", stream));
  FleetEngine& sender = engines_[placement(s->tx_port).engine];
  try {
    RunClient(*sender.client).hold(stream, held);
  } catch (const ConnectionError& error) {
    halt(fmt::format("the data plane at {}: {}", sender.address, error.what()));
  }
}

EndedRun EngineFleet::stop() {
  for (const bool senders : {true, false}) stop_together(senders);
  // Each clock once more: how far it drifted over the run widens the latency's bound.
  for (FleetEngine& e : engines_) {
    e.clock_after = nullptr;
    try {
      e.clock_after = e.client->hello(client_name_).at("clock");
    } catch (const std::exception&) {  // unread: latency across it is withheld, saying so
    }
  }
  return report();
}

std::vector<std::exception_ptr> EngineFleet::stop_group(const std::vector<size_t>& stopping) {
  std::vector<std::exception_ptr> failed(engines_.size());
  std::vector<bool> in_group(engines_.size(), false);
  for (const size_t i : stopping) in_group[i] = true;
  std::atomic<size_t> left{stopping.size()};
  std::vector<std::thread> threads;
  threads.reserve(stopping.size());
  for (const size_t i : stopping)  // each on its own connection: the threads share nothing
    threads.emplace_back([this, i, &failed, &left] {
      RunClient run(*engines_[i].client);
      try {
        engines_[i].ended = run.stop();
      } catch (const RpcCallError&) {
        // Ended already, or ending (its lease ran out while we were held up): the report it
        // keeps of this run, once there (its start is this run's instant).
        failed[i] = std::current_exception();
        for (int tries = 0; tries < 100 && failed[i]; ++tries) {
          try {
            json kept = run.last_report_json();
            api::RunReport typed = api::run_report_from_json(kept);
            if (typed.start && typed.start->asked_utc_ns == start_at_) {
              engines_[i].ended = EndedRun{std::move(kept), std::move(typed)};
              failed[i] = nullptr;
            }
          } catch (const RpcCallError&) {  // none kept yet
          } catch (...) {
            failed[i] = std::current_exception();
            break;
          }
          if (failed[i]) std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
      } catch (...) {
        failed[i] = std::current_exception();
      }
      --left;
    });
  // Their drains take a while: the others hear from us meanwhile, which renews their lease.
  const auto every = std::chrono::milliseconds(std::clamp<int64_t>(lease_ms_ / 4, 1, 100));
  while (left > 0) {
    for (size_t i = 0; i < engines_.size(); ++i)
      if (!in_group[i] && !engines_[i].ended && engines_[i].client->connected()) try {
          RunClient(*engines_[i].client).status();
        } catch (const std::exception&) {  // said when it is stopped
        }
    std::this_thread::sleep_for(every);
  }
  for (std::thread& t : threads) t.join();
  return failed;
}

void EngineFleet::stop_together(bool senders) {
  std::vector<size_t> stopping;
  for (size_t i = 0; i < engines_.size(); ++i)
    if (engines_[i].sends == senders && !engines_[i].ended) stopping.push_back(i);
  const std::vector<std::exception_ptr> failed = stop_group(stopping);
  for (const size_t i : stopping) {
    if (!failed[i]) continue;
    try {
      std::rethrow_exception(failed[i]);
    } catch (const ConnectionError& error) {
      halt(fmt::format("the data plane at {}: {}", engines_[i].address, error.what()));
    } catch (...) {
      stop_the_rest();
      throw;
    }
  }
}

void EngineFleet::stop_the_rest() noexcept {
  // As a stop does: senders first, each group together, so that what was sent between the
  // data planes that stay has arrived when their receivers drain.
  for (const bool senders : {true, false}) {
    try {
      std::vector<size_t> stopping;
      for (size_t i = 0; i < engines_.size(); ++i)
        if (engines_[i].sends == senders && !engines_[i].ended && engines_[i].client->connected())
          stopping.push_back(i);
      const std::vector<std::exception_ptr> failed = stop_group(stopping);
      for (const size_t i : stopping) {
        if (!failed[i]) continue;
        try {
          std::rethrow_exception(failed[i]);
        } catch (const std::exception& error) {  // stopped or gone: either way it sends no more; said
          unstopped_.push_back(
              fmt::format("the data plane at {} did not give its report: {}", engines_[i].address, error.what()));
        }
      }
    } catch (...) {  // out of memory or threads: what is not stopped ends with its lease
    }
  }
}

void EngineFleet::stop_after_loss(const std::string& what) noexcept {
  if (!lost_.empty()) return;  // stopped once: each further call finds the same loss
  try {
    lost_ = what;
  } catch (...) {  // unsaid for want of memory: the rest is stopped all the same
  }
  stop_the_rest();
}

void EngineFleet::halt(const std::string& what) {
  stop_after_loss(what);
  throw ConnectionError(what);
}

EndedRun EngineFleet::report() const {
  EndedRun ended = fleet_report(streams_, engines_, placed_, across_, start_at_);
  if (!lost_.empty()) {
    ended.report.interrupted_by = fmt::format("a data plane went away: {}{}{}", lost_, unstopped_.empty() ? "" : "; ",
                                              fmt::join(unstopped_, "; "));
    ended.json["interrupted_by"] = *ended.report.interrupted_by;
  }
  return ended;
}

api::LatencyHistogram EngineFleet::histogram(const std::string& stream) {
  const auto s =
      std::find_if(streams_.begin(), streams_.end(), [&](const api::StreamSpec& x) { return x.name == stream; });
  if (s == streams_.end() || !s->rx_port) return {};
  const FleetPlacement& rx = placement(*s->rx_port);
  const auto& across = across_.at(static_cast<size_t>(s - streams_.begin()));
  if (across && !across->measured) return {};  // latency between these two data planes is withheld
  return RunClient(*engines_[rx.engine].client).histogram(stream);
}

const std::string* EngineFleet::profile_name(const FleetEngine& e, const std::string& port) {
  const auto name = e.profile_names.find(port);
  return name == e.profile_names.end() ? nullptr : &name->second;
}

template <typename Port>
std::vector<Port> EngineFleet::ports_used(const std::function<std::vector<Port>(FleetEngine&)>& read,
                                          std::string Port::*name) {
  std::vector<Port> out;
  on_every_engine([&](FleetEngine& e) {
    for (Port& port : read(e))
      if (const std::string* ours = profile_name(e, port.*name)) {  // else a port the run does not use
        port.*name = *ours;
        out.push_back(std::move(port));
      }
  });
  return out;
}

std::vector<api::PortReport> EngineFleet::ports() {
  return ports_used<api::PortReport>([](FleetEngine& e) { return RunClient(*e.client).ports(); },
                                     &api::PortReport::name);
}

std::vector<api::StreamReport> EngineFleet::stream_stats() {
  std::vector<std::vector<api::StreamReport>> live;
  on_every_engine([&live](FleetEngine& e) { live.push_back(RunClient(*e.client).stream_stats()); });
  return fleet_stream_stats(streams_, engines_, placed_, across_, live);
}

std::vector<api::PortTraffic> EngineFleet::port_traffic() {
  return ports_used<api::PortTraffic>([](FleetEngine& e) { return RunClient(*e.client).port_traffic(); },
                                      &api::PortTraffic::name);
}

std::vector<api::PortReport> EngineFleet::port_stats() {
  return ports_used<api::PortReport>([](FleetEngine& e) { return RunClient(*e.client).port_stats(); },
                                     &api::PortReport::name);
}

std::vector<api::PortNeighbors> EngineFleet::neighbors() {
  return ports_used<api::PortNeighbors>([](FleetEngine& e) { return HostClient(*e.client).neighbors(); },
                                        &api::PortNeighbors::port);
}

PortPlace EngineFleet::place_of(const std::string& port) {
  const FleetPlacement& at = placement(port);
  return {engines_[at.engine].client.get(), at.port};
}

void EngineFleet::set_port(const std::string& port, const PortConfigChange& change) {
  const FleetPlacement& at = placement(port);
  PortClient(*engines_[at.engine].client).set_config_json(at.port, change);
}

void EngineFleet::set_link(const std::string& port, bool up) {
  const FleetPlacement& at = placement(port);
  PortClient(*engines_[at.engine].client).set_link_up(at.port, up);
}

void EngineFleet::load_devices(const std::vector<api::DeviceSpec>& devices, const std::string& path) {
  for (size_t e = 0; e < engines_.size(); ++e) {
    std::vector<api::DeviceSpec> theirs;  // the hosts on its ports, by its names; none: its hosts removed
    for (api::DeviceSpec d : devices) {
      const FleetPlacement& at = placement(d.first.port);
      if (at.engine != e) continue;
      d.first.port = at.port;
      theirs.push_back(std::move(d));
    }
    HostClient(*engines_[e].client).load_devices(profile::to_json(theirs), path);
  }
}

}  // namespace lr::ctl
