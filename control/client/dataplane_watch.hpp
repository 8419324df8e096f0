#pragma once
// Whether a front end's data plane serves, and its going away and coming back said once
// each. A front end (otg serve, exporter, record, top) that finds its data plane gone
// keeps going and tries again after 0.5 s, 1 s, 2 s, ... at most 30 s between tries; it
// logs the loss and the return on stderr, one line each, never a line per failed try (a
// log must not fill while a data plane is down for a weekend).
// The state and its times only: the caller connects, and passes the clock's reading
// (tests run it on a virtual clock). Thread: the caller's; not shared between threads.

#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace boost::asio {
class io_context;
}

namespace lr::ctl {

/// The wait after the `tries`-th failed try since the data plane went away (0: before
/// the first): 0.5 s doubling, at most 30 s (a data plane back is seen within 30 s, and
/// one away for hours costs two connects a minute).
std::chrono::milliseconds backoff_wait(unsigned tries) noexcept;

class DataplaneWatch {
 public:
  using Clock = std::chrono::steady_clock;
  using Log = std::function<void(const std::string&)>;

  /// What a front end says beside the data plane's comings and goings.
  struct Words {
    std::string program;     ///< "linerate otg": each line's prefix
    std::string while_away;  ///< "answering 503 and retrying with backoff"
    std::string once_back;   ///< "POST /config again"; "": nothing to add
  };

  /// Starts up (the front end reached its data plane). `log` gets each line, without its
  /// newline; by default stderr.
  DataplaneWatch(std::string socket, Words words, Log log = {});

  bool up() const noexcept { return up_; }
  /// Why it is away: the last failure's words ("" while up).
  const std::string& reason() const noexcept { return reason_; }
  /// Tries since it went away.
  unsigned tries() const noexcept { return tries_; }
  /// Whether a try is due at `now` (never while up).
  bool due(Clock::time_point now) const noexcept { return !up_ && now >= next_try_; }
  /// How long until the next try (0 when due or up).
  Clock::duration until_next_try(Clock::time_point now) const noexcept;
  /// How long since it went away (0 while up).
  Clock::duration away_for(Clock::time_point now) const noexcept;

  /// A call found it gone (a ConnectionError's words): said once, with `while_away`. While
  /// away already it only updates the reason.
  void lost(const std::string& reason, Clock::time_point now);
  /// One try: runs `connect`, which throws ConnectionError while the data plane is still
  /// away (the next try waits longer; not said), or returns when it serves (said once,
  /// with how long it was away, how many tries, and `once_back`). Returns whether it serves.
  bool retry(const std::function<void()>& connect, Clock::time_point now);

 private:
  std::string socket_;
  Words words_;
  Log log_;
  bool up_ = true;
  std::string reason_;
  unsigned tries_ = 0;
  Clock::time_point away_since_{};
  Clock::time_point next_try_{};
};

/// Watches the data plane in the background of an Asio program (otg serve, exporter):
/// while it is up, `check` once a second (a loss found without waiting for a request);
/// while it is away, every 100 ms a look whether a try is due, and when one is `connect`
/// through watch.retry, then `on_back` once it serves again. Thread: the io_context's.
class BackgroundRetry {
 public:
  struct Calls {
    std::function<void()> connect;       ///< a try: throws ConnectionError while still away
    std::function<void()> on_back = {};  ///< after the try that reached it
    /// While up: throws ConnectionError when the data plane went away (then said through
    /// watch.lost). None: only the front end's own calls find a loss.
    std::function<void()> check = {};
  };
  /// Starts at once; `watch` outlives this.
  BackgroundRetry(boost::asio::io_context& io, DataplaneWatch& watch, Calls calls);
  ~BackgroundRetry();
  BackgroundRetry(const BackgroundRetry&) = delete;
  BackgroundRetry& operator=(const BackgroundRetry&) = delete;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lr::ctl
