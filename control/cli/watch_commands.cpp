#include "control/cli/watch_commands.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

#include "control/cli/tables.hpp"
#include "control/client/dataplane_watch.hpp"
#include "control/client/port_client.hpp"
#include "control/client/run_client.hpp"
#include "control/client/stop_signal.hpp"
#include "lib/api/switch_report.hpp"
#include "lib/common/utc_time.hpp"
#include "lib/views/run_views.hpp"

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
  for (size_t i = 0; i < later.size() && i < earlier.size() && i < after.size(); ++i) {
    const api::PortRate r = api::port_rate(earlier[i], later[i], seconds);
    const api::PortCounters counters = api::port_report_from_json(after[i]).counters;
    out += fmt::format("{:<12} {:>10.3f} {:>10.3f} {:>10.3f} {:>10.3f} {:>10} {:>10}\n", r.name, r.tx_pps / 1e6,
                       r.tx_l1_bps / 1e9, r.rx_pps / 1e6, r.rx_l1_bps / 1e9, counters.imissed, counters.ierrors);
  }
  return out;
}

}  // namespace

std::string pause_now(DataplaneClient& client, const json& stats_ports) {
  std::vector<api::PortReport> ports;
  for (const json& p : stats_ports) {
    api::PortReport port = api::port_report_from_json(p);
    port.nic_pause = api::nic_pause_counters(PortClient(client).counters(port.name, "pause"));
    ports.push_back(std::move(port));
  }
  return views::pause_text(ports);
}

std::string below_stream_table(DataplaneClient& client, const json& stats_ports) {
  std::string out;
  if (const std::string pause = pause_now(client, stats_ports); !pause.empty()) out += "\n" + pause;
  const std::vector<api::SwitchReport> switches = RunClient(client).switch_stats();
  if (!switches.empty()) out += "\n" + views::switch_text(switches);
  std::vector<api::CaptureReport> captures = RunClient(client).captures();
  std::erase_if(captures, [](const api::CaptureReport& c) { return c.state != "capturing"; });
  if (!captures.empty()) out += "\n" + views::capture_text(captures);
  return out;
}

namespace {

// One screen of `top`: ports and streams over the same interval (the streams of a port
// add up to it), `before` the last screen's.
struct TopBaseline {
  json ports;
  std::vector<api::StreamReport> streams;
  clock_type::time_point at;
};

TopBaseline top_baseline(RunClient& run) { return {run.port_stats_json(), run.stream_stats(), clock_type::now()}; }

std::string top_title(const char* state) {
  return fmt::format("\033[H\033[2Jlinerate top  {:%H:%M:%S}  {}", fmt::localtime(std::time(nullptr)), state);
}

void draw_top(DataplaneClient& client, RunClient& run, TopBaseline& before) {
  TopBaseline after = top_baseline(run);
  const api::TrafficStatus status = run.status();
  const double seconds = std::chrono::duration<double>(after.at - before.at).count();
  std::string below = below_stream_table(client, after.ports);
  if (const std::string lines = views::timeline_sparklines(after.streams); !lines.empty()) below += "\n" + lines;
  const std::string traffic =
      fmt::format("traffic {}", status.running ? (status.tx_finished ? "done" : "running") : "stopped");
  std::printf("%s   (q or Ctrl-C quits; rates over the last %.1f s)\n\n%s\n%s%s", top_title(traffic.c_str()).c_str(),
              seconds, port_rates_table(before.ports, after.ports, seconds).c_str(),
              views::stream_table(views::with_interval_rates(before.streams, after.streams, seconds)).c_str(),
              below.c_str());
  before = std::move(after);
}

// The screen while the data plane is away: why, in place of the tables.
void draw_away(const DataplaneWatch& watch) {
  std::printf("%s", top_title(fmt::format("data plane away: {} (retrying)\n", watch.reason()).c_str()).c_str());
  std::fflush(stdout);
}

}  // namespace

int run_top(DataplaneClient& client) {
  catch_stop_signals();
  QuitKey quit_key;
  Screen screen;
  RunClient run(client);
  // The screen says the data plane's comings and goings: a line on stderr would tear it.
  DataplaneWatch watch(client.address().text(), {"linerate top", "", ""}, [](const std::string&) {});
  TopBaseline before;
  try {
    before = top_baseline(run);
  } catch (const ConnectionError& e) {  // gone between the connect and the first read
    watch.lost(e.what(), clock_type::now());
  }
  while (!stop_requested()) {
    quit_key.sleep(1.0);
    if (stop_requested()) break;
    const auto now = clock_type::now();
    try {
      if (!watch.up()) {
        if (!watch.due(now) || !watch.retry([&] { client.reconnect(); }, now)) {
          draw_away(watch);
          continue;
        }
        // Back: rates again from a new baseline, as when top starts.
        before = top_baseline(run);
        std::printf("%s", top_title("the data plane serves again; rates from the next second\n").c_str());
      } else {
        draw_top(client, run, before);
      }
    } catch (const ConnectionError& e) {
      watch.lost(e.what(), now);
      draw_away(watch);
      continue;
    }
    std::fflush(stdout);
  }
  return 0;
}

