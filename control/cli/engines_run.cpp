#include "control/cli/engines_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "control/client/dataplane_client.hpp"
#include "control/client/location_map.hpp"
#include "control/client/run_client.hpp"
#include "control/client/stop_signal.hpp"
#include "control/command/exit_codes.hpp"
#include "lib/api/run_report.hpp"
#include "lib/views/run_views.hpp"

namespace lr::ctl {

using nlohmann::json;

namespace {

// The least time between asking the data planes to start and the instant they start at.
constexpr int64_t kMinStartMarginNs = 100'000'000;

int64_t utc_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// One data plane of the run.
// NOLINTBEGIN(bugprone-exception-escape): clang-tidy 16 reports this aggregate's implicit members; they throw only
// std::bad_alloc, as any copy of a container does
struct Engine {
  std::string address;  ///< HOST:PORT, as the locations name it
  std::unique_ptr<DataplaneClient> client;
  json hello;
  int64_t rtt_ns = 0;
  int64_t offset_ns = 0;  ///< its clock minus ours, at hello
  std::map<std::string, std::string> profile_names;  ///< its port names -> the profile's
  bool sends = false;
  std::optional<EndedRun> ended;
};
// NOLINTEND(bugprone-exception-escape)

// A profile port: which data plane holds it, and its name there.
struct Placement {
  size_t engine = 0;
  std::string port;
};

Engine connect_engine(const std::string& address, const DataplaneAddress& options) {
  Engine e;
  e.address = address;
  DataplaneAddress where;
  where.engine = address;
  where.tls = options.tls;
  where.named = true;
  e.client = std::make_unique<DataplaneClient>(where);
  const int64_t before = utc_now_ns();
  e.hello = e.client->hello("linerate-run");
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

// The data planes the locations name, in the order of the ports, and where each port is;
// "" or what is wrong (a port the data plane does not have).
std::string place_ports(const profile::Profile& profile, const DataplaneAddress& options, const LocationMap& names_map,
                        std::vector<Engine>& engines, std::map<std::string, Placement>& placed) {
  for (const api::PortSpec& port : profile.ports) {
    const size_t semicolon = port.location.find(';');
    std::string address = port.location.substr(0, semicolon);
    const std::string name = port.location.substr(semicolon + 1);
    if (const auto mapped = names_map.find(address); mapped != names_map.end()) {
      address = mapped->second;
    } else if (std::string host, number; !split_engine_address(address, host, number)) {
      return fmt::format("port '{}' (location \"{}\"): '{}' is not HOST:PORT, and no --locations entry names it{}",
                         port.name, port.location, address,
                         names_map.empty() ? "" : fmt::format(" (it names {})", fmt::join(map_names(names_map), ", ")));
    }
    auto it = std::find_if(engines.begin(), engines.end(), [&](const Engine& e) { return e.address == address; });
    if (it == engines.end()) it = engines.insert(engines.end(), connect_engine(address, options));
    std::vector<std::string> names;
    for (const json& p : it->hello.at("ports")) names.push_back(p.at("name").get<std::string>());
    if (std::find(names.begin(), names.end(), name) == names.end())
      return fmt::format("port '{}' (location \"{}\"): the data plane at {} has no port '{}' (it has {})", port.name,
                         port.location, address, name, fmt::join(names, ", "));
    placed[port.name] = {static_cast<size_t>(it - engines.begin()), name};
    it->profile_names[name] = port.name;
  }
  return "";
}

// Stream `s` as data plane `e` takes it: the sender's with its ports there; else received
// there (receive_only), on its RX port or, for its place in the order only, the first port.
api::StreamSpec stream_for(const api::StreamSpec& s, size_t e, const std::map<std::string, Placement>& placed,
                           const Engine& engine) {
  api::StreamSpec out = s;
  const Placement& tx = placed.at(s.tx_port);
  const Placement* rx = s.rx_port ? &placed.at(*s.rx_port) : nullptr;
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

// Stream i of the run: what was sent from its sender's report, what arrived from its
// receiver's, the loss from both.
api::StreamReport merged_stream(size_t i, const api::StreamSpec& s, const std::vector<Engine>& engines,
                                const std::map<std::string, Placement>& placed) {
  const auto report_of = [&](const std::string& port) -> const api::StreamReport* {
    const Engine& e = engines[placed.at(port).engine];
    return e.ended && i < e.ended->report.streams.size() ? &e.ended->report.streams[i] : nullptr;
  };
  api::StreamReport r;
  if (const api::StreamReport* sent = report_of(s.tx_port)) r = *sent;
  r.name = s.name;
  r.tx_port = s.tx_port;
  r.rx_port = s.rx_port;
  if (!s.rx_port) return r;
  const api::StreamReport* got = report_of(*s.rx_port);
  if (got == nullptr) {
    r.rx_unknown = fmt::format("the data plane at {} that received it went away: what arrived is not known",
                               engines[placed.at(*s.rx_port).engine].address);
    return r;
  }
  r.rx_packets = got->rx_packets;
  r.rx_bytes = got->rx_bytes;
  r.duplicate = got->duplicate;
  r.out_of_order = got->out_of_order;
  r.late = got->late;
  r.beyond_window = got->beyond_window;
  r.misdelivered = got->misdelivered;
  r.latency = got->latency;
  r.latency_withheld = got->latency_withheld;
  if (const size_t from = placed.at(s.tx_port).engine, to = placed.at(*s.rx_port).engine; from != to)
    r.latency_withheld = fmt::format(
        "sent by the data plane at {}, received by the one at {}: one-way latency between "
        "data planes needs their clocks on one PTP grandmaster, which linerate does not "
        "read yet",
        engines[from].address, engines[to].address);
  r.ecn = got->ecn;
  r.receive_only = false;
  r.lost = api::lost_frames(r.tx_packets, r.rx_packets, r.duplicate);
  if (r.timeline && got->timeline) r.timeline->rx = got->timeline->rx;  // each side's bins, from one instant
  return r;
}

// The run's one report: the streams joined across data planes, every data plane's ports
// (by the profile's names), lcores and warnings, and a section per data plane.
EndedRun merged_report(const profile::Profile& profile, const std::vector<Engine>& engines,
                       const std::map<std::string, Placement>& placed, int64_t at_utc_ns) {
  api::RunReport merged;
  merged.start = api::RunStart{at_utc_ns, at_utc_ns, std::nullopt, 0};
  json sections = json::array();
  std::vector<int64_t> firsts;
  for (const Engine& e : engines) {
    json section{
        {"engine", e.address}, {"node", e.hello.value("node", "")}, {"version", e.hello.value("version", "")},
        {"rtt_ns", e.rtt_ns},  {"clock_offset_ns", e.offset_ns},    {"clock", e.hello.value("clock", json::object())}};
    if (!e.ended) {
      section["report"] = nullptr;
      sections.push_back(std::move(section));
      continue;
    }
    const api::RunReport& r = e.ended->report;
    if (merged.started_at.empty() || r.started_at < merged.started_at) merged.started_at = r.started_at;
    merged.duration_s = std::max(merged.duration_s, r.duration_s);
    merged.interrupted = merged.interrupted || r.interrupted;
    merged.mbufs_not_returned += r.mbufs_not_returned;
    for (api::PortReport port : r.ports) {
      const auto name = e.profile_names.find(port.name);
      port.name = name != e.profile_names.end() ? name->second : e.address + ";" + port.name;
      merged.ports.push_back(std::move(port));
    }
    merged.lcores.insert(merged.lcores.end(), r.lcores.begin(), r.lcores.end());
    merged.switches.insert(merged.switches.end(), r.switches.begin(), r.switches.end());
    for (const std::string& warning : r.warnings) merged.warnings.push_back(e.address + ": " + warning);
    if (r.start) {
      section["start"] = api::to_json(*r.start);
      merged.start->tsc_utc_error_ns = std::max(merged.start->tsc_utc_error_ns, r.start->tsc_utc_error_ns);
      if (e.sends && r.start->first_tx_utc_ns) firsts.push_back(*r.start->first_tx_utc_ns);
    }
    sections.push_back(std::move(section));
  }
  if (!firsts.empty()) merged.start->first_tx_utc_ns = *std::min_element(firsts.begin(), firsts.end());
  for (size_t i = 0; i < profile.streams.size(); ++i)
    merged.streams.push_back(merged_stream(i, profile.streams[i], engines, placed));
  EndedRun out{api::to_json(merged), merged};
  out.json["engines"] = std::move(sections);
  out.json["start_spread_ns"] =
      firsts.size() < 2
          ? json(nullptr)
          : json(*std::max_element(firsts.begin(), firsts.end()) - *std::min_element(firsts.begin(), firsts.end()));
  // Each data plane began at the instant on its own clock: as close as the clocks agree,
  // which PTP vouches for only when every one follows the same grandmaster.
  std::set<std::string> grandmasters;
  bool all_locked = true;
  for (const Engine& e : engines) {
    const json clock = e.hello.value("clock", json::object());
    all_locked = all_locked && clock.value("synchronised", false);
    if (clock.contains("ptp") && clock["ptp"].is_object())
      grandmasters.insert(clock["ptp"].value("gm_identity", std::string()));
  }
  const bool synchronised = all_locked && grandmasters.size() == 1;
  out.json["start_synchronised"] = synchronised;
  if (!all_locked)
    out.json["start_note"] =
        "best effort: the data planes' clocks are not known to follow one PTP grandmaster, so "
        "their first frames are as close as their clocks agree";
  else if (!synchronised)
    out.json["start_note"] =
        fmt::format("best effort: the data planes follow different grandmasters ({})", fmt::join(grandmasters, ", "));
  return out;
}

// Traffic from every data plane until each has sent all (or a stop request), every data
// plane watched meanwhile (one that goes away ends the run: a ConnectionError), then each
// stopped: the senders first, so that what they sent has arrived when the receivers drain.
void run_engines(std::vector<Engine>& engines, int64_t at_utc_ns) {
  for (Engine& e : engines) RunClient(*e.client).start_json({{}, {}, at_utc_ns});
  while (!stop_requested()) {
    bool sent = true;
    for (Engine& e : engines) {
      if (e.client->hung_up()) throw ConnectionError(fmt::format("the data plane at {} hung up", e.address));
      if (e.sends && !RunClient(*e.client).status().tx_finished) sent = false;
    }
    if (sent) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  for (const bool senders : {true, false})
    for (Engine& e : engines)
      if (e.sends == senders) e.ended = RunClient(*e.client).stop();
}

}  // namespace

bool has_locations(const profile::Profile& profile) {
  return std::any_of(profile.ports.begin(), profile.ports.end(),
                     [](const api::PortSpec& p) { return !p.location.empty(); });
}

int run_over_engines(const profile::Profile& profile, const RunOptions& options) {
  for (const api::PortSpec& port : profile.ports)
    if (port.location.empty()) {
      std::fprintf(stderr,
                   "linerate: port '%s' is a device of this host, beside ports of other data planes "
                   "(location): give it a location too (this host's data plane serving --listen)\n",
                   port.name.c_str());
      return 2;
    }
  if (!profile.devices.empty() || !profile.switches.empty() || !profile.captures.empty()) {
    std::fprintf(stderr,
                 "linerate: emulated hosts ([[device]]), switches and captures are not run over several data "
                 "planes yet: run them on each data plane's own profile\n");
    return 2;
  }
  LocationMap names_map;
  if (!options.locations_path.empty()) {
    auto read = read_location_map(options.locations_path);
    if (!read) {
      std::fprintf(stderr, "linerate: %s\n", read.error().context.c_str());
      return 2;
    }
    names_map = std::move(*read);
  }
  std::vector<Engine> engines;
  std::map<std::string, Placement> placed;
  if (const std::string problem = place_ports(profile, options.dataplane, names_map, engines, placed);
      !problem.empty()) {
    std::fprintf(stderr, "linerate: %s\n", problem.c_str());
    return 2;
  }
  int64_t latest = utc_now_ns();
  int64_t worst_rtt = 0;
  for (size_t e = 0; e < engines.size(); ++e) {
    Engine& engine = engines[e];
    std::vector<api::StreamSpec> streams;  // every stream of the run, as this data plane takes it
    for (const api::StreamSpec& s : profile.streams) {
      streams.push_back(stream_for(s, e, placed, engine));
      engine.sends = engine.sends || !streams.back().receive_only;
    }
    RunClient run(*engine.client);
    run.load(streams, options.profile_path, profile.run);
    if (!options.as_json)
      std::printf("data plane %s (%s, linerate-dataplane %s):\n%s", engine.address.c_str(),
                  engine.hello.value("node", "").c_str(), engine.hello.value("version", "").c_str(),
                  views::plan_text(api::run_plan_from_json(run.plan_json())).c_str());
    latest = std::max(latest, utc_now_ns() + engine.offset_ns);
    worst_rtt = std::max(worst_rtt, engine.rtt_ns);
  }
  if (options.plan_only) return 0;
  std::fflush(stdout);
  catch_stop_signals();
  // Ahead of the latest clock by 4 round trips, and never less than the margin.
  const int64_t at = latest + std::max(kMinStartMarginNs, 4 * worst_rtt);
  std::optional<std::string> lost;
  try {
    run_engines(engines, at);
  } catch (const ConnectionError& error) {
    lost = error.what();
    for (Engine& e : engines) {  // the others' counts are still theirs to give
      if (e.ended) continue;
      try {
        e.ended = RunClient(*e.client).stop();
      } catch (const std::exception&) {
      }
    }
  }
  EndedRun ended = merged_report(profile, engines, placed, at);
  if (lost) ended.report.interrupted_by = fmt::format("a data plane went away: {}", *lost);
  if (lost) ended.json["interrupted_by"] = *ended.report.interrupted_by;
  const int code = show_report(options, ended);
  return code != 0 ? code : lost ? kExitDataplaneLost : 0;
}

}  // namespace lr::ctl
