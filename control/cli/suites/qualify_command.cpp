#include "control/cli/suites/qualify_command.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <set>

#include "control/cli/engines_run.hpp"
#include "control/cli/module_command.hpp"
#include "control/cli/profile_dataplane.hpp"
#include "control/cli/profile_file.hpp"
#include "control/client/fleet_report.hpp"
#include "control/client/port_client.hpp"
#include "control/client/run_client.hpp"
#include "control/client/run_target.hpp"
#include "control/client/stop_signal.hpp"
#include "control/command/exit_codes.hpp"
#include "control/reports/hand_over.hpp"
#include "control/suites/optics/ber_claim.hpp"
#include "control/suites/optics/qualify_report.hpp"
#include "control/suites/optics/qualify_section.hpp"
#include "control/views/qualify_html.hpp"
#include "lib/api/run_report.hpp"
#include "lib/common/utc_time.hpp"
#include "lib/profile/load_toml.hpp"
#include "lib/profile/quantity.hpp"
#include "lib/views/report_file.hpp"

namespace lr::optics {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

// "2026-12-01T11:22:33.456Z" as a system_clock time; nullopt when it is not one.
std::optional<std::chrono::system_clock::time_point> parse_utc(const std::string& text) {
  std::tm tm{};
  int millis = 0;
  if (std::sscanf(text.c_str(), "%d-%d-%dT%d:%d:%d.%dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
                  &tm.tm_sec, &millis) < 6)
    return std::nullopt;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return std::chrono::system_clock::from_time_t(timegm(&tm)) + std::chrono::milliseconds(millis);
}

// The lane count of the link's mode at its speed, when the modes agree on one.
unsigned link_lanes(const api::LinkReport& link) {
  std::set<unsigned> lanes;
  const std::string speed = std::to_string(link.speed_mbps) + "base";
  for (const std::vector<std::string>* modes : {&link.advertised, &link.supported}) {
    for (const std::string& mode : *modes)
      if (mode.starts_with(speed)) lanes.insert(lanes_of_link_mode(mode));
    if (!lanes.empty()) break;
  }
  return lanes.size() == 1 ? *lanes.begin() : 0;
}

class QualifyRun {
 public:
  QualifyRun(ctl::RunTarget& target, const optics::QualifyCfg& cfg, std::vector<std::string> ports)
      : target_(target), cfg_(cfg) {
    for (std::string& p : ports) {
      evidence_.emplace_back();
      evidence_.back().port = std::move(p);
    }
  }

  std::vector<PortEvidence>& evidence() noexcept { return evidence_; }

  // Before the traffic: FEC set if asked, then the module, link and FEC as the port has them.
  void read_before(json& fec_set) {
    for (PortEvidence& e : evidence_) {
      auto [ports, name] = at(e.port);
      if (cfg_.set_fec) {
        try {
          const std::optional<std::string> active = ports.set_fec(name, cfg_.fec).active;
          fec_set[e.port] = active ? json(*active) : json(nullptr);
        } catch (const ctl::RpcCallError& error) {
          fec_set[e.port] = std::string("refused: ") + error.what();
        }
      }
      read_module(e);
      const api::LinkReport link = ports.link(name);
      e.link_up = link.up;
      e.speed_bps = uint64_t{link.speed_mbps} * 1'000'000;
      e.lanes = link_lanes(link);
      try {
        const api::FecReport fec = ports.fec(name);
        if (fec.active) e.fec_active = *fec.active;
        else e.fec_error = "the port reports no active FEC mode";
      } catch (const ctl::RpcCallError& error) {
        e.fec_error = error.what();
      }
    }
  }

  // One sample of every port: its counters, link and module monitors.
  void sample(double t_s) {
    for (PortEvidence& e : evidence_) {
      auto [ports, name] = at(e.port);
      QualifySample s;
      s.t_s = t_s;
      s.counters = canonical_counters(ports.counters(name));
      const api::LinkReport link = ports.link(name);
      s.link_up = link.up;
      s.speed_mbps = link.speed_mbps;
      if (e.module) {
        try {
          s.monitors = module_monitors(decode(e));
        } catch (const std::exception&) {
          // A module that stops answering mid-run: this sample has no monitors, the run goes on.
        }
      }
      e.samples.push_back(std::move(s));
    }
  }

