#include "control/client/dataplane_watch.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "control/client/dataplane_client.hpp"

namespace lr::ctl {

std::chrono::milliseconds backoff_wait(unsigned tries) noexcept {
  constexpr std::chrono::milliseconds kFirst{500};
  constexpr std::chrono::milliseconds kMost = std::chrono::seconds(30);
  // 500 ms << 6 is 32 s, past the cap: no shift further can overflow.
  return std::min(kFirst * (1U << std::min(tries, 6U)), kMost);
}

DataplaneWatch::DataplaneWatch(std::string socket, Words words, Log log)
    : socket_(std::move(socket)), words_(std::move(words)), log_(std::move(log)) {
  if (!log_) log_ = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
}

DataplaneWatch::Clock::duration DataplaneWatch::until_next_try(Clock::time_point now) const noexcept {
  return up_ || now >= next_try_ ? Clock::duration::zero() : next_try_ - now;
}

DataplaneWatch::Clock::duration DataplaneWatch::away_for(Clock::time_point now) const noexcept {
  return up_ ? Clock::duration::zero() : now - away_since_;
}

void DataplaneWatch::lost(const std::string& reason, Clock::time_point now) {
  reason_ = reason;
  if (!up_) return;
  up_ = false;
  tries_ = 0;
  away_since_ = now;
  next_try_ = now + backoff_wait(0);
  log_(fmt::format("{}: the data plane at {} went away ({}); {}", words_.program, socket_, reason, words_.while_away));
}

bool DataplaneWatch::retry(const std::function<void()>& connect, Clock::time_point now) {
  if (up_) return true;
  ++tries_;
  try {
    connect();
  } catch (const ConnectionError& e) {
    reason_ = e.what();
    next_try_ = now + backoff_wait(tries_);
    return false;
  }
  up_ = true;
  const double away_s = std::chrono::duration<double>(now - away_since_).count();
  log_(fmt::format("{}: the data plane at {} serves again (after {:.1f} s, {} {}){}", words_.program, socket_, away_s,
                   tries_, tries_ == 1 ? "try" : "tries", words_.once_back.empty() ? "" : "; " + words_.once_back));
  reason_.clear();
  tries_ = 0;
  return true;
}

struct BackgroundRetry::Impl {
  boost::asio::steady_timer timer;
  DataplaneWatch& watch;
  Calls calls;
  DataplaneWatch::Clock::time_point checked{};

  // A look every 100 ms finds a due try at most 100 ms late; a check a second finds a
  // loss within a second, at the cost of a poll() (otg) or a connect (exporter).
  void arm() {
    timer.expires_after(std::chrono::milliseconds(100));
    timer.async_wait([this](const boost::system::error_code& ec) {
      if (ec) return;  // cancelled: the owner is gone (nothing of it may be touched)
      look(DataplaneWatch::Clock::now());
      arm();
    });
  }

  void look(DataplaneWatch::Clock::time_point now) {
    if (watch.up()) {
      if (!calls.check || now - checked < std::chrono::seconds(1)) return;
      checked = now;
      try {
        calls.check();
      } catch (const ConnectionError& e) {
        watch.lost(e.what(), now);
      }
    } else if (watch.due(now) && watch.retry(calls.connect, now) && calls.on_back) {
      calls.on_back();
    }
  }
};

BackgroundRetry::BackgroundRetry(boost::asio::io_context& io, DataplaneWatch& watch, Calls calls)
    : impl_(std::make_unique<Impl>(Impl{boost::asio::steady_timer(io), watch, std::move(calls), {}})) {
  impl_->arm();
}

// The timer's destructor cancels its wait: the handler then runs with operation_aborted
// and returns before it touches what is gone.
BackgroundRetry::~BackgroundRetry() = default;

}  // namespace lr::ctl
