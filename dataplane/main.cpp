// linerate-dataplane: the DPDK primary process. Thin: arguments -> profile -> EAL ->
// engine -> report. The only file the tests do not link.

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>
#include <rte_eal.h>
#include <rte_errno.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <expected>
#include <filesystem>
#include <fstream>
#include <optional>

#include "dataplane/eal/eal_args.hpp"
#include "dataplane/eal/hugepage_files.hpp"
#include "dataplane/engine/engine.hpp"
#include "dataplane/engine/oneshot.hpp"
#include "dataplane/mgmt/serve.hpp"
#include "dataplane/mgmt/telemetry.hpp"
#include "lib/profile/load_toml.hpp"
#include "lib/views/report_file.hpp"
#include "lib/views/run_views.hpp"

namespace {

std::atomic<bool> g_interrupt{false};

extern "C" void on_signal(int) { g_interrupt.store(true, std::memory_order_relaxed); }

// Exit codes: 0 run complete, 1 could not run what the profile asks, 2 bad arguments or
// profile, 3 run complete but mbufs leaked, 4 report could not be written.
constexpr int kExitCannotRun = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitLeak = 3;
constexpr int kExitReport = 4;

int fail(int code, const std::string& message) {
  std::fprintf(stderr, "linerate-dataplane: %s\n", message.c_str());
  return code;
}

// A run's report, as the tables and, with --report, the JSON file: the exit code.
int print_report(const lr::dp::RunReport& r, const std::string& report_path) {
  std::printf("\n%s", lr::views::run_table(r).c_str());
  if (r.interrupted)
    std::printf(r.streams.empty() ? "(stopped: the counters cover the time the switch ran)\n"
                                  : "(interrupted: traffic stopped early, results cover what ran)\n");
  const std::string flaps = lr::views::link_changes(r);
  if (!flaps.empty()) std::printf("link changes:\n%s", flaps.c_str());
  const std::string settings = lr::views::settings_changes(r.ports);
  if (!settings.empty()) std::printf("port settings changed:\n%s", settings.c_str());
  if (!report_path.empty()) {
    const std::string json_text = lr::api::to_json(r).dump(2) + "\n";
    if (const std::string failed = lr::views::write_report_file(report_path, json_text); !failed.empty()) {
      // The results are not lost: the JSON goes to stdout instead.
      std::printf("%s", json_text.c_str());
      return fail(kExitReport, fmt::format("writing the report file '{}' failed: {}; the report is above, on stdout",
                                           report_path, failed));
    }
    std::printf("report: %s\n", report_path.c_str());
  }
  return r.mbufs_not_returned != 0 ? kExitLeak : 0;
}

// What would fail later, said before EAL starts: lcores on CPUs this host does not give
// us (at the key, not in EAL's usage page), a report file that cannot be written (before
// traffic, not after a long run), hugepages this user may not map. The exit code, or 0.
int refused_before_eal(const lr::profile::Profile& profile, const std::string& report_path) {
  if (const std::string problem = lr::dp::lcores_problem(profile.eal.lcores, lr::dp::usable_cpus()); !problem.empty())
    return fail(kExitBadInput, lr::profile::ConfigError(profile.path, {}, "eal.lcores", problem).what());
  if (const std::string problem = lr::views::report_path_problem(report_path); !problem.empty())
    return fail(kExitReport, fmt::format("cannot write the report file '{}': {}", report_path, problem));
  if (lr::dp::uses_hugepages(profile, lr::dp::host_has_free_hugepages()))
    if (const std::string problem = lr::dp::hugepage_access_problem(
            lr::dp::system_hugepage_paths().mounts, ::geteuid() == 0,
            [](const std::string& mount) { return ::access(mount.c_str(), W_OK) == 0; });
        !problem.empty())
      return fail(kExitCannotRun, problem);
  return 0;
}

struct Arguments {
  std::string config_path;
  std::string report_path;
  bool quiet = false;
  bool plan_only = false;
  bool serve = false;
  std::string socket_path;
  bool remove_socket_dir = false;
  lr::dp::TcpServerOptions tcp;  ///< --listen and its TLS; listen "" : the Unix socket only
  std::string ptp_uds;           ///< --ptp; "": /var/run/ptp4l where it is
  std::string capture_dir = std::string(lr::dp::kDefaultCaptureDir);  ///< --capture-dir
};

void add_options(CLI::App& app, Arguments& args) {
  app.set_version_flag("--version", "linerate-dataplane " LR_VERSION);
  app.add_option("-c,--config", args.config_path, "profile (TOML); see config/README.md")->required();
  app.add_option("-r,--report", args.report_path, "write the JSON report to this file");
  app.add_flag("-q,--quiet", args.quiet, "no live lines (one-shot), no banner (--serve)");
  app.add_flag("--plan-only", args.plan_only, "bring the ports up, print the plan and exit");
  app.add_flag("--serve", args.serve, "service mode: answer the control socket until stopped");
  CLI::Option* socket =
      app.add_option("--socket", args.socket_path, "control socket path (default: the profile's [control] socket)");
  app.add_flag("--remove-socket-dir", args.remove_socket_dir,
               "the --socket's folder was made for this data plane alone (`linerate run` and `bench` make one): "
               "remove it, once empty, as the service ends (Ctrl-C, SIGTERM, SIGHUP)")
      ->needs(socket);
  CLI::Option* listen = app.add_option(
      "--listen", args.tcp.listen,
      "also serve the same methods over TCP on ADDR:PORT ([::1]:7300 for IPv6), for a controller on another host: "
      "mutual TLS with --tls-ca, --tls-cert and --tls-key");
  app.add_option("--tls-ca", args.tcp.tls.ca, "--listen: the CA (PEM) that signed the controllers' certificates")
      ->needs(listen);
  app.add_option("--tls-cert", args.tcp.tls.cert, "--listen: this data plane's certificate (PEM)")->needs(listen);
  app.add_option("--tls-key", args.tcp.tls.key, "--listen: its private key (PEM)")->needs(listen);
  app.add_flag("--insecure", args.tcp.insecure, "--listen on a loopback address: plain TCP, no TLS")->needs(listen);
  app.add_option("--ptp", args.ptp_uds,
                 "--serve: ptp4l's management socket, to say in hello whether a PTP grandmaster keeps this host's "
                 "clock (default: /var/run/ptp4l, where it is)")
      ->needs(app.get_option("--serve"));
  app.add_option("--capture-dir", args.capture_dir,
                 "--serve: where captures named by a file name are written, made 0700 if missing: the only place a "
                 "controller over --listen may write (an absolute path is taken from the Unix socket only)")
      ->capture_default_str()
      ->check([](const std::string& dir) { return dir.empty() ? std::string("a folder is needed, not ''") : ""; })
      ->needs(app.get_option("--serve"));
}

// The command line read into `args`: the exit code when there is nothing more to do
// (--help, --version, or arguments refused), else nullopt.
std::optional<int> parse_arguments(int argc, char** argv, Arguments& args) {
  CLI::App app{
      "linerate-dataplane: DPDK traffic generator and receiver with exact per-stream loss and latency.\n\n"
      "One-shot mode (default): runs the streams of a profile on its ports, prints a live line per\n"
      "second, then a per-stream table; --report writes the same results as JSON. Ctrl-C (SIGINT,\n"
      "SIGTERM, SIGHUP) stops traffic, drains, and still writes the full report.\n\n"
      "Service mode (--serve): brings the ports up with the profile's streams installed and answers\n"
      "JSON-RPC on a Unix socket ([control] socket, or --socket) until stopped; the `linerate`\n"
      "command is its client. A run still going when the service stops is reported as above.",
      "linerate-dataplane"};
  add_options(app, args);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : kExitBadInput;
  }
  return std::nullopt;
}