  // After the traffic: frame counts per receiving port and the link drops the poll saw.
  void read_after(const api::RunReport& run, std::chrono::system_clock::time_point traffic_start) {
    // The tester's longest stall while the traffic ran: its RX rings may have overflowed.
    const api::LcoreStall held = api::longest_stall_within(run.lcores, 0, run.duration_s).value_or(api::LcoreStall{});
    for (PortEvidence& e : evidence_) {
      e.tester_stall_us = held.stall.us;
      e.tester_stall_at_s = held.stall.from_s;
      e.tester_stall_lcore = held.lcore;
      for (const api::PortReport& p : run.ports)
        if (p.name == e.port) e.rx_missed = p.counters.imissed + p.counters.rx_nombuf;
      for (const api::StreamReport& s : run.streams) {
        if (s.rx_port != e.port) continue;
        ++e.streams_received;
        e.frames_sent += s.tx_packets;
        e.frames_received += s.rx_packets;
        e.frames_lost += s.lost;
        e.target_pps += s.target_pps;
        e.achieved_pps += s.tx_pps_achieved;
      }
      auto [ports, name] = at(e.port);
      for (const api::LinkEventReport& event : ports.link_history(name)) {
        const auto at = parse_utc(event.at);
        if (event.up || !at || *at < traffic_start) continue;
        e.link_drops.push_back({std::chrono::duration<double>(*at - traffic_start).count(), event.at, "link poll"});
      }
    }
  }

 private:
  void read_module(PortEvidence& e) {
    try {
      e.module = decode(e);
    } catch (const ctl::RpcCallError& error) {
      e.module_error = error.what();
    } catch (const module::DecodeError& error) {
      e.module_error = std::string("the EEPROM does not decode: ") + error.what();
    }
  }

  module::DecodedModule decode(const PortEvidence& e) {
    auto [ports, name] = at(e.port);
    return module::decode_module(ports.module_eeprom(name).bytes);
  }

  // The port's controls on the data plane that holds it, and its name there.
  std::pair<ctl::PortClient, std::string> at(const std::string& port) {
    const ctl::PortPlace place = target_.place_of(port);
    return {ctl::PortClient(*place.dataplane), place.name};
  }

  ctl::RunTarget& target_;
  const optics::QualifyCfg& cfg_;
  std::vector<PortEvidence> evidence_;
};

class QualifyReport {
 public:
  QualifyReport(std::string dir, const std::string& profile_path) : dir_(std::move(dir)) {
    if (dir_.empty()) dir_ = fmt::format("qualify-{:%Y%m%dT%H%M%SZ}", fmt::gmtime(std::time(nullptr)));
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    problem_ = ec ? ec.message() : views::report_path_problem(path("report.json"));
    report_ = {{"schema", "linerate.optics-qualify/1"}, {"command", "optics qualify"}, {"profile", profile_path},
               {"started_at", utc_now_iso8601()},        {"interrupted", false},         {"ports", json::array()}};
  }
  const std::string& problem() const noexcept { return problem_; }
  const std::string& dir() const noexcept { return dir_; }
  std::string path(const char* file) const { return (std::filesystem::path(dir_) / file).string(); }
  json& json_() noexcept { return report_; }

  void update(const std::vector<PortEvidence>& evidence, const optics::QualifyCfg& cfg) {
    json ports = json::array();
    for (const PortEvidence& e : evidence) ports.push_back(port_result_json(e, judge_port(e, cfg)));
    report_["ports"] = std::move(ports);
    write("report.json", report_.dump(2) + "\n");
  }

  void finish(bool interrupted) {
    report_["finished_at"] = utc_now_iso8601();
    report_["interrupted"] = interrupted;
    write("report.json", report_.dump(2) + "\n");
    write("summary.csv", ctl::qualify_summary_csv(report_));
    write("report.html", ctl::qualify_html(report_));
  }

