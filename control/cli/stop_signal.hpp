#pragma once
// Ctrl-C (and SIGTERM, SIGHUP) as a request to stop, for the commands that poll until
// then: they restore the terminal and print or write what they have before exiting.

namespace lr::ctl {

/// Clears the request and turns the three signals into it.
void catch_stop_signals();

bool stop_requested() noexcept;

/// Sleeps up to `seconds`, waking early on a stop request.
void sleep_unless_stopped(double seconds);

}  // namespace lr::ctl