// The EAL as this process started it, and what it leaves to clean up.
struct StartedEal {
  lr::dp::HugepagePaths huge_paths;
  bool huge = false;  ///< it maps hugepage files under the profile's file prefix
  std::string file_prefix;

  // Every exit once the EAL is up: its memory released, then the files it leaves.
  void cleanup() const {
    rte_eal_cleanup();
    if (huge) lr::dp::remove_own_hugepages(huge_paths, file_prefix);
  }
};

// The EAL started on the profile's arguments, its hugepage prefix registered; the exit
// code when it cannot start.
std::expected<StartedEal, int> start_eal(const lr::profile::Profile& profile) {
  StartedEal eal{lr::dp::system_hugepage_paths(), false, profile.eal.file_prefix};
  // Pages that data planes killed before they could free them hold: back to the host
  // first (they may be what this run needs).
  for (const lr::dp::RemovedHugepages& removed : lr::dp::remove_stale_hugepages(eal.huge_paths, lr::dp::is_running_dataplane))
    std::fprintf(stderr, "linerate-dataplane: %s\n", lr::dp::describe(removed).c_str());
  std::vector<std::string> eal_args = lr::dp::build_eal_args(profile, lr::dp::host_has_free_hugepages());
  eal.huge = std::find(eal_args.begin(), eal_args.end(), "--file-prefix") != eal_args.end();
  std::vector<char*> eal_argv;
  for (std::string& arg : eal_args) eal_argv.push_back(arg.data());
  if (rte_eal_init(static_cast<int>(eal_argv.size()), eal_argv.data()) < 0)
    return std::unexpected(fail(kExitCannotRun, fmt::format("EAL initialisation failed: {} (arguments: {})",
                                                            rte_strerror(rte_errno), fmt::join(eal_args, " "))));
  if (eal.huge) {
    const std::string registered = lr::dp::register_hugepage_prefix(eal.huge_paths, eal.file_prefix, ::getpid());
    if (!registered.empty()) std::fprintf(stderr, "linerate-dataplane: warning: %s\n", registered.c_str());
  }
  return eal;
}