 private:
  void write(const char* file, const std::string& text) {
    if (const std::string failed = views::write_report_file(path(file), text); !failed.empty())
      std::fprintf(stderr, "linerate: writing '%s' failed: %s\n", path(file).c_str(), failed.c_str());
  }

  std::string dir_;
  std::string problem_;
  json report_;
};

// How long to run: the configured duration, or long enough for the BER claim.
std::pair<double, std::string> run_seconds(const optics::QualifyCfg& cfg, uint64_t slowest_bps) {
  if (cfg.duration_ns != 0) return {static_cast<double>(cfg.duration_ns) / 1e9, "configured"};
  const double cap = static_cast<double>(cfg.max_auto_duration_ns) / 1e9;
  if (slowest_bps == 0) return {cap, "auto, but no port says its speed: max_auto_duration"};
  const double needed = bits_for_claim(cfg.target_ber, cfg.confidence) / static_cast<double>(slowest_bps);
  const std::string why = fmt::format("auto: {:.0f} s claims BER < {:.1e} at {:g} % on {:g} Gb/s (about 3 / BER bits)",
                                      std::ceil(needed), cfg.target_ber, cfg.confidence * 100,
                                      static_cast<double>(slowest_bps) / 1e9);
  if (needed > cap)
    return {cap, why + fmt::format("; capped at max_auto_duration {:g} s, so the claim will not be reached", cap)};
  return {std::ceil(needed), why};
}

void print_verdicts(const json& report) {
  for (const optics::QualifiedPort& p : optics::qualified_ports_from_json(report)) {
    const size_t criteria = p.criteria.size();
    const size_t skipped = static_cast<size_t>(std::count_if(
        p.criteria.begin(), p.criteria.end(), [](const optics::Criterion& c) { return c.verdict == optics::Verdict::kSkipped; }));
    const std::string coverage =
        p.verdict == optics::Verdict::kIncomplete
            ? fmt::format(": not qualified, {} not measured ({} of {} criteria SKIPPED, see why below)",
                          fmt::join(p.unmeasured, ", "), skipped, criteria)
        : skipped == 0 ? ""
                       : fmt::format(" with {} of {} criteria SKIPPED (see why below)", skipped, criteria);
    std::printf("\nport %s: %s%s%s\n", p.port.c_str(), optics::verdict_name(p.verdict), coverage.c_str(),
                p.module ? fmt::format("  ({} {} s/n {})", p.module->vendor, p.module->part, p.module->serial).c_str() : "");
    std::printf("  %-18s %-8s %-44s %s\n", "criterion", "verdict", "measured", "bound");
    for (const optics::Criterion& c : p.criteria) {
      std::printf("  %-18s %-8s %-44s %s\n", c.name.c_str(), optics::verdict_name(c.verdict), c.measured.c_str(),
                  c.bound.c_str());
      if (c.verdict != optics::Verdict::kPass) std::printf("  %-18s %-8s   %s\n", "", "", c.note.c_str());
    }
  }
}

// Until `until` s (on `elapsed`), every data plane is asked how the run goes as often as
// the target wants: over several, each request renews that data plane's lease, those that
// hold no qualified port too; one that went away stops the others (ConnectionError).
void wait_asking(ctl::RunTarget& target, double until, const std::function<double()>& elapsed) {
  const double every = std::chrono::duration<double>(target.ask_every()).count();
  while (!ctl::stop_requested() && elapsed() < until) {
    ctl::sleep_unless_stopped(std::min(every, until - elapsed()));
    target.all_sent();
  }
}

// Samples every interval until `seconds`, or a stop request; then the run's end: stopped,
// drained, counted (loss is exact), and read into the evidence.
ctl::EndedRun sample_run(ctl::RunTarget& target, QualifyRun& run, QualifyReport& report, const optics::QualifyCfg& cfg,
                         double seconds, std::chrono::system_clock::time_point wall_start) {
  const auto start = Clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  run.sample(0);
  double next = static_cast<double>(cfg.interval_ns) / 1e9;
  while (!ctl::stop_requested()) {
    wait_asking(target, std::min(next, seconds), elapsed);
    if (ctl::stop_requested()) break;
    run.sample(elapsed());
    report.update(run.evidence(), cfg);
    const double t = elapsed();
    std::printf("\r  %.1f / %g s", t, seconds);
    std::fflush(stdout);
    if (t >= seconds) break;
    next += static_cast<double>(cfg.interval_ns) / 1e9;
  }
  std::printf("\n");
  std::fflush(stdout);
  ctl::EndedRun ended = target.stop();
  if (ctl::stop_requested()) run.sample(elapsed());  // the last interval counts too
  run.read_after(ended.report, wall_start);
  return ended;
}

// `streams`: the profile's at the qualification's load, with `run_settings` where given;
// none: the serving data plane's own (`serving`, then `target`'s one data plane).
int qualify(ctl::RunTarget& target, ctl::DataplaneClient* serving, const optics::QualifyCfg& cfg,
            const std::vector<std::string>& ports, const std::optional<std::vector<api::StreamSpec>>& streams,
            const std::optional<api::RunSpec>& run_settings, const std::string& profile_path, QualifyReport& report) {
  ctl::catch_stop_signals();
  if (streams) target.load(*streams, profile_path + " (qualification)", run_settings);
  uint64_t slowest = 0;
  for (const api::PortReport& p : target.ports())
    if (std::find(ports.begin(), ports.end(), p.name) != ports.end() && p.speed_bps > 0)
      slowest = slowest == 0 ? p.speed_bps : std::min(slowest, p.speed_bps);
  const auto [seconds, duration_basis] = run_seconds(cfg, slowest);
  json& settings = report.json_()["settings"];
  settings = {{"ports", ports},
              {"rate_percent", cfg.rate_percent},
              {"duration_s", seconds},
              {"duration_basis", duration_basis},
              {"interval_s", static_cast<double>(cfg.interval_ns) / 1e9},
              {"expected_speed_bps", cfg.speed_bps != 0 ? json(cfg.speed_bps) : json(nullptr)},  // null: any
              {"expected_fec", cfg.fec.empty() ? json(nullptr) : json(cfg.fec)},
              {"fec_code", cfg.fec_code.empty() ? json(nullptr) : json(cfg.fec_code)},
              {"target_ber", cfg.target_ber},
              {"confidence", cfg.confidence},
              {"ber_limit", cfg.ber_limit > 0 ? json(cfg.ber_limit) : json(nullptr)},
              {"rx_power_drift_db", cfg.rx_power_drift_db},
              {"tx_power_drift_db", cfg.tx_power_drift_db}};

  QualifyRun run(target, cfg, ports);
  json fec_set = json::object();
  run.read_before(fec_set);
  if (cfg.set_fec) report.json_()["fec_set"] = fec_set;
  report.update(run.evidence(), cfg);
  std::printf("qualifying %zu port(s) for %s (%s), a sample every %g s; report: %s\n", ports.size(),
              fmt::format("{:g} s", seconds).c_str(), duration_basis.c_str(), static_cast<double>(cfg.interval_ns) / 1e9,
              report.path("report.json").c_str());
  // Without a profile: the data plane's streams sent to or from the ports, as they are configured.
  std::vector<std::string> names;
  if (!streams && serving != nullptr) {
    const auto ours = [&](const std::string& port) { return std::find(ports.begin(), ports.end(), port) != ports.end(); };
    for (const api::StreamSpec& s : ctl::RunClient(*serving).specs())
      if (ours(s.tx_port) || (s.rx_port && ours(*s.rx_port))) names.push_back(s.name);
    if (names.empty()) throw std::runtime_error("the data plane has no stream sent to or from these ports: load one first");
  }
  const auto wall_start = std::chrono::system_clock::now();
  target.start(names);
  try {
    ctl::EndedRun ended = sample_run(target, run, report, cfg, seconds, wall_start);
    report.update(run.evidence(), cfg);
    report.json_()["run"] = std::move(ended.json);
  } catch (const ctl::ConnectionError& error) {
    // A data plane of several went away: the others are stopped, what they measured kept.
    if (auto* fleet = dynamic_cast<ctl::EngineFleet*>(&target)) {
      fleet->stop_after_loss(error.what());
      report.json_()["run"] = fleet->report().json;
    }
    throw;
  }
  return 0;
}

}  // namespace

