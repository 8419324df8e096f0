#include "dataplane/engine/oneshot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <thread>


namespace lr::dp {

Result<RunReport> run_oneshot(Engine& engine, const std::atomic<bool>& interrupt, const LiveLine& live,
                              const std::function<void()>& every_second) {
  using clock = std::chrono::steady_clock;
  // The profile's captures first: a filter or a file they refuse stops the run before
  // any traffic.
  std::vector<uint32_t> captures;
  for (const api::CaptureSpec& spec : engine.profile().captures) {
    auto started = engine.start_capture(spec, 0);
    if (!started) return std::unexpected(started.error());
    captures.push_back(started->id);
  }
  if (auto ok = engine.start(); !ok) return std::unexpected(ok.error());
  const auto t0 = clock::now();
  auto last = t0;
  auto last_poll = t0;
  auto previous = engine.live_counters();
  bool interrupted = false;
  // A switch without streams (the device under test in a process of its own) forwards
  // until it is stopped.
  const bool until_stopped = engine.profile().streams.empty() && !engine.profile().switches.empty();
  while (until_stopped || !engine.tx_finished()) {
    if (interrupt.load(std::memory_order_relaxed)) {
      interrupted = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const auto now = clock::now();
    if (now - last_poll >= std::chrono::milliseconds(100)) {
      engine.port_controls().poll_links();  // link changes are evidence: looked for every 100 ms
      last_poll = now;
    }
    if (now - last >= std::chrono::seconds(1)) {
      if (every_second) every_second();
      if (!live) {
        last = now;
        continue;
      }
      auto current = engine.live_counters();
      live(std::chrono::duration<double>(now - t0).count(), previous, current,
           std::chrono::duration<double>(now - last).count());
      previous = std::move(current);
      last = now;
    }
  }
  RunReport report = engine.finish(interrupted, AfterRun::kClosePorts);
  // Their files complete before the report says what is in them.
  for (api::CaptureReport& listed : report.captures)
    if (std::find(captures.begin(), captures.end(), listed.id) != captures.end())
      if (auto ended = engine.stop_capture(listed.id)) listed = *ended;
  return report;
}

}  // namespace lr::dp
