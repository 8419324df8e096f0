#include "control/client/stop_signal.hpp"

#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>

namespace lr::ctl {

namespace {

std::atomic<bool> g_stop{false};
std::atomic<int> g_signal{0};
extern "C" void on_stop(int signal_number) {
  int none = 0;
  g_signal.compare_exchange_strong(none, signal_number);  // the first one is the one that asked
  g_stop.store(true);
}

}  // namespace

void catch_stop_signals() {
  g_stop.store(false);
  g_signal.store(0);
  struct sigaction action {};
  action.sa_handler = on_stop;
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
  ::sigaction(SIGHUP, &action, nullptr);
}

bool stop_requested() noexcept { return g_stop.load(); }

int stop_signal() noexcept { return g_signal.load(); }

int stopped_exit_code() noexcept { return 128 + g_signal.load(); }

void sleep_unless_stopped(double seconds) {
  using clock = std::chrono::steady_clock;
  const auto until = clock::now() + std::chrono::duration<double>(seconds);
  // A look at the request every 20 ms, and never past `until`.
  for (auto now = clock::now(); !g_stop.load() && now < until; now = clock::now())
    std::this_thread::sleep_for(std::min(std::chrono::duration_cast<clock::duration>(until - now),
                                         clock::duration(std::chrono::milliseconds(20))));
}

struct QuitKey::Saved {
  termios mode;
};

QuitKey::QuitKey() {
  if (::isatty(STDIN_FILENO) == 0) return;
  saved_ = new Saved{};
  if (::tcgetattr(STDIN_FILENO, &saved_->mode) != 0) return;
  termios keys = saved_->mode;
  keys.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO);
  keys.c_cc[VMIN] = 0;
  keys.c_cc[VTIME] = 0;
  raw_ = ::tcsetattr(STDIN_FILENO, TCSANOW, &keys) == 0;
}

QuitKey::~QuitKey() {
  if (raw_) ::tcsetattr(STDIN_FILENO, TCSANOW, &saved_->mode);
  delete saved_;
}

void QuitKey::sleep(double seconds) {
  if (!raw_) return sleep_unless_stopped(seconds);
  using clock = std::chrono::steady_clock;
  const auto until = clock::now() + std::chrono::duration<double>(seconds);
  while (!g_stop.load() && clock::now() < until) {
    pollfd in{STDIN_FILENO, POLLIN, 0};
    if (::poll(&in, 1, 20) == 1) {
      char key = 0;
      if (::read(STDIN_FILENO, &key, 1) == 1 && (key == 'q' || key == 'Q')) g_stop.store(true);
    }
  }
}

}  // namespace lr::ctl