namespace {

// What a qualification runs on: its settings, the profile (none: a serving data plane's
// streams), the ports it judges and the [report] section.
struct QualifySetup {
  optics::QualifyCfg cfg;
  std::optional<profile::Profile> read;
  std::optional<std::vector<api::StreamSpec>> streams;  ///< the profile's at the qualification's load
  std::vector<std::string> ports;
  report::ReportSection about;  ///< [report]: the device under test, the operator
};

// The setup from the options and the profile's [qualify] section; 0, or the exit code of
// what was wrong (said).
int read_setup(const QualifyOptions& options, QualifySetup& setup) {
  setup.ports = options.ports;
  if (!options.profile_path.empty()) {
    setup.read = ctl::read_profile(options.profile_path);
    if (!setup.read) return 2;
    auto sections = ctl::read_profile_sections(*setup.read, options.profile_path, [](const auto& p, const std::string& text) {
      return std::pair{read_qualify_section(p, text), report::read_report_section(p, text)};
    });
    if (!sections) return 2;
    const std::optional<optics::QualifyCfg> section = std::move(sections->first);
    setup.about = std::move(sections->second);
    if (!section) {
      std::fprintf(stderr, "linerate: %s has no [qualify] section (config/README.md lists its keys)\n",
                   options.profile_path.c_str());
      return 2;
    }
    setup.cfg = *section;
    const profile::Profile& read = *setup.read;
    if (setup.ports.empty()) setup.ports = setup.cfg.ports;
    if (setup.ports.empty()) {  // every port a stream is received on, in the profile's order
      for (const api::PortSpec& port : read.ports)
        if (std::any_of(read.streams.begin(), read.streams.end(), [&](const api::StreamSpec& s) { return s.rx_port == port.name; }))
          setup.ports.push_back(port.name);
    }
    setup.streams = ctl::streams_at_percent(read.streams, setup.cfg.rate_percent);
  } else if (setup.ports.empty()) {
    std::fprintf(stderr, "linerate: optics qualify needs a profile with a [qualify] section, or --port PORT on a serving data plane\n");
    return 2;
  }
  if (!options.duration.empty()) {
    if (options.duration == "auto") setup.cfg.duration_ns = 0;
    else if (const auto ns = profile::parse_duration_ns(options.duration); ns && *ns >= 100'000'000) setup.cfg.duration_ns = *ns;
    else {
      std::fprintf(stderr, "linerate: --duration '%s' is not 'auto' or a duration of at least 100ms (e.g. 75s)\n",
                   options.duration.c_str());
      return 2;
    }
  }
  return 0;
}

// A port the data plane does not have is a bad argument, before any traffic: 0, or the
// exit code (said). Writes the hand-over (the ports as listed) into the report, and the
// data planes a fleet spans.
int check_ports(ctl::RunTarget& target, const QualifySetup& setup, QualifyReport& report) {
  try {
    std::vector<std::string> names;
    const std::vector<api::PortReport> listed = target.ports();
    if (const auto* fleet = dynamic_cast<const ctl::EngineFleet*>(&target)) {
      report.json_()["engines"] = json::array();
      for (const ctl::FleetEngine& e : fleet->engines()) report.json_()["engines"].push_back(ctl::engine_section(e));
    }
    for (const api::PortReport& p : listed) names.push_back(p.name);
    report::write_hand_over(report.json_(), report::hand_over(setup.about, listed));
    for (const std::string& port : setup.ports)
      if (std::find(names.begin(), names.end(), port) == names.end()) {
        std::fprintf(stderr, "linerate: the data plane has no port '%s' (it has: %s)\n", port.c_str(),
                     fmt::format("{}", fmt::join(names, ", ")).c_str());
        std::error_code ignored;
        std::filesystem::remove(report.dir(), ignored);  // only when still empty
        return 2;
      }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "linerate: %s\n", error.what());
    return 1;
  }
  return 0;
}

