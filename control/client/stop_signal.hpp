#pragma once
// Ctrl-C (and SIGTERM, SIGHUP) as a request to stop, for the commands that poll until
// then: they restore the terminal and print or write what they have before exiting.
// A signal is the same request wherever it lands: a call to the data plane that it
// interrupts is resumed (SA_RESTART), so `kill -INT` mid-call is not taken for a data
// plane that hung up.

namespace lr::ctl {

/// Clears the request and turns the three signals into it.
void catch_stop_signals();

bool stop_requested() noexcept;

/// The signal that asked to stop, or 0 (none, or `q` in a full-screen view).
int stop_signal() noexcept;

/// The exit code of a command that a signal stopped before its end, with partial
/// results written: 128 + the signal, as a shell reports a process the signal ended
/// (130 for Ctrl-C, 143 for SIGTERM). Distinct from every verdict.
int stopped_exit_code() noexcept;

/// Sleeps up to `seconds`, waking early on a stop request.
void sleep_unless_stopped(double seconds);

/// `q` on the terminal as a stop request too, for full-screen views: the terminal reads
/// keys unechoed while this lives, and is given back as it was.
class QuitKey {
 public:
  QuitKey();
  ~QuitKey();
  QuitKey(const QuitKey&) = delete;
  QuitKey& operator=(const QuitKey&) = delete;
  /// Sleeps up to `seconds`, waking early on a stop request or `q` (then a stop request).
  void sleep(double seconds);

 private:
  bool raw_ = false;
  struct Saved;
  Saved* saved_ = nullptr;
};

}  // namespace lr::ctl
