#include <fmt/format.h>

#include <cmath>
#include <map>
#include <optional>
#include <utility>

#include "control/suites/bench/rfc2889/tests.hpp"
#include "control/suites/bench/rfc2889_section.hpp"
#include "lib/common/line_rate.hpp"

namespace lr::bench::rfc2889 {

namespace {

// A traffic pattern: who sends to whom, each pair a share of its sender's load.
struct Pair {
  size_t from = 0;
  size_t to = 0;
  double share = 1;
  const char* traffic = nullptr;  ///< §5.3: "local" (within one device) or "remote" (across the trunk)
};

struct Pattern {
  std::string name;
  const char* section;
  std::vector<Pair> pairs;
};

// Frames of a set of streams over a trial.
struct Counts {
  uint64_t tx = 0, rx = 0, flooded = 0;
  int64_t lost = 0;

  void add(const api::StreamReport& s) {
    tx += s.tx_packets;
    rx += s.rx_packets - s.duplicate;
    lost += s.lost;
    flooded += s.misdelivered;
  }
  double loss_percent() const {
    return tx == 0 ? 0 : 100.0 * static_cast<double>(std::max<int64_t>(lost, 0)) / static_cast<double>(tx);
  }
  FrameCounts figures(double seconds) const {
    return {tx, rx, lost, loss_percent(), static_cast<double>(tx) / seconds, static_cast<double>(rx) / seconds, flooded};
  }
};

// One trial of a pattern at one frame size and load, as it measured (or why not).
struct Point {
  double load_percent = 0;
  bool valid = false;
  std::string invalid;
  double seconds = 0;
  Counts all;
  std::map<std::string, Counts> by_traffic;  ///< §5.3: local and remote
  double forwarded_fps() const { return static_cast<double>(all.rx) / seconds; }
  MeshedPoint row() const {
    MeshedPoint row;
    row.load_percent = load_percent;
    if (!valid) {
      row.invalid = invalid;
      return row;
    }
    static_cast<FrameCounts&>(row) = all.figures(seconds);
    if (const auto it = by_traffic.find("local"); it != by_traffic.end()) row.local = it->second.figures(seconds);
    if (const auto it = by_traffic.find("remote"); it != by_traffic.end()) row.remote = it->second.figures(seconds);
    return row;
  }
};

Point run_point(Plan& p, const Pattern& pattern, uint16_t bytes, double load, const std::string& what) {
  Streams streams(p);
  const auto name = [&p](const Pair& pair) { return fmt::format("{}->{}", p.port(pair.from), p.port(pair.to)); };
  for (const Pair& pair : pattern.pairs)
    streams.traffic(name(pair), pair.from, pair.to, bytes, {api::RateKind::kPercentOfLine, load * pair.share},
                    kHelloSettleNs, p.cfg.trial_duration_ns);
  const Measured m = measure(p, streams, pattern.name, fmt::format("{} B {:g} % {}", bytes, load, what));
  Point point;
  point.load_percent = load;
  point.valid = m.valid();
  point.invalid = m.interrupted ? "interrupted" : m.invalid;
  point.seconds = static_cast<double>(p.cfg.trial_duration_ns) / 1e9;
  if (!point.valid) return point;
  for (const Pair& pair : pattern.pairs) {
    const api::StreamReport& s = stream_of(m.run.report, name(pair));
    point.all.add(s);
    if (pair.traffic != nullptr) point.by_traffic[pair.traffic].add(s);
  }
  return point;
}

// The loads, then (when the highest lost frames) a bisection between the highest load
// without loss and the lowest with, to the resolution: the throughput.
void run_pattern(Plan& p, const Pattern& pattern) {
  for (const uint16_t bytes : p.cfg.frame_sizes) {
    Result result = entry(pattern.name, pattern.section);
    result.frame_size = bytes;
    std::vector<MeshedPoint> points;
    // The highest load without loss; the lowest above it with (0: none).
    std::optional<double> passed;
    double failed = 0;
    std::optional<Point> mfr, at_max;
    std::optional<Point> spoiled;  // the highest load, or the search's point, whose runs were all invalid
    for (const double load : p.cfg.loads_percent) {
      if (p.interrupted) break;
      Point point = run_point(p, pattern, bytes, load, "");
      points.push_back(point.row());
      if (!point.valid) {
        spoiled = std::move(point);
        continue;
      }
      at_max = point;
      if (!mfr || point.forwarded_fps() > mfr->forwarded_fps()) mfr = point;
      if (point.all.lost <= 0) {
        passed = load;
        failed = 0;
      } else if (failed == 0) {
        failed = load;
      }
    }
    // A load above the highest that passed, with none failing, not measured: no throughput.
    if (failed > 0 || (spoiled && spoiled->load_percent < passed.value_or(0))) spoiled.reset();
    std::vector<MeshedPoint> search;
    double lo = passed.value_or(0), hi = failed > 0 ? failed : spoiled ? spoiled->load_percent : 0;
    while (failed > 0 && !p.interrupted && hi - lo > p.cfg.resolution_percent) {
      const double mid = (lo + hi) / 2;
      Point point = run_point(p, pattern, bytes, mid, "(search)");
      search.push_back(point.row());
      if (!point.valid) {  // the host spoiled it three times: the search stops where it is
        spoiled = std::move(point);
        break;
      }
      (point.all.lost <= 0 ? lo : hi) = mid;
    }
    result.points = std::move(points);
    result.throughput_search = std::move(search);
    // None (written as null) when even the lowest load lost frames.
    result.throughput_percent = failed > 0 ? (lo > 0 ? std::optional(lo) : std::nullopt) : passed;
    if (failed > 0 && lo == 0) result.why = fmt::format("frames were lost at every load down to {:g} %", hi);
    if (spoiled && !p.interrupted) {
      // Not the device's throughput: the highest load that passed is only a bound, and
      // giving it as the throughput would charge the device with the host's stall.
      result.throughput_percent.reset();
      result.throughput_bounds_percent = std::vector<double>{lo, hi};
      result.why = fmt::format("the throughput lies between {:g} % and {:g} %, not narrowed to {:g} %: the trial at "
                                  "{:g} % was not measured ({})",
                                  lo, hi, p.cfg.resolution_percent, spoiled->load_percent, spoiled->invalid);
    }
    if (at_max) {
      result.forwarding_rate_at_max_load_fps = at_max->forwarded_fps();
      result.max_load_percent = at_max->load_percent;
    }
    if (mfr) {
      result.maximum_forwarding_rate_fps = mfr->forwarded_fps();
      result.maximum_forwarding_rate_load_percent = mfr->load_percent;
    }
    if (!at_max) {
      result.verdict = "SKIPPED";
      result.why = "no run was valid (each one's reason is in trials[])";
    }
    p.result(result);
    if (p.interrupted) return;
  }
}

}  // namespace

void fully_meshed(Plan& p) {
  const size_t n = p.ports();
  Pattern pattern{"fully_meshed", "5.1", {}};
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      if (i != j) pattern.pairs.push_back({i, j, 1.0 / static_cast<double>(n - 1)});
  run_pattern(p, pattern);
}

void partially_meshed(Plan& p) {
  const size_t n = p.ports();
  Pattern one_to_many{"partially_meshed/one_to_many", "5.2", {}};
  Pattern many_to_one{"partially_meshed/many_to_one", "5.2", {}};
  for (size_t j = 1; j < n; ++j) {
    one_to_many.pairs.push_back({0, j, 1.0 / static_cast<double>(n - 1)});
    // The one port receives the load in total: it is not congested at 100 %.
    many_to_one.pairs.push_back({j, 0, 1.0 / static_cast<double>(n - 1)});
  }
  run_pattern(p, one_to_many);
  if (!p.interrupted) run_pattern(p, many_to_one);
}

void multiple_devices(Plan& p) {
  // Every port to every other, as §5.1, each pair local (both ports on one device) or
  // remote (through the trunk between the devices).
  const auto device_of = [&p](size_t port) {
    for (size_t d = 0; d < p.cfg.devices.size(); ++d)
      for (const std::string& name : p.cfg.devices[d])
        if (name == p.port(port)) return d;
    return p.cfg.devices.size();
  };
  const size_t n = p.ports();
  Pattern pattern{"multiple_devices", "5.3", {}};
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      if (i != j)
        pattern.pairs.push_back({i, j, 1.0 / static_cast<double>(n - 1), device_of(i) == device_of(j) ? "local" : "remote"});
  run_pattern(p, pattern);
}

void unidirectional(Plan& p) {
  const size_t half = p.ports() / 2;
  Pattern pattern{"unidirectional", "5.4", {}};
  for (size_t i = 0; i < half; ++i) pattern.pairs.push_back({i, i + half, 1.0});
  run_pattern(p, pattern);
}

}  // namespace lr::bench::rfc2889

namespace lr::bench::rfc2889 {

void forward_pressure(Plan& p) {
  Result result = entry("forward_pressure", "5.6");
  result.verdict = "SKIPPED";
  result.why =
      "the overload half needs frames offered above line rate (an inter-frame gap under 96 bit times), which these "
      "ports cannot send; the maximum forwarding rate half is each meshed test's maximum_forwarding_rate_fps";
  p.result(result);
}

}  // namespace lr::bench::rfc2889