// The verdicts printed after the qualification (`code`: how it ended); the exit code.
int verdicts_exit_code(QualifyReport& report, int code) {
  report.finish(ctl::stop_requested());
  print_verdicts(report.json_());
  if (ctl::stop_requested()) std::printf("(interrupted: the verdicts cover the samples taken)\n");
  std::printf("report: %s (and summary.csv, report.html)\n", report.path("report.json").c_str());
  std::fflush(stdout);  // before the data plane's own lines at its exit
  if (code != 0) return code;
  // Stopped by a signal: the verdicts cover a part of the asked duration.
  if (ctl::stop_signal() != 0) return ctl::stopped_exit_code();
  int verdicts = 0;
  for (const optics::QualifiedPort& p : optics::qualified_ports_from_json(report.json_())) {
    if (p.verdict == optics::Verdict::kFail) return ctl::kExitFailed;
    if (p.verdict == optics::Verdict::kIncomplete) verdicts = ctl::kExitIncomplete;
  }
  return verdicts;
}

// The ports qualified: on the data plane serving (or started for) the profile, on several
// by location, or without a profile on the serving data plane (`serving`). The exit code,
// 0 with `target` set.
int open_target(const QualifySetup& setup, const QualifyOptions& options,
                std::unique_ptr<ctl::ProfileDataplane>& dataplane, std::unique_ptr<ctl::DataplaneClient>& serving,
                std::unique_ptr<ctl::RunTarget>& target) {
  try {
    if (setup.read && ctl::has_locations(*setup.read)) {
      target = ctl::open_fleet(*setup.read, options.dataplane, options.locations_path, "linerate-optics");
      if (!target) return 2;
      if (!setup.read->devices.empty()) target->load_devices(setup.read->devices, options.profile_path);
      return 0;
    }
    if (setup.read) {
      if (const int code = ctl::ProfileDataplane::open(*setup.read, options.profile_path, options.dataplane,
                                                       options.adopt_ports, dataplane);
          code != 0)
        return code;
      target = std::make_unique<ctl::DataplaneTarget>(dataplane->client());
      return 0;
    }
    serving = std::make_unique<ctl::DataplaneClient>(options.dataplane);
    target = std::make_unique<ctl::DataplaneTarget>(*serving);
    return 0;
  } catch (const ctl::ConnectionError& error) {
    std::fprintf(stderr, "linerate: %s\n", error.what());
    return 1;
  }
}

}  // namespace

