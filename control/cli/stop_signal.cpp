#include "control/cli/stop_signal.hpp"

#include <signal.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace lr::ctl {

namespace {

std::atomic<bool> g_stop{false};
extern "C" void on_stop(int) { g_stop.store(true); }

}  // namespace

void catch_stop_signals() {
  g_stop.store(false);
  struct sigaction action {};
  action.sa_handler = on_stop;
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
  ::sigaction(SIGHUP, &action, nullptr);
}

bool stop_requested() noexcept { return g_stop.load(); }

void sleep_unless_stopped(double seconds) {
  using clock = std::chrono::steady_clock;
  const auto until = clock::now() + std::chrono::duration<double>(seconds);
  while (!g_stop.load() && clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

}  // namespace lr::ctl
