#include "control/cli/run_command.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include "control/cli/profile_file.hpp"
#include "control/cli/stop_signal.hpp"
#include "control/cli/tables.hpp"
#include "control/client/dataplane_client.hpp"
#include "control/views/report_file.hpp"
#include "control/views/run_views.hpp"

namespace lr::ctl {

using nlohmann::json;

namespace {

// linerate-dataplane beside this executable (installed), in the build tree, or on PATH.
std::string dataplane_binary() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (const auto& candidate : {self.parent_path() / "linerate-dataplane",
                                  self.parent_path().parent_path() / "dataplane" / "linerate-dataplane"})
      if (std::filesystem::exists(candidate)) return candidate.string();
  }
  return "linerate-dataplane";
}

// A data plane started for this run, stopped (SIGTERM, then waited for) at the end.
class SpawnedDataplane {
 public:
  SpawnedDataplane(const std::string& profile_path, const std::string& socket_path) {
    const std::string binary = dataplane_binary();
    pid_ = ::fork();
    if (pid_ == 0) {
      ::setpgid(0, 0);  // Ctrl-C in the terminal is for linerate, which stops the run cleanly
      ::dup2(STDERR_FILENO, STDOUT_FILENO);  // what it says goes to stderr: stdout is ours (--json)
      ::execlp(binary.c_str(), binary.c_str(), "--config", profile_path.c_str(), "--serve", "--quiet", "--socket",
               socket_path.c_str(), static_cast<char*>(nullptr));
      std::fprintf(stderr, "linerate: cannot start %s: %s\n", binary.c_str(), std::strerror(errno));
      std::_Exit(127);
    }
  }
  ~SpawnedDataplane() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  /// Exit status if it has exited already.
  std::optional<int> exited() {
    int status = 0;
    if (pid_ > 0 && ::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    return std::nullopt;
  }
  bool started() const { return pid_ > 0; }

 private:
  pid_t pid_ = -1;
};

// A directory removed with everything in it when the run ends, however it ends.
struct TempDir {
  std::string path;
  ~TempDir() {
    if (path.empty()) return;
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

// How the profile's ports differ from a serving data plane's (port.list), one line each;
// empty when they match by name, device and (where the profile sets it) speed.
std::vector<std::string> port_differences(const profile::Profile& profile, const json& serving) {
  std::vector<std::string> out;
  for (const profile::PortCfg& want : profile.ports) {
    const auto have = std::find_if(serving.begin(), serving.end(),
                                   [&](const json& p) { return p.value("name", "") == want.name; });
    if (have == serving.end()) {
      out.push_back(fmt::format("port '{}' ({}) is not one of the data plane's", want.name, want.device));
      continue;
    }
    const std::string device = have->value("device", "");
    if (device != want.device)
      out.push_back(fmt::format("port '{}': device {} in the profile, {} in the data plane", want.name, want.device, device));
    const uint64_t speed = have->value("speed_bps", uint64_t{0});
    if (want.speed_bps != 0 && speed != want.speed_bps)
      out.push_back(fmt::format("port '{}': speed {} Gbit/s in the profile, {} Gbit/s in the data plane", want.name,
                                static_cast<double>(want.speed_bps) / 1e9, static_cast<double>(speed) / 1e9));
  }
  return out;
}

}  // namespace

int run_profile(const RunOptions& options) {
  std::ifstream file(options.profile_path);
  if (!file) {
    std::fprintf(stderr, "linerate: cannot read the profile %s: %s\n", options.profile_path.c_str(), std::strerror(errno));
    return 2;
  }
  const std::optional<profile::Profile> read = read_profile(options.profile_path);
  if (!read) return 2;
  const profile::Profile& profile = *read;
  // Before any traffic: a run must not end in "cannot write".
  if (const std::string problem = report_path_problem(options.report_path); !problem.empty()) {
    std::fprintf(stderr, "linerate: cannot write the report file '%s': %s\n", options.report_path.c_str(),
                 problem.c_str());
    return 4;
  }
  std::stringstream text;
  text << file.rdbuf();

  // Declared first, destroyed last: the data plane stops before its socket directory goes.
  TempDir temp_dir;
  std::unique_ptr<DataplaneClient> client;
  std::unique_ptr<SpawnedDataplane> spawned;
  const std::string socket = default_socket_path(options.socket);
  try {
    client = std::make_unique<DataplaneClient>(socket);
    // A running data plane: the profile's ports must be its ports (a 10% meant for a 40G
    // port must not run on a 10G one), then this profile's streams replace its streams.
    if (const auto differences = port_differences(profile, client->call("port.list")); !differences.empty()) {
      std::string text_lines;
      for (const std::string& d : differences) text_lines += "  " + d + "\n";
      if (!options.adopt_ports) {
        std::fprintf(stderr,
                     "linerate: the profile's ports are not the serving data plane's (%s):\n%s"
                     "Run it on a data plane of its own (stop the service, or give another --socket), or add "
                     "--adopt-ports to run its streams on the service's ports as they are.\n",
                     socket.c_str(), text_lines.c_str());
        return 1;
      }
      std::fprintf(stderr, "linerate: --adopt-ports: the streams run on the serving data plane's ports, not the "
                           "profile's:\n%s", text_lines.c_str());
    }
    client->call("stream.load", {{"profile", text.str()}, {"path", options.profile_path}});
  } catch (const ConnectionError&) {
    if (!options.socket.empty()) throw;  // the user named a socket: do not start another data plane
    char dir_template[] = "/tmp/linerate-run-XXXXXX";
    if (::mkdtemp(dir_template) == nullptr) throw ConnectionError("cannot create a directory for the data plane's socket");
    temp_dir.path = dir_template;
    const std::string own_socket = temp_dir.path + "/dataplane.sock";
    spawned = std::make_unique<SpawnedDataplane>(options.profile_path, own_socket);
    for (int waited_ms = 0; !client; waited_ms += 50) {
      if (auto status = spawned->exited()) {
        std::fprintf(stderr, "linerate: the data plane exited with status %d before serving\n", *status);
        return 1;
      }
      try {
        client = std::make_unique<DataplaneClient>(own_socket);
      } catch (const ConnectionError&) {
        if (waited_ms > 120'000) throw ConnectionError("the data plane did not open its socket within 2 minutes");
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }
  }

  // The plan, as the one-shot data plane prints it: in every mode, from the data plane
  // that runs it.
  const json plan = client->call("plan");
  if (options.plan_only) {
    if (options.as_json) std::printf("%s\n", plan.dump(2).c_str());
    else std::printf("%s", plan_text(api::run_plan_from_json(plan)).c_str());
    return 0;
  }
  if (!options.as_json) std::printf("%s", plan_text(api::run_plan_from_json(plan)).c_str());
  std::fflush(stdout);

  catch_stop_signals();

  client->call("traffic.start");
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  auto last = t0;
  json previous = client->call("stats.ports");
  while (!stop_requested()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (client->call("traffic.status").value("tx_finished", false)) break;
    const auto now = clock::now();
    if (options.live && !options.as_json && now - last >= std::chrono::seconds(1)) {
      json current = client->call("stats.ports");
      std::printf("%s\n", live_line(std::chrono::duration<double>(now - t0).count(), port_traffic(previous),
                                    port_traffic(current), std::chrono::duration<double>(now - last).count())
                              .c_str());
      std::fflush(stdout);
      previous = std::move(current);
      last = now;
    }
  }
  json report = client->call("traffic.stop");
  report["interrupted"] = stop_requested();
  report["profile"] = options.profile_path;
  int code = 0;
  if (options.as_json) std::printf("%s\n", report.dump(2).c_str());
  else std::printf("\n%s", run_table(api::run_report_from_json(report)).c_str());
  if (report["interrupted"].get<bool>() && !options.as_json)
    std::printf("(interrupted: traffic stopped early, results cover what ran)\n");
  if (!options.report_path.empty()) {
    if (const std::string failed = write_report_file(options.report_path, report.dump(2) + "\n"); !failed.empty()) {
      if (!options.as_json) std::printf("%s\n", report.dump(2).c_str());  // the results are not lost
      std::fprintf(stderr, "linerate: writing the report file '%s' failed: %s; the report is on stdout\n",
                   options.report_path.c_str(), failed.c_str());
      code = 4;
    } else if (!options.as_json) {
      std::printf("report: %s\n", options.report_path.c_str());
    }
  }
  return code;
}

}  // namespace lr::ctl
