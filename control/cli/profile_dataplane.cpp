#include "control/cli/profile_dataplane.hpp"

#include <fmt/format.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <thread>

#include "control/cli/setup_differences.hpp"
#include "control/client/host_client.hpp"
#include "control/client/run_client.hpp"
#include "lib/profile/device_spec_json.hpp"

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


}  // namespace

// A data plane started for this run, stopped (SIGTERM, then waited for) at the end.
class ProfileDataplane::Spawned {
 public:
  Spawned(const std::string& profile_path, const std::string& socket_path) {
    const std::string binary = dataplane_binary();
    const pid_t parent = ::getpid();
    pid_ = ::fork();
    if (pid_ == 0) {
      // However linerate ends (SIGKILL, a crash), the data plane it started ends with it:
      // an orphan would keep polling its ports, and its hold on them, forever.
      ::prctl(PR_SET_PDEATHSIG, SIGTERM);
      if (::getppid() != parent) std::_Exit(1);  // linerate was already gone
      ::setpgid(0, 0);  // Ctrl-C in the terminal is for linerate, which stops the run cleanly
      ::dup2(STDERR_FILENO, STDOUT_FILENO);  // what it says goes to stderr: stdout is ours (--json)
      // Its socket's folder is this run's: the data plane removes it as it ends, also when
      // linerate was killed (SIGKILL leaves nobody else to).
      ::execlp(binary.c_str(), binary.c_str(), "--config", profile_path.c_str(), "--serve", "--quiet", "--socket",
               socket_path.c_str(), "--remove-socket-dir", static_cast<char*>(nullptr));
      std::fprintf(stderr, "linerate: cannot start %s: %s\n", binary.c_str(), std::strerror(errno));
      std::_Exit(127);
    }
  }
  ~Spawned() {
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

ProfileDataplane::~ProfileDataplane() {
  client_.reset();
  spawned_.reset();
  std::error_code ignored;
  if (!temp_dir_.empty()) std::filesystem::remove_all(temp_dir_, ignored);
}

int ProfileDataplane::open(const profile::Profile& profile, const std::string& profile_path,
                           const DataplaneAddress& address, bool adopt_ports, std::unique_ptr<ProfileDataplane>& out) {
  // NOLINTNEXTLINE(modernize-make-unique): the constructor is private, which make_unique cannot call
  auto dp = std::unique_ptr<ProfileDataplane>(new ProfileDataplane());
  try {
    dp->client_ = std::make_unique<DataplaneClient>(address);
    RunClient run(*dp->client_);
    const ServedSetup served{run.ports(), run.port_specs(), run.switch_specs()};
    if (const auto differences = setup_differences(profile, served); !differences.empty()) {
      std::string lines;
      for (const std::string& d : differences) lines += "  " + d + "\n";
      if (!adopt_ports) {
        std::fprintf(stderr,
                     "linerate: the profile's ports and switches are not set as the serving data plane's (%s):\n%s"
                     "Run it on a data plane of its own (stop the service, or give another --socket), or add "
                     "--adopt-ports to run its streams on the service's ports and switches as they are.\n",
                     address.text().c_str(), lines.c_str());
        return 1;
      }
      std::fprintf(stderr, "linerate: --adopt-ports: the streams run on the serving data plane's ports and "
                           "switches, not the profile's:\n%s", lines.c_str());
    }
    // Its emulated hosts, where the profile has [[device]] tables: a stream whose eth is
    // 'auto' is checked against them. (One started for the profile starts them from the file.)
    if (!profile.devices.empty())
      HostClient(*dp->client_).load_devices(profile::to_json(profile.devices), profile_path);
  } catch (const ConnectionError&) {
    if (address.named) throw;  // the user named a data plane: do not start another
    char dir_template[] = "/tmp/linerate-run-XXXXXX";
    if (::mkdtemp(dir_template) == nullptr) throw ConnectionError("cannot create a directory for the data plane's socket");
    dp->temp_dir_ = dir_template;
    const std::string own_socket = dp->temp_dir_ + "/dataplane.sock";
    dp->spawned_ = std::make_unique<Spawned>(profile_path, own_socket);
    for (int waited_ms = 0; !dp->client_; waited_ms += 50) {
      if (auto status = dp->spawned_->exited()) {
        std::fprintf(stderr, "linerate: the data plane exited with status %d before serving\n", *status);
        return 1;
      }
      try {
        dp->client_ = std::make_unique<DataplaneClient>(own_socket);
      } catch (const ConnectionError&) {
        if (waited_ms > 120'000) throw ConnectionError("the data plane did not open its socket within 2 minutes");
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }
  }
  out = std::move(dp);
  return 0;
}

}  // namespace lr::ctl