int run_stats_watch(DataplaneClient& client, bool as_json) {
  catch_stop_signals();
  // Control codes only for a terminal: piped or redirected, each table follows the last.
  const bool terminal = ::isatty(STDOUT_FILENO) != 0;
  RunClient run(client);
  std::vector<api::StreamReport> before = run.stream_stats();
  auto last = clock_type::now();
  while (!stop_requested()) {
    sleep_unless_stopped(1.0);
    if (stop_requested()) break;
    const json result = run.stream_stats_json();
    const auto now = clock_type::now();
    const double seconds = std::chrono::duration<double>(now - last).count();
    std::vector<api::StreamReport> streams = stream_reports(result);
    if (as_json) {
      std::printf("%s\n", result.dump().c_str());
    } else {
      const std::string title = fmt::format("{:%H:%M:%S}  tx_Mpps over the last {:.1f} s; counts since the run started\n",
                                            fmt::localtime(std::time(nullptr)), seconds);
      const std::string below = below_stream_table(client, run.port_stats_json());
      std::printf("%s%s%s%s%s", terminal ? "\033[H\033[2J" : "", title.c_str(),
                  views::stream_table(views::with_interval_rates(before, streams, seconds)).c_str(), below.c_str(),
                  terminal ? "" : "\n");
    }
    std::fflush(stdout);
    before = std::move(streams);
    last = now;
  }
  return 0;
}

int run_xstats_watch(DataplaneClient& client, const std::string& port, const std::string& filter, bool rates) {
  catch_stop_signals();
  PortClient counters(client);
  api::PortCounterView before = counters.counter_view(port, filter);
  auto last = clock_type::now();
  while (!stop_requested()) {
    sleep_unless_stopped(1.0);
    const api::PortCounterView after = counters.counter_view(port, filter);
    const auto now = clock_type::now();
    const double seconds = std::chrono::duration<double>(now - last).count();
    std::printf("\033[H\033[2J%s", counters_table(after, rates ? &before : nullptr, seconds).c_str());  // home + clear
    std::fflush(stdout);
    before = after;
    last = now;
  }
  return 0;
}

namespace {

// The marker once the data plane serves again: how long it was away, how many tries.
json back_marker(double away_s, unsigned tries, double t) {
  return {{"time", utc_now_iso8601()}, {"t", t}, {"dataplane", "back"}, {"away_s", away_s}, {"tries", tries}};
}

}  // namespace

json record_marker(const std::string& state, const std::string& reason, double t) {
  return {{"time", utc_now_iso8601()}, {"t", t}, {"dataplane", state}, {"reason", reason}};
}

json record_sample(RunClient& run, std::vector<std::string>& ports, double t) {
  if (ports.empty())
    for (const api::PortReport& p : run.ports()) ports.push_back(p.name);
  json sample = run.snapshot_json(ports);
  sample["time"] = utc_now_iso8601();
  sample["t"] = t;
  // The ports it has now: a data plane restarted with others has their counters from the next sample.
  ports.clear();
  for (const json& p : sample["ports"]) ports.push_back(p.value("name", ""));
  return sample;
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
  uint64_t losses = 0;
  RunClient run(client);
  std::vector<std::string> ports;
  DataplaneWatch watch(client.address().text(),
                       {"linerate record", "recording a marker and retrying with backoff", "recording again"});
  while (!stop_requested()) {
    const auto now = clock_type::now();
    const double t = std::chrono::duration<double>(now - t0).count();
    json line;
    if (!watch.up()) {
      if (!watch.due(now)) {
        sleep_unless_stopped(std::chrono::duration<double>(watch.until_next_try(now)).count());
        continue;
      }
      const double away_s = std::chrono::duration<double>(watch.away_for(now)).count();
      const unsigned tries = watch.tries() + 1;
      if (!watch.retry([&] { client.reconnect(); }, now)) continue;
      line = back_marker(away_s, tries, t);
    } else {
      try {
        line = record_sample(run, ports, t);
        ++samples;
      } catch (const ConnectionError& e) {
        watch.lost(e.what(), now);
        line = record_marker("away", e.what(), t);
        ++losses;
      }
    }
    out << line.dump() << "\n";
    out.flush();
    if (!out) {
      std::fprintf(stderr, "linerate: writing %s failed\n", path.c_str());
      return 1;
    }
    if (watch.up()) sleep_unless_stopped(interval_s);
  }
  std::fprintf(
      stderr, "linerate: recorded %llu samples to %s%s\n", static_cast<unsigned long long>(samples), path.c_str(),
      losses == 0 ? "" : fmt::format(" (the data plane went away {} time{})", losses, losses == 1 ? "" : "s").c_str());
  return 0;
}

}  // namespace lr::ctl
