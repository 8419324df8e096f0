#include "control/cli/watch_commands.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

#include "control/cli/stop_signal.hpp"
#include "control/cli/tables.hpp"
#include "control/views/run_views.hpp"

namespace lr::ctl {

using nlohmann::json;
using clock_type = std::chrono::steady_clock;

namespace {

// The alternate screen with a hidden cursor, given back however we leave.
class Screen {
 public:
  Screen() { std::printf("\033[?1049h\033[?25l"); }
  ~Screen() {
    std::printf("\033[?25h\033[?1049l");
    std::fflush(stdout);
  }
};

std::string port_rates_table(const json& before, const json& after, double seconds) {
  std::string out = fmt::format("{:<12} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}\n", "port", "tx_Mpps", "tx_Gbit/s",
                                "rx_Mpps", "rx_Gbit/s", "imissed", "ierrors");
  const std::vector<api::PortTraffic> earlier = port_traffic(before);
  const std::vector<api::PortTraffic> later = port_traffic(after);
  for (size_t i = 0; i < later.size() && i < earlier.size(); ++i) {
    const api::PortRate r = api::port_rate(earlier[i], later[i], seconds);
    out += fmt::format("{:<12} {:>10.3f} {:>10.3f} {:>10.3f} {:>10.3f} {:>10} {:>10}\n", r.name, r.tx_pps / 1e6,
                       r.tx_l1_bps / 1e9, r.rx_pps / 1e6, r.rx_l1_bps / 1e9, after[i].value("imissed", uint64_t{0}),
                       after[i].value("ierrors", uint64_t{0}));
  }
  return out;
}

}  // namespace

int run_top(DataplaneClient& client) {
  catch_stop_signals();
  Screen screen;
  json before = client.call("stats.ports");
  auto last = clock_type::now();
  while (!stop_requested()) {
    sleep_unless_stopped(1.0);
    const json after = client.call("stats.ports");
    const json streams = client.call("stats.streams");
    const json status = client.call("traffic.status");
    const auto now = clock_type::now();
    const double seconds = std::chrono::duration<double>(now - last).count();
    std::printf("\033[H\033[2Jlinerate top  %s  traffic %s   (Ctrl-C quits)\n\n%s\n%s",
                fmt::format("{:%H:%M:%S}", fmt::localtime(std::time(nullptr))).c_str(),
                status.value("running", false) ? (status.value("tx_finished", false) ? "done" : "running") : "stopped",
                port_rates_table(before, after, seconds).c_str(), stream_table(stream_reports(streams)).c_str());
    std::fflush(stdout);
    before = after;
    last = now;
  }
  return 0;
}

int run_stats_watch(DataplaneClient& client, bool as_json) {
  catch_stop_signals();
  while (!stop_requested()) {
    const json result = client.call("stats.streams");
    if (as_json) std::printf("%s\n", result.dump().c_str());
    else std::printf("\033[H\033[2J%s", stream_table(stream_reports(result)).c_str());  // home + clear
    std::fflush(stdout);
    sleep_unless_stopped(1.0);
  }
  return 0;
}

int run_xstats_watch(DataplaneClient& client, const std::string& port, const std::string& filter, bool rates) {
  catch_stop_signals();
  json params{{"port", port}};
  if (!filter.empty()) params["filter"] = filter;
  json before = client.call("port.counters", params);
  auto last = clock_type::now();
  while (!stop_requested()) {
    sleep_unless_stopped(1.0);
    const json after = client.call("port.counters", params);
    const auto now = clock_type::now();
    const double seconds = std::chrono::duration<double>(now - last).count();
    std::printf("\033[H\033[2J%s", counters_table(after, rates ? before : json(), seconds).c_str());  // home + clear
    std::fflush(stdout);
    before = after;
    last = now;
  }
  return 0;
}

int run_record(DataplaneClient& client, const std::string& path, double interval_s) {
  std::ofstream out(path, std::ios::app);
  if (!out) {
    std::fprintf(stderr, "linerate: cannot write %s\n", path.c_str());
    return 1;
  }
  catch_stop_signals();
  const auto t0 = clock_type::now();
  uint64_t samples = 0;
  while (!stop_requested()) {
    const json ports = client.call("stats.ports");
    json counters = json::object();
    for (const json& p : ports) {
      try {
        counters[p.value("name", "")] = client.call("port.counters", {{"port", p.value("name", "")}})["counters"];
      } catch (const RpcCallError&) {
        // A port whose counters cannot be read is recorded without them.
      }
    }
    const json line{{"time", fmt::format("{:%Y-%m-%dT%H:%M:%S}Z", fmt::gmtime(std::time(nullptr)))},
                    {"t", std::chrono::duration<double>(clock_type::now() - t0).count()},
                    {"traffic", client.call("traffic.status")},
                    {"ports", ports},
                    {"streams", client.call("stats.streams")},
                    {"counters", counters}};
    out << line.dump() << "\n";
    out.flush();
    if (!out) {
      std::fprintf(stderr, "linerate: writing %s failed\n", path.c_str());
      return 1;
    }
    ++samples;
    sleep_unless_stopped(interval_s);
  }
  std::fprintf(stderr, "linerate: recorded %llu samples to %s\n", static_cast<unsigned long long>(samples), path.c_str());
  return 0;
}

}  // namespace lr::ctl
