// `linerate stats | lcores | histogram | top | record`: the run's results so far, once,
// live, or recorded.

#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <string>

#include "control/cli/commands/commands.hpp"
#include "control/cli/fleet_record.hpp"
#include "control/cli/tables.hpp"
#include "control/cli/watch_commands.hpp"
#include "control/client/location_map.hpp"
#include "control/client/run_client.hpp"
#include "lib/api/lcore_report.hpp"
#include "lib/profile/quantity.hpp"
#include "lib/views/run_views.hpp"

namespace lr::ctl {

using nlohmann::json;

namespace {

void add_stats(CLI::App& app, Commands& commands) {
  auto* stats = app.add_subcommand("stats", "per-stream results so far: tx, rx, loss, reorder, latency");
  auto watch = std::make_shared<bool>(false);
  stats->add_flag("-w,--watch", *watch, "refresh every second until Ctrl-C");
  commands.push_back(command_for(stats, [watch](const GlobalOptions& global) {
    return with_dataplane(global, [&](DataplaneClient& client) {
      if (*watch) return run_stats_watch(client, global.as_json);
      RunClient run(client);
      const json result = run.stream_stats_json();
      print_result(result, global.as_json,
                   global.as_json ? ""
                                  : views::stream_table(stream_reports(result)) +
                                        below_stream_table(client, run.port_stats_json()));
      return 0;
    });
  }));
}

std::string lcores_table(const json& lcores) {
  std::string table = fmt::format("{:>6} {:>6}  {}\n", "lcore", "socket", "work");
  for (const json& j : lcores) {
    const api::LcoreReport l = api::lcore_report_from_json(j);
    std::string work;
    for (const api::LaneReport& lane : l.tx_lanes)
      work += fmt::format("tx {}#{} port {} q{} ({} frames)  ", lane.stream, lane.lane, lane.port_id, lane.queue,
                          lane.tx_packets);
    for (const api::RxQueueReport& q : l.rx_queues)
      work += fmt::format("rx port {} q{} ({} frames)  ", q.port_id, q.queue, q.rx_packets);
    table += fmt::format("{:>6} {:>6}  {}\n", l.lcore, l.socket, work);
  }
  return table;
}

void add_histogram(CLI::App& app, Commands& commands) {
  auto* histogram = app.add_subcommand("histogram", "a stream's latency histogram");
  struct HistogramOptions {
    std::string stream;
    bool every_bucket = false;
  };
  auto options = std::make_shared<HistogramOptions>();
  histogram->add_option("stream", options->stream, "stream name")->required();
  histogram->add_flag("--buckets", options->every_bucket,
                      "every non-empty bucket (1.6 % wide) instead of power-of-two ranges");
  commands.push_back(command_for(histogram, [options](const GlobalOptions& global) {
    return with_dataplane(global, [&](DataplaneClient& client) {
      RunClient run(client);
      const json result = run.histogram_json(options->stream);
      api::LatencySummary latency;
      for (const api::StreamReport& s : run.stream_stats())
        if (s.name == options->stream) latency = s.latency;
      print_result(result, global.as_json, histogram_text(result, latency, options->every_bucket));
      return 0;
    });
  }));
}

void add_record(CLI::App& app, Commands& commands) {
  auto* record = app.add_subcommand("record", "write stats and the merged port counters as JSON lines until Ctrl-C");
  struct RecordOptions {
    std::string path;
    std::string interval = "1s";
    std::string locations;
  };
  auto options = std::make_shared<RecordOptions>();
  record->add_option("file", options->path, "JSONL file (appended to)")->required();
  record->add_option("--interval", options->interval, "time between samples, e.g. 1s, 500ms")->capture_default_str();
  record->add_option("--locations", options->locations,
                     "every data plane this location map names (JSON, as for run), each read on its own; one line "
                     "holds them all");
  commands.push_back(command_for(record, [options](const GlobalOptions& global) {
    const auto interval_ns = profile::parse_duration_ns(options->interval);
    if (!interval_ns || *interval_ns < 10'000'000) {
      std::fprintf(stderr, "linerate: --interval '%s' is not a duration of at least 10ms (e.g. 1s, 500ms)\n",
                   options->interval.c_str());
      return kExitUsage;
    }
    if (!options->locations.empty()) {
      auto map = read_location_map(options->locations);
      if (!map) {
        std::fprintf(stderr, "linerate: %s\n", map.error().context.c_str());
        return kExitUsage;
      }
      return run_fleet_record(*map, global.dataplane(), options->path, static_cast<double>(*interval_ns) / 1e9);
    }
    return with_dataplane(global, [&](DataplaneClient& client) {
      return run_record(client, options->path, static_cast<double>(*interval_ns) / 1e9);
    });
  }));
}

}  // namespace

void add_stats_commands(CLI::App& app, Commands& commands) {
  auto* top = app.add_subcommand("top", "live view: per port Mpps and Gbit/s, per stream loss and latency");
  commands.push_back(command_for(top, [](const GlobalOptions& global) {
    return with_dataplane(global, [](DataplaneClient& client) { return run_top(client); });
  }));
  add_record(app, commands);
  add_stats(app, commands);
  add_listing(
      app, commands, "lcores", "worker lcores: their TX lanes and RX queues with counters",
      [](DataplaneClient& client) { return RunClient(client).lcores_json(); }, lcores_table);
  add_histogram(app, commands);
}

}  // namespace lr::ctl