int run_optics_qualify(const QualifyOptions& options) {
  QualifySetup setup;
  if (const int code = read_setup(options, setup); code != 0) return code;
  QualifyReport report(options.report_dir, options.profile_path);
  if (!report.problem().empty()) {
    std::fprintf(stderr, "linerate: cannot write the report directory '%s': %s\n", report.dir().c_str(),
                 report.problem().c_str());
    return 4;
  }
  std::unique_ptr<ctl::ProfileDataplane> dataplane;
  std::unique_ptr<ctl::DataplaneClient> serving;
  std::unique_ptr<ctl::RunTarget> target;
  if (const int code = open_target(setup, options, dataplane, serving, target); code != 0) return code;
  if (const int code = check_ports(*target, setup, report); code != 0) return code;
  int code = 0;
  try {
    // Over several data planes the profile's run settings go with its streams (one data
    // plane has them from the profile it serves).
    const bool fleet = dynamic_cast<const ctl::EngineFleet*>(target.get()) != nullptr;
    qualify(*target, serving.get(), setup.cfg, setup.ports, setup.streams,
            fleet ? std::optional(setup.read->run) : std::nullopt, options.profile_path, report);
  } catch (const std::exception& error) {
    // A data plane that refuses or disappears ends the qualification with what was sampled.
    std::fprintf(stderr, "linerate: the qualification stopped: %s\n", error.what());
    report.json_()["stopped_by"] = error.what();
    code = 1;
  }
  return verdicts_exit_code(report, code);
}

}  // namespace lr::optics
