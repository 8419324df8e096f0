// linerate: the control process. A client of the data plane's control socket, never of
// DPDK: every subcommand is one or a few JSON-RPC calls, printed as a table or, with
// --json, as the data plane's JSON.

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <thread>

#include "control/cli/run_command.hpp"
#include "control/cli/tables.hpp"
#include "control/cli/watch_commands.hpp"
#include "control/client/dataplane_client.hpp"
#include "control/export/http_exporter.hpp"
#include "dataplane/profile/quantity.hpp"

namespace {

using nlohmann::json;

std::atomic<bool> g_stop{false};
extern "C" void on_signal(int) { g_stop.store(true); }

// Exit codes: 0 done, 1 the data plane refused (JSON-RPC error), 2 bad arguments,
// 3 no data plane reachable.
constexpr int kExitRefused = 1;
constexpr int kExitUsage = 2;
constexpr int kExitNoDataplane = 3;

void print(const json& result, bool as_json, const std::string& table) {
  if (as_json) std::printf("%s\n", result.dump(2).c_str());
  else std::printf("%s", table.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"linerate: drives a running data plane (linerate-dataplane --serve) over its control socket.",
               "linerate"};
  app.require_subcommand(1);
  std::string socket_option;
  bool as_json = false;
  app.add_option("--socket", socket_option, "data plane socket (default: $LINERATE_SOCKET, else /run/linerate/dataplane.sock)");
  app.add_flag("--json", as_json, "print the data plane's JSON instead of a table");

  auto* run = app.add_subcommand("run", "run a profile: uses the serving data plane, or starts one for the run");
  lr::ctl::RunOptions run_options;
  run->add_option("profile", run_options.profile_path, "profile (TOML); see config/README.md")->required();
  run->add_option("-r,--report", run_options.report_path, "write the JSON report to this file");
  run->add_flag("-q,--quiet", [&](int64_t) { run_options.live = false; }, "no live lines");
  auto* exporter = app.add_subcommand("exporter", "serve Prometheus metrics of the data plane over HTTP");
  lr::ctl::ExporterOptions exporter_options;
  exporter->add_option("--listen", exporter_options.listen, "ADDRESS:PORT to listen on (port 0: any free one)")
      ->capture_default_str();
  auto* hello = app.add_subcommand("hello", "protocol version and session of the data plane");
  auto* methods = app.add_subcommand("methods", "every method the data plane answers, with its help");
  auto* ports = app.add_subcommand("ports", "ports: device, driver, NUMA socket, link, owner");
  auto* streams = app.add_subcommand("streams", "streams: ports, frame size, lanes, target rate");
  auto* top = app.add_subcommand("top", "live view: per port Mpps and Gbit/s, per stream loss and latency");
  auto* record = app.add_subcommand("record", "write stats and xstats as JSON lines until Ctrl-C");
  std::string record_path;
  std::string interval_text = "1s";
  record->add_option("file", record_path, "JSONL file (appended to)")->required();
  record->add_option("--interval", interval_text, "time between samples, e.g. 1s, 500ms")->capture_default_str();
  auto* stats = app.add_subcommand("stats", "per-stream results so far: tx, rx, loss, reorder, latency");
  bool watch = false;
  stats->add_flag("-w,--watch", watch, "refresh every second until Ctrl-C");
  auto* start = app.add_subcommand("start", "start traffic (a new run with fresh counters)");
  auto* stop = app.add_subcommand("stop", "stop traffic, drain, print the run's report");
  std::string report_path;
  stop->add_option("-r,--report", report_path, "also write the JSON report to this file");
  auto* rate = app.add_subcommand("rate", "change a stream's rate, also while it runs");
  std::string stream_name;
  std::string rate_text;
  rate->add_option("stream", stream_name, "stream name")->required();
  rate->add_option("rate", rate_text, "'10%', '1.5Mpps', '5Gbps' (L1), '5Gbps-l2' or 'max'")->required();
  auto* stop_stream = app.add_subcommand("stop-stream", "stop one stream; the others go on");
  stop_stream->add_option("stream", stream_name, "stream name")->required();
  auto* xstats = app.add_subcommand("xstats", "a port's extended statistics");
  std::string port_name;
  std::string filter;
  xstats->add_option("port", port_name, "port name")->required();
  xstats->add_option("-f,--filter", filter, "only names containing this");
  bool xstats_watch = false;
  bool xstats_rate = false;
  xstats->add_flag("-w,--watch", xstats_watch, "refresh every second until Ctrl-C");
  xstats->add_flag("--rate", xstats_rate, "with --watch: per-second change beside each value");
  auto* call = app.add_subcommand("call", "call any method: linerate call METHOD '{\"param\": ...}'");
  std::string method;
  std::string params_text = "{}";
  call->add_option("method", method, "method name (linerate methods lists them)")->required();
  call->add_option("params", params_text, "params as a JSON object");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : kExitUsage;
  }

