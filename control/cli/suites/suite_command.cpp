#include "control/cli/suites/suite_command.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "control/cli/engines_run.hpp"
#include "control/cli/profile_dataplane.hpp"
#include "control/cli/profile_file.hpp"
#include "control/client/fleet_report.hpp"
#include "control/client/run_client.hpp"
#include "control/client/stop_signal.hpp"
#include "control/reports/hand_over.hpp"
#include "control/suites/bench/bench_sections.hpp"
#include "lib/profile/load_toml.hpp"

namespace lr::bench {

using nlohmann::json;

namespace {

// The profile's ports: on the data plane serving (or started for) the profile, or by
// location on several. The exit code, 0 with `target` set.
int open_target(const BenchProfile& profile, const BenchOptions& options,
                std::unique_ptr<ctl::ProfileDataplane>& dataplane, std::unique_ptr<ctl::RunTarget>& target) {
  if (ctl::has_locations(profile)) {
    target = ctl::open_fleet(profile, options.dataplane, options.locations_path, "linerate-bench");
    if (!target) return 2;
    if (!profile.devices.empty()) target->load_devices(profile.devices, options.profile_path);
    return 0;
  }
  if (const int code =
          ctl::ProfileDataplane::open(profile, options.profile_path, options.dataplane, options.adopt_ports, dataplane);
      code != 0)
    return code;
  target = std::make_unique<ctl::DataplaneTarget>(dataplane->client());
  return 0;
}

// The tester in the report: each port (the hand-over), and the data planes a fleet spans.
bool describe_tester(BenchSession& session, const report::ReportSection& about, ctl::RunTarget& target) {
  try {
    report::write_hand_over(session.report(), report::hand_over(about, target.ports()));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "linerate: the data plane did not list its ports: %s\n", error.what());
    return false;
  }
  if (const auto* fleet = dynamic_cast<const ctl::EngineFleet*>(&target)) {
    session.report()["engines"] = json::array();
    for (const ctl::FleetEngine& e : fleet->engines()) session.report()["engines"].push_back(ctl::engine_section(e));
  }
  return true;
}

}  // namespace

int run_suite(const Suite& suite, const BenchOptions& options) {
  const std::optional<profile::Profile> profile = ctl::read_profile(options.profile_path);
  if (!profile) return 2;
  // The suites' sections, and [report]: the device under test, the operator.
  auto sections = ctl::read_profile_sections(*profile, options.profile_path, [](const auto& p, const std::string& text) {
    return std::pair{read_bench_sections(p, text), report::read_report_section(p, text)};
  });
  if (!sections) return 2;
  const std::optional<BenchProfile> read = std::move(sections->first);
  const report::ReportSection about = std::move(sections->second);
  const BenchCfg* cfg = suite.section(*read);
  if (cfg == nullptr) {
    std::fprintf(stderr, "linerate: %s has no [%s] section (config/README.md lists its keys)\n",
                 options.profile_path.c_str(), suite.name.c_str());
    return 2;
  }
  BenchSession session(suite.name, suite.schema, options.profile_path, options.report_dir, suite.views);
  if (!session.problem().empty()) {
    std::fprintf(stderr, "linerate: cannot write the report directory '%s': %s\n", session.dir().c_str(),
                 session.problem().c_str());
    return 4;
  }
  std::unique_ptr<ctl::ProfileDataplane> dataplane;
  std::unique_ptr<ctl::RunTarget> target;
  if (const int code = open_target(*read, options, dataplane, target); code != 0) return code;
  ctl::catch_stop_signals();
  TrialRunner runner(*target, *read);
  if (!describe_tester(session, about, *target)) return 1;

  json settings = suite.settings(*read);
  settings["drain_s"] = static_cast<double>(read->run.drain_ns) / 1e9;
  session.report()["settings"] = settings;
  json layout = json::array();
  for (const api::StreamSpec& s : read->streams)
    layout.push_back({{"stream", s.name}, {"tx_port", s.tx_port}, {"rx_port", s.rx_port.value_or("")}});
  session.report()["layout"] = layout;
  session.set_rest_s(static_cast<double>(cfg->rest_ns) / 1e9);
  session.expect_trials(suite.expected_trials(*read));
  session.save();  // from the start: what runs, where, with which settings

  int code = 0;
  try {
    const uint64_t learnt = runner.learn(cfg->learning_frames);
    session.report()["learning_frames_sent"] = learnt;
    if (learnt > 0) {
      std::printf("learning frames: %llu sent from the receiving ports\n", static_cast<unsigned long long>(learnt));
      ctl::sleep_unless_stopped(static_cast<double>(cfg->rest_ns) / 1e9);
    } else if (std::any_of(read->streams.begin(), read->streams.end(),
                           [](const api::StreamSpec& s) { return s.eth_dst_auto; })) {
      std::printf(
          "learning: by neighbour resolution: the streams go between emulated hosts (eth.dst 'auto'), which "
          "announce themselves and resolve their next hops before each trial\n");
    }
    suite.run(*read, runner, session);
  } catch (const std::exception& error) {
    // A data plane that refuses or disappears ends the suite with what was measured.
    std::fprintf(stderr, "linerate: the benchmark stopped: %s\n", error.what());
    session.report()["stopped_by"] = error.what();
    code = 1;
  }
  session.finish(ctl::stop_requested());
  try {
    suite.print(session.report());
  } catch (const std::exception& error) {  // the table is a view: report.json holds everything
    std::fprintf(stderr, "linerate: the summary table could not be printed: %s\n", error.what());
  }
  // Stopped by a signal: the results are partial, whatever the verdicts of what finished.
  if (code == 0 && ctl::stop_signal() != 0) code = ctl::stopped_exit_code();
  if (code == 0 && suite.verdict_code) code = suite.verdict_code(session.report());
  if (ctl::stop_requested()) std::printf("(interrupted: the report holds every trial that finished)\n");
  std::printf("report: %s (and results.csv, report.html)\n", session.report_path().c_str());
  return code;
}

}  // namespace lr::bench
