// linerate: the control process. A client of the data plane's control socket, never of
// DPDK: every subcommand is one or a few JSON-RPC calls, printed as a table or, with
// --json, as the data plane's JSON.

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "control/bench/lossless_command.hpp"
#include "control/bench/ndr_command.hpp"
#include "control/bench/rfc2544_command.hpp"
#include "control/cli/completion.hpp"
#include "control/cli/frames_command.hpp"
#include "control/cli/module_command.hpp"
#include "control/cli/port_commands.hpp"
#include "control/cli/report_views_command.hpp"
#include "control/cli/run_command.hpp"
#include "control/cli/tables.hpp"
#include "control/cli/watch_commands.hpp"
#include "control/client/dataplane_client.hpp"
#include "control/doctor/doctor_command.hpp"
#include "control/export/http_exporter.hpp"
#include "control/optics/qualify_command.hpp"
#include "dataplane/profile/quantity.hpp"
#include "dataplane/views/report_file.hpp"
#include "dataplane/views/run_views.hpp"

namespace {

using nlohmann::json;

// Exit codes: 0 done, 1 the data plane refused (JSON-RPC error), 2 bad arguments,
// 3 no data plane reachable.
constexpr int kExitRefused = 1;
constexpr int kExitUsage = 2;
constexpr int kExitNoDataplane = 3;
constexpr int kExitReportFile = 4;

void print(const json& result, bool as_json, const std::string& table) {
  if (as_json) std::printf("%s\n", result.dump(2).c_str());
  else std::printf("%s", table.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"linerate: drives a running data plane (linerate-dataplane --serve) over its control socket.",
               "linerate"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "linerate " LR_VERSION);
  // Options of linerate itself (--json, --socket) are taken after the subcommand too:
  // `linerate ports --json` as `linerate --json ports`. Set before the subcommands are made,
  // which inherit it.
  app.fallthrough();
  std::string socket_option;
  bool as_json = false;
  app.add_option("--socket", socket_option, "data plane socket (default: $LINERATE_SOCKET, else /run/linerate/dataplane.sock)");
  app.add_flag("--json", as_json, "print the data plane's JSON instead of a table");

  auto* run = app.add_subcommand("run", "run a profile: uses the serving data plane, or starts one for the run");
  lr::ctl::RunOptions run_options;
  run->add_option("profile", run_options.profile_path, "profile (TOML); see config/README.md")->required();
  run->add_option("-r,--report", run_options.report_path, "write the JSON report to this file");
  run->add_flag("-q,--quiet", [&](int64_t) { run_options.live = false; }, "no live lines");
  run->add_flag("--adopt-ports", run_options.adopt_ports,
                "with a serving data plane whose ports differ from the profile's: run on its ports, saying how they differ");
  run->add_flag("--plan-only", run_options.plan_only, "print the plan (ports, queues, lcores, rates) and run nothing");
  auto* module = app.add_subcommand("module", "optical / copper module EEPROM");
  module->require_subcommand(1);
  auto* module_decode = module->add_subcommand("decode", "decode a saved EEPROM image (ethtool -m IFACE raw on > FILE)");
  std::string module_file;
  bool module_hex = false;
  module_decode->add_option("file", module_file, "image: SFF-8472 256 / 512 bytes, SFF-8636 256 / 640, CMIS 256 / 768")->required();
  module_decode->add_flag("--hex", module_hex, "also print the bytes");
  const lr::ctl::PortCommands port_commands(app, *module);
  auto* exporter = app.add_subcommand("exporter", "serve Prometheus metrics of the data plane over HTTP");
  lr::ctl::ExporterOptions exporter_options;
  exporter->add_option("--listen", exporter_options.listen, "ADDRESS:PORT to listen on (port 0: any free one)")
      ->capture_default_str();
  auto* hello = app.add_subcommand("hello", "protocol version and session of the data plane");
  auto* methods = app.add_subcommand("methods", "every method the data plane answers, with its help");
  auto* ports = app.add_subcommand("ports", "ports: device, driver, NUMA socket, link, owner");
  auto* streams = app.add_subcommand("streams", "streams: ports, frame size, lanes, target rate");
  auto* top = app.add_subcommand("top", "live view: per port Mpps and Gbit/s, per stream loss and latency");
  auto* record = app.add_subcommand("record", "write stats and the merged port counters as JSON lines until Ctrl-C");
  std::string record_path;
  std::string interval_text = "1s";
  record->add_option("file", record_path, "JSONL file (appended to)")->required();
  record->add_option("--interval", interval_text, "time between samples, e.g. 1s, 500ms")->capture_default_str();
  auto* stats = app.add_subcommand("stats", "per-stream results so far: tx, rx, loss, reorder, latency");
  bool watch = false;
  stats->add_flag("-w,--watch", watch, "refresh every second until Ctrl-C");
  auto* start = app.add_subcommand("start", "start traffic (a new run with fresh counters)");
  std::vector<std::string> only_streams;
  std::vector<std::string> only_ports;
  start->add_option("-s,--stream", only_streams, "only this stream (repeatable)");
  start->add_option("-p,--port", only_ports, "only the streams sent from this port (repeatable)");
  auto* stop = app.add_subcommand("stop", "stop traffic, drain, print the run's report");
  std::string report_path;
  stop->add_option("-r,--report", report_path, "also write the JSON report to this file");
  stop->add_option("-s,--stream", only_streams, "stop only this stream; the run goes on (repeatable)");
  stop->add_option("-p,--port", only_ports, "stop only the streams sent from this port (repeatable)");
  auto* report = app.add_subcommand("report", "the last run's report (--last), or a benchmark's views rebuilt from its "
                                               "report.json");
  bool last_report = false;
  lr::ctl::ReportViewsOptions report_views;
  auto* last_flag = report->add_flag("--last", last_report, "the last run that ended (the data plane keeps it)");
  auto* report_file = report->add_option("report_json", report_views.report_path,
                                         "a benchmark's report.json: rebuild report.html / results.csv from it")
                          ->check(CLI::ExistingFile)->excludes(last_flag);
  report->add_option("--html", report_views.html_path, "with report_json: write the HTML page here")->needs(report_file);
  report->add_option("--csv", report_views.csv_path, "with report_json: write results.csv here (default: stdout)")
      ->needs(report_file);
  report->add_option("-r,--report", report_path, "with --last: also write it to this file")->excludes(report_file);
  auto* load = app.add_subcommand("load", "replace the data plane's streams with a profile's");
  auto* stream_add = app.add_subcommand("stream-add", "add the streams of a profile to the data plane's");
  std::string profile_file;
  load->add_option("profile", profile_file, "profile (TOML)")->required()->check(CLI::ExistingFile);
  stream_add->add_option("profile", profile_file, "profile (TOML) whose [[stream]] tables to add")
      ->required()
      ->check(CLI::ExistingFile);
  auto* stream_remove = app.add_subcommand("stream-remove", "remove a stream");
  auto* port_set = app.add_subcommand("port-set", "change a port: promiscuous mode, link up / down, MTU");
  std::string promiscuous;
  std::string link;
  int mtu = 0;
  port_set->add_option("--promiscuous", promiscuous, "on or off")->check(CLI::IsMember({"on", "off"}));
  port_set->add_option("--link", link, "up or down")->check(CLI::IsMember({"up", "down"}));
  port_set->add_option("--mtu", mtu, "MTU in bytes (traffic stopped)")->check(CLI::Range(68, 9600));
  bool keep_mtu = false;
  port_set->add_flag("--keep", keep_mtu, "MTU and promiscuous mode stay after the data plane exits (else the port's own are put back)");
  std::string port_state;
  port_set->add_option("--state", port_state, "started or stopped (traffic stopped)")
      ->check(CLI::IsMember({"started", "stopped"}));
  auto* lcores = app.add_subcommand("lcores", "worker lcores: their TX lanes and RX queues with counters");
  auto* histogram = app.add_subcommand("histogram", "a stream's latency histogram");
  auto* rate = app.add_subcommand("rate", "change a stream's rate, also while it runs");
  std::string stream_name;
  std::string rate_text;
  rate->add_option("stream", stream_name, "stream name")->required();
  rate->add_option("rate", rate_text, "'10%', '1.5Mpps', '5Gbps' (L1), '5Gbps-l2' or 'max'")->required();
  auto* stop_stream = app.add_subcommand("stop-stream", "stop one stream; the others go on");
  stop_stream->add_option("stream", stream_name, "stream name")->required();
  stream_remove->add_option("stream", stream_name, "stream name")->required();
  histogram->add_option("stream", stream_name, "stream name")->required();
  bool every_bucket = false;
  histogram->add_flag("--buckets", every_bucket, "every non-empty bucket (1.6 % wide) instead of power-of-two ranges");
  auto* xstats = app.add_subcommand(
      "xstats", "a port's counters from every source (ethdev, xstats, ethtool -S, FEC) under one naming scheme");
  std::string port_name;
  port_set->add_option("port", port_name, "port name")->required();
  std::string filter;
  xstats->add_option("port", port_name, "port name")->required();
  xstats->add_option("-f,--filter", filter, "only counters whose name or canonical name contains this");
  bool xstats_watch = false;
  bool xstats_rate = false;
  xstats->add_flag("-w,--watch", xstats_watch, "refresh every second until Ctrl-C");
  xstats->add_flag("--rate", xstats_rate, "with --watch: per-second change beside each value");
  auto* bench = app.add_subcommand("bench", "benchmark procedures over a profile's streams (RFC 2544, NDR / PDR, the lossless test plan)");
  bench->require_subcommand(1);
  lr::bench::BenchOptions bench_options;
  auto* rfc2544 = bench->add_subcommand("rfc2544", "RFC 2544 throughput, latency, frame loss and back-to-back per frame "
                                                   "size, from the profile's [rfc2544]");
  auto* ndr = bench->add_subcommand("ndr", "no-drop and partial-drop rates per frame size, from the profile's [ndr]");
  auto* lossless = bench->add_subcommand("lossless", "the lossless-fabric test plan (PFC, PAUSE, response time, quanta, "
                                                     "incast, ECN) with verdicts, from the profile's [lossless]");
  for (const auto& [suite, section] :
       {std::pair{rfc2544, "rfc2544"}, std::pair{ndr, "ndr"}, std::pair{lossless, "lossless"}}) {
    suite->add_option("profile", bench_options.profile_path, fmt::format("profile (TOML) with an [{}] section", section))
        ->required()->check(CLI::ExistingFile);
    suite->add_option("--report-dir", bench_options.report_dir,
                      fmt::format("where report.json, results.csv and report.html go (default: {}-<UTC time>)", section));
    suite->add_flag("--adopt-ports", bench_options.adopt_ports, "as for run: use a serving data plane's ports as they are");
  }
  auto* doctor = app.add_subcommand("doctor", "check the host for what keeps a port from line rate (NUMA, PCIe, "
                                               "hugepages, isolation, governor, ASPM, driver, IRQs, RoCE, kernel log)");
  lr::doctor::DoctorOptions doctor_options;
  doctor->add_option("pci", doctor_options.pci, "ports by PCI address (default: the profile's, else every NIC found)");
  doctor->add_option("--profile", doctor_options.profile_path, "the profile whose lcores and ports to check")
      ->check(CLI::ExistingFile);
  doctor->add_option("--prometheus", doctor_options.prometheus_path,
                     "also write the verdicts to this file for node_exporter's textfile collector");
  doctor->add_option("--gid-index", doctor_options.gid_index,
                     "the RoCE GID index the RDMA application uses (perftest -x, NCCL_IB_GID_INDEX): must be RoCE v2");
  doctor->add_option("--fec-window", doctor_options.fec_window_s,
                     "seconds to count FEC corrections on each port with a kernel netdev (default 5; 0: skip)")
      ->check(CLI::Range(0.0, 3600.0));
  doctor->add_option("--root", doctor_options.root, "where sysfs and procfs are mounted (a container's view of the host)")
      ->check(CLI::ExistingDirectory);
  auto* optics = app.add_subcommand("optics", "optical modules and cables: qualification in loopback");
  optics->require_subcommand(1);
  auto* qualify = optics->add_subcommand("qualify", "module, link and FEC, then traffic with every counter and monitor "
                                                    "sampled: a verdict per criterion and port (the profile's [qualify])");
  lr::optics::QualifyOptions qualify_options;
  qualify->add_option("profile", qualify_options.profile_path, "profile (TOML) with a [qualify] section")
      ->check(CLI::ExistingFile);
  qualify->add_option("-p,--port", qualify_options.ports,
                      "qualify this port (repeatable); without a profile: on the serving data plane, with its streams");
  qualify->add_option("--duration", qualify_options.duration, "how long the traffic runs: 'auto' or e.g. '75s' "
                                                              "(overrides [qualify] duration)");
  qualify->add_option("--report-dir", qualify_options.report_dir,
                      "where report.json, summary.csv and report.html go (default: qualify-<UTC time>)");
  qualify->add_flag("--adopt-ports", qualify_options.adopt_ports, "as for run: use a serving data plane's ports as they are");
  auto* frames = app.add_subcommand("frames", "the frames a profile's streams will send, exactly, without sending them");
  lr::ctl::FramesOptions frames_options;
  frames->add_option("profile", frames_options.profile_path, "profile (TOML)")->required()->check(CLI::ExistingFile);
  frames->add_option("-s,--stream", frames_options.stream, "only this stream (default: every stream)");
  frames->add_option("-n,--count", frames_options.count, "frames per stream (default 4)")->check(CLI::Range(1, 1000000));
  auto* frames_pcap = frames->add_option("--pcap", frames_options.pcap_path, "write them to this pcap file (Wireshark, tshark)");
  frames->add_flag("--hex", frames_options.hex, "one line per frame: stream, lane, seq, hex")->excludes(frames_pcap);
  auto* completion = app.add_subcommand("completion", "print the bash completion script: source <(linerate completion bash)");
  std::string shell;
  completion->add_option("shell", shell, "bash")->required()->check(CLI::IsMember({"bash"}));
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
    if (*completion) {
      std::printf("%s", lr::ctl::bash_completion(app).c_str());
      return 0;
    }
    if (*module_decode) return lr::ctl::decode_module_file(module_file, as_json, module_hex);
    if (*rfc2544 || *ndr || *lossless) {
      bench_options.socket = socket_option;
      if (*lossless) return lr::bench::run_lossless(bench_options);
      return *ndr ? lr::bench::run_ndr(bench_options) : lr::bench::run_rfc2544(bench_options);
    }
    if (*qualify) {
      qualify_options.socket = socket_option;
      return lr::optics::run_optics_qualify(qualify_options);
    }
    if (*report && !report_views.report_path.empty()) return lr::ctl::rebuild_report_views(report_views);
    if (*doctor) {
      doctor_options.as_json = as_json;
      return lr::doctor::run_doctor_command(doctor_options);
    }
    if (*frames) {
      frames_options.as_json = as_json;
      return lr::ctl::show_frames(frames_options);
    }
    if (*exporter) {
      exporter_options.socket = lr::ctl::default_socket_path(socket_option);
      return lr::ctl::run_exporter(exporter_options);
    }
    if (*run) {
      run_options.socket = socket_option;
      run_options.as_json = as_json;
      return lr::ctl::run_profile(run_options);
    }
    // Before anything stops: a report must never be lost to a bad path.
    if (const std::string problem = lr::views::report_path_problem(report_path); (*stop || *report) && !problem.empty()) {
      std::fprintf(stderr, "linerate: cannot write the report file '%s': %s\n", report_path.c_str(), problem.c_str());
      return kExitReportFile;
    }
    lr::ctl::DataplaneClient client(lr::ctl::default_socket_path(socket_option));
    client.call("hello", {{"client", "linerate-cli"}});
    if (*top) return lr::ctl::run_top(client);
    if (port_commands.chosen()) return port_commands.run(client, as_json);
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
        if (as_json) {
          print(result, as_json, "");
        } else {
          print(result, as_json,
                lr::views::stream_table(lr::ctl::stream_reports(result)) +
                    lr::ctl::below_stream_table(client, client.call("stats.ports")));
        }
      } else {
        return lr::ctl::run_stats_watch(client, as_json);
      }
    } else if (*start) {
      json params = json::object();
      if (!only_streams.empty()) params["streams"] = only_streams;
      if (!only_ports.empty()) params["ports"] = only_ports;
      print(client.call("traffic.start", params), as_json, "traffic started\n");
    } else if (*stop && (!only_streams.empty() || !only_ports.empty())) {
      json params = json::object();
      if (!only_streams.empty()) params["streams"] = only_streams;
      if (!only_ports.empty()) params["ports"] = only_ports;
      const json result = client.call("traffic.stop", params);
      print(result, as_json, fmt::format("stopped: {}\n", fmt::join(result.value("stopped", std::vector<std::string>{}), ", ")));
    } else if (*load || *stream_add) {
      std::ifstream in(profile_file);
      std::stringstream text;
      text << in.rdbuf();
      const json result = client.call(*load ? "stream.load" : "stream.add", {{"profile", text.str()}, {"path", profile_file}});
      const json names = result.contains("streams") ? result["streams"] : result.value("added", json::array());
      print(result, as_json, fmt::format("streams: {}\n", fmt::join(names.get<std::vector<std::string>>(), ", ")));
    } else if (*stream_remove) {
      print(client.call("stream.remove", {{"stream", stream_name}}), as_json, fmt::format("stream '{}' removed\n", stream_name));
    } else if (*port_set) {
      json params{{"port", port_name}};
      if (!promiscuous.empty()) params["promiscuous"] = promiscuous == "on";
      if (mtu != 0) params["mtu"] = mtu;
      if (keep_mtu) params["keep"] = true;
      if (!port_state.empty()) params["state"] = port_state;
      if (!link.empty()) client.call("port.link.set", {{"port", port_name}, {"up", link == "up"}});
      const json result = client.call("port.config.set", params);  // with no change: the port as it now is
      print(result, as_json, lr::ctl::ports_table(json::array({result})));
    } else if (*lcores) {
      const json result = client.call("stats.lcores");
      std::string table = fmt::format("{:>6} {:>6}  {}\n", "lcore", "socket", "work");
      for (const json& l : result) {
        std::string work;
        for (const json& lane : l["tx_lanes"])
          work += fmt::format("tx {}#{} port {} q{} ({} frames)  ", lane.value("stream", ""), lane.value("lane", 0),
                              lane.value("port_id", 0), lane.value("queue", 0), lane.value("tx_packets", uint64_t{0}));
        for (const json& q : l["rx_queues"])
          work += fmt::format("rx port {} q{} ({} frames)  ", q.value("port_id", 0), q.value("queue", 0),
                              q.value("rx_packets", uint64_t{0}));
        table += fmt::format("{:>6} {:>6}  {}\n", l.value("lcore", 0), l.value("socket", 0), work);
      }
      print(result, as_json, table);
    } else if (*histogram) {
      const json result = client.call("stats.histogram", {{"stream", stream_name}});
      lr::api::LatencySummary latency;
      for (const lr::api::StreamReport& s : lr::ctl::stream_reports(client.call("stats.streams")))
        if (s.name == stream_name) latency = s.latency;
      print(result, as_json, lr::ctl::histogram_text(result, latency, every_bucket));
    } else if (*stop || *report) {
      const json result = client.call(*stop ? "traffic.stop" : "report.last");
      print(result, as_json, lr::views::run_table(lr::api::run_report_from_json(result)));
      if (!report_path.empty()) {
        if (const std::string failed = lr::views::write_report_file(report_path, result.dump(2) + "\n"); !failed.empty()) {
          std::fprintf(stderr, "linerate: writing the report file '%s' failed: %s; `linerate report --last` still "
                       "returns it\n", report_path.c_str(), failed.c_str());
          return kExitReportFile;
        }
      }
    } else if (*rate) {
      const json result = client.call("stream.rate.set", {{"stream", stream_name}, {"rate", rate_text}});
      const json target = result.value("target_pps", json());
      print(result, as_json,
            fmt::format("stream '{}' now at {}\n", stream_name,
                        target.is_number() ? fmt::format("{:.6f} Mpps", target.get<double>() / 1e6) : "max rate"));
    } else if (*stop_stream) {
      print(client.call("stream.stop", {{"stream", stream_name}}), as_json, fmt::format("stream '{}' stopped\n", stream_name));
    } else if (*xstats) {
      json params{{"port", port_name}};
      if (!filter.empty()) params["filter"] = filter;
      const json result = client.call("port.counters", params);
      print(result, as_json, lr::ctl::counters_table(result));
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