  try {
    if (*exporter) {
      exporter_options.socket = lr::ctl::default_socket_path(socket_option);
      return lr::ctl::run_exporter(exporter_options);
    }
    if (*run) {
      run_options.socket = socket_option;
      run_options.as_json = as_json;
      return lr::ctl::run_profile(run_options);
    }
    lr::ctl::DataplaneClient client(lr::ctl::default_socket_path(socket_option));
    client.call("hello", {{"client", "linerate-cli"}});
    if (*top) return lr::ctl::run_top(client);
    if (*record) {
      const auto interval_ns = lr::profile::parse_duration_ns(interval_text);
      if (!interval_ns || *interval_ns < 10'000'000) {
        std::fprintf(stderr, "linerate: --interval '%s' is not a duration of at least 10ms (e.g. 1s, 500ms)\n",
                     interval_text.c_str());
        return kExitUsage;
      }
      return lr::ctl::run_record(client, record_path, static_cast<double>(*interval_ns) / 1e9);
    }
    if (*xstats && xstats_watch) return lr::ctl::run_xstats_watch(client, port_name, filter, xstats_rate);
    if (*hello) {
      print(client.call("hello", {{"client", "linerate-cli"}}), true, "");
    } else if (*methods) {
      const json result = client.call("methods.list");
      std::string table;
      for (const json& m : result)
        table += fmt::format("{:<18} {}{}\n", m.value("name", ""), m.value("mutating", false) ? "[changes] " : "",
                             m.value("help", ""));
      print(result, as_json, table);
    } else if (*ports) {
      const json result = client.call("port.list");
      print(result, as_json, lr::ctl::ports_table(result));
    } else if (*streams) {
      const json result = client.call("stream.list");
      print(result, as_json, lr::ctl::streams_table(result));
    } else if (*stats) {
      if (!watch) {
        const json result = client.call("stats.streams");
        print(result, as_json, lr::ctl::stream_stats_table(result));
      } else {
        std::signal(SIGINT, on_signal);
        std::signal(SIGTERM, on_signal);
        while (!g_stop.load()) {
          const json result = client.call("stats.streams");
          if (as_json) std::printf("%s\n", result.dump().c_str());
          else std::printf("\033[H\033[2J%s", lr::ctl::stream_stats_table(result).c_str());  // home + clear
          std::fflush(stdout);
          for (int i = 0; i < 10 && !g_stop.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
      }
    } else if (*start) {
      print(client.call("traffic.start"), as_json, "traffic started\n");
    } else if (*stop) {
      const json report = client.call("traffic.stop");
      if (!report_path.empty()) {
        std::ofstream out(report_path, std::ios::trunc);
        out << report.dump(2) << "\n";
        if (!out) {
          std::fprintf(stderr, "linerate: writing %s failed\n", report_path.c_str());
          return kExitRefused;
        }
      }
      print(report, as_json, lr::ctl::report_table(report));
    } else if (*rate) {
      const json result = client.call("stream.set_rate", {{"stream", stream_name}, {"rate", rate_text}});
      const json target = result.value("target_pps", json());
      print(result, as_json,
            fmt::format("stream '{}' now at {}\n", stream_name,
                        target.is_number() ? fmt::format("{:.6f} Mpps", target.get<double>() / 1e6) : "max rate"));
    } else if (*stop_stream) {
      print(client.call("stream.stop", {{"stream", stream_name}}), as_json, fmt::format("stream '{}' stopped\n", stream_name));
    } else if (*xstats) {
      json params{{"port", port_name}};
      if (!filter.empty()) params["filter"] = filter;
      const json result = client.call("port.xstats", params);
      std::string table;
      for (const auto& [name, value] : result.items()) table += fmt::format("{:<40} {:>20}\n", name, value.dump());
      print(result, as_json, table);
    } else if (*call) {
      json params;
      try {
        params = json::parse(params_text);
      } catch (const json::exception& error) {
        std::fprintf(stderr, "linerate: params is not JSON: %s\n", error.what());
        return kExitUsage;
      }
      print(client.call(method, params), true, "");
    }
  } catch (const lr::ctl::ConnectionError& error) {
    std::fprintf(stderr, "linerate: %s\n", error.what());
    return kExitNoDataplane;
  } catch (const lr::ctl::RpcCallError& error) {
    std::fprintf(stderr, "linerate: %s (error %d)\n", error.what(), error.code());
    return kExitRefused;
  }
  return 0;
}
