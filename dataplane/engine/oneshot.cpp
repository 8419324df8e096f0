#include "dataplane/engine/oneshot.hpp"

#include <fmt/format.h>

#include <chrono>
#include <thread>

#include "dataplane/common/line_rate.hpp"

namespace lr::dp {

std::string format_live_line(double elapsed_s, const std::vector<PortLiveCounters>& before,
                             const std::vector<PortLiveCounters>& after, double seconds) {
  std::string line = fmt::format("[{:7.1f}s]", elapsed_s);
  for (size_t i = 0; i < after.size() && i < before.size(); ++i) {
    const auto rate = [&](uint64_t packets, uint64_t bytes) {
      const double pps = static_cast<double>(packets) / seconds;
      const double l1_bps = static_cast<double>(bytes + packets * kWireOverheadBytes) * 8.0 / seconds;
      return fmt::format("{:8.3f} Mpps {:7.3f} Gbit/s", pps / 1e6, l1_bps / 1e9);
    };
    line += fmt::format("  {}: tx {} rx {}", after[i].name,
                        rate(after[i].tx_packets - before[i].tx_packets, after[i].tx_bytes - before[i].tx_bytes),
                        rate(after[i].rx_packets - before[i].rx_packets, after[i].rx_bytes - before[i].rx_bytes));
  }
  return line;
}

Result<RunReport> run_oneshot(Engine& engine, const std::atomic<bool>& interrupt, std::FILE* live,
                              const std::function<void()>& every_second, const std::function<void()>& every_100ms,
                              const std::function<void()>& before_close) {
  using clock = std::chrono::steady_clock;
  if (auto ok = engine.start(); !ok) return std::unexpected(ok.error());
  const auto t0 = clock::now();
  auto last = t0;
  auto last_poll = t0;
  auto previous = engine.live_counters();
  bool interrupted = false;
  while (!engine.tx_finished()) {
    if (interrupt.load(std::memory_order_relaxed)) {
      interrupted = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const auto now = clock::now();
    if (every_100ms && now - last_poll >= std::chrono::milliseconds(100)) {
      every_100ms();
      last_poll = now;
    }
    if (now - last >= std::chrono::seconds(1)) {
      if (every_second) every_second();
      if (live == nullptr) {
        last = now;
        continue;
      }
      auto current = engine.live_counters();
      const std::string line = format_live_line(std::chrono::duration<double>(now - t0).count(), previous, current,
                                                std::chrono::duration<double>(now - last).count());
      std::fprintf(live, "%s\n", line.c_str());
      std::fflush(live);
      previous = std::move(current);
      last = now;
    }
  }
  return engine.finish(interrupted, AfterRun::kClosePorts, before_close);
}

}  // namespace lr::dp