// One-shot runs stop on these and still report; a service handles its own.
void stop_on_signals() {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  std::signal(SIGHUP, on_signal);  // a closed terminal still gets its report
}

// What the engine does with its ports up: nothing more (--plan-only), serve, or one run.
// The report of the run it ended, if one ran.
std::optional<lr::Result<lr::dp::RunReport>> run_engine(lr::dp::Engine& engine, const lr::profile::Profile& profile,
                                                        const Arguments& args) {
  if (args.plan_only) {
    engine.finish(false);
    return std::nullopt;
  }
  if (args.serve) {
    lr::dp::ServeOptions options{args.socket_path.empty() ? profile.control.socket : args.socket_path,
                                 profile.control.group,
                                 !args.quiet,
                                 args.remove_socket_dir,
                                 std::nullopt,
                                 ""};
    if (!args.tcp.listen.empty()) options.tcp = args.tcp;
    options.ptp_uds = args.ptp_uds;
    options.capture_dir = std::filesystem::absolute(args.capture_dir).lexically_normal().string();
    if (options.ptp_uds.empty() && std::filesystem::exists("/var/run/ptp4l")) options.ptp_uds = "/var/run/ptp4l";
    auto served = lr::dp::serve(engine, options);
    if (!served) return std::unexpected(served.error());
    if (*served) return std::move(**served);  // a run was still going
    return std::nullopt;
  }
  lr::dp::LiveLine live;
  if (!args.quiet && profile.run.live)
    live = [](double elapsed_s, const auto& before, const auto& after, double seconds) {
      std::printf("%s\n", lr::views::live_line(elapsed_s, before, after, seconds).c_str());
      std::fflush(stdout);
    };
  return lr::dp::run_oneshot(engine, g_interrupt, live, [&engine] { lr::dp::publish_stream_stats(engine.live_stream_stats()); });
}

