#include "dataplane/mgmt/clock_watch.hpp"

#include <fmt/format.h>
#include <sys/wait.h>

#include <cstdio>

namespace lr::dp {

namespace {

constexpr auto kEvery = std::chrono::seconds(2);

}  // namespace

ClockWatch::ClockWatch(std::string uds)
    : uds_(std::move(uds)), kernel_(system_kernel_io()), thread_([this] { loop(); }) {}

ClockWatch::~ClockWatch() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

ClockWatch::Reading ClockWatch::last() const {
  const std::lock_guard lock(mutex_);
  return last_;
}

ClockWatch::Reading ClockWatch::read_once() const {
  Reading r;
  r.read = true;
  r.at = std::chrono::steady_clock::now();
  if (uds_.find('\'') != std::string::npos) {
    r.problem = fmt::format("the ptp4l socket path '{}' has a quote in it", uds_);
    return r;
  }
  // pmc's own socket (-i), where ptp4l sends its answers, beside ptp4l's: pmc's default,
  // /var/run/pmc.PID, is that for ptp4l's default socket, and in a container whose ptp4l
  // socket is the host's (a shared folder) it is the only place ptp4l can reach. $$: the
  // shell's PID, one per call.
  const size_t slash = uds_.rfind('/');
  const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "" : uds_.substr(0, slash);
  const std::string command = fmt::format(
      "pmc -u -b 0 -s '{}' -i '{}/pmc.'$$ 'GET TIME_STATUS_NP' 'GET PORT_DATA_SET' "
      "'GET PORT_PROPERTIES_NP' 'GET DEFAULT_DATA_SET' 'GET TIME_PROPERTIES_DATA_SET' 2>/dev/null",
      uds_, folder);
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    r.problem = "cannot run pmc";
    return r;
  }
  std::string text;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) text.append(buffer, n);
  const int status = pclose(pipe);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
    r.problem = "linuxptp's pmc is not installed (apt-get install linuxptp)";
    return r;
  }
  r.ptp = host::parse_pmc_output(text);
  if (r.ptp.answered && r.ptp.timestamping == "HARDWARE") {
    const auto timescale =
        r.ptp.ptp_timescale.value_or(false) ? host::PhcTimescale::kPtp : host::PhcTimescale::kArbitrary;
    r.phc = host::measure_phc(*kernel_, r.ptp.interface, timescale, r.ptp.utc_offset_s.value_or(0));
  }
  r.verdict = host::judge_ptp(r.ptp, r.phc);
  if (!r.ptp.answered) r.verdict.why = fmt::format("no ptp4l answered at {}", uds_);
  return r;
}

void ClockWatch::loop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    lock.unlock();
    Reading r = read_once();
    lock.lock();
    last_ = std::move(r);
    wake_.wait_for(lock, kEvery, [this] { return stopping_; });
  }
}

}  // namespace lr::dp