// The service's hold on the ports ends: put back what it changed, and say so.
void restore_port_settings(lr::dp::PortControls& controls) {
  controls.restore_settings();
  std::string settings;
  for (const auto& port : controls.all())
    for (const lr::api::SettingChange& c : port->settings_changed()) settings += lr::views::setting_change_line(port->name(), c);
  if (!settings.empty()) std::printf("port settings changed:\n%s", settings.c_str());
}

// With the ports up and the profile's port control applied: the plan, what was asked,
// and its report. The exit code.
int run_and_report(lr::dp::Engine& engine, const lr::profile::Profile& profile, const Arguments& args) {
  // A quiet service leaves the plan to its client (`linerate run` prints it).
  if (!(args.serve && args.quiet)) std::printf("%s", lr::views::plan_text(engine.plan()).c_str());
  std::fflush(stdout);
  const std::optional<lr::Result<lr::dp::RunReport>> report = run_engine(engine, profile, args);
  int code = 0;
  if (report && !*report) {
    code = fail(kExitCannotRun, lr::to_string(report->error()));
  } else if (report) {
    code = print_report(**report, args.report_path);
  }
  if (args.serve) restore_port_settings(engine.port_controls());
  return code;
}

// Brings the profile's ports up and runs it; cleans the EAL up before it returns. The
// exit code.
int run_profile(const lr::profile::Profile& profile, const Arguments& args, const StartedEal& eal) {
  auto engine = lr::dp::Engine::create(profile);
  if (!engine) {
    eal.cleanup();
    return fail(kExitCannotRun, lr::to_string(engine.error()));
  }
  // Port control (FEC, pause, PFC, flow rules) from the profile, on the ports now up.
  if (auto applied = (*engine)->port_controls().apply_profile(profile); !applied) {
    (*engine)->finish(false);
    engine->reset();  // its ports closed while the EAL is still up (after it: SIGSEGV)
    eal.cleanup();
    return fail(kExitCannotRun, lr::to_string(applied.error()));
  }
  const int code = run_and_report(**engine, profile, args);
  engine->reset();  // the engine closes its ports before the EAL goes
  eal.cleanup();
  return code;
}

// The program: arguments, the profile and its checks, the EAL, the run or the service.
int run_main(int argc, char** argv) {
  Arguments args;
  if (const std::optional<int> done = parse_arguments(argc, argv, args)) return *done;
  if (!args.tcp.listen.empty()) {
    // Checked before the ports come up: a typo in a file name costs no EAL start.
    if (!args.serve) return fail(kExitBadInput, "--listen serves the control methods: it needs --serve");
    if (auto checked = lr::dp::check_tcp_server_options(args.tcp); !checked)
      return fail(kExitBadInput, lr::to_string(checked.error()));
  }
  lr::profile::Profile profile;
  try {
    profile = lr::profile::load_profile_file(args.config_path);
  } catch (const lr::profile::ConfigError& error) {
    return fail(kExitBadInput, error.what());
  }
  for (const lr::api::PortSpec& port : profile.ports)
    if (!port.location.empty())
      return fail(kExitBadInput,
                  lr::profile::ConfigError(profile.path, port.loc_of("location"), "port.location",
                                           fmt::format("port '{}' is on another data plane ({}): a profile of "
                                                       "locations is run by linerate (linerate run), which drives "
                                                       "those data planes; a data plane opens devices of its own host",
                                                       port.name, port.location))
                      .what());
  if (const int refused = refused_before_eal(profile, args.report_path); refused != 0) return refused;
  const std::expected<StartedEal, int> eal = start_eal(profile);
  if (!eal) return eal.error();
  if (!args.serve) stop_on_signals();
  lr::dp::register_telemetry_commands();
  return run_profile(profile, args, *eal);
}

}  // namespace

int main(int argc, char** argv) {
  // Nothing the program throws is meant to get here; one that does is said, not an abort.
  try {
    return run_main(argc, argv);
  } catch (const std::exception& error) {
    return fail(kExitCannotRun, std::string("unexpected error: ") + error.what());
  }
}
