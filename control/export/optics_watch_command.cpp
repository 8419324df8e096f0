// `linerate optics watch`: optics in service, over kernel netdevs or a data plane's ports.

#include "control/export/optics_watch_command.hpp"

#include <fmt/format.h>

#include <memory>
#include <string>

#include "control/export/optics_watch.hpp"
#include "lib/profile/quantity.hpp"

namespace lr::ctl {

namespace {

// A duration option ("10s", "500ms") as seconds within [low, high].
CLI::Validator seconds_between(double low, double high) {
  return CLI::Validator(
      [low, high](std::string& text) -> std::string {
        const std::optional<uint64_t> ns = profile::parse_duration_ns(text);
        if (!ns) return "'" + text + "' is not a duration: write e.g. 10s, 500ms";
        const double s = static_cast<double>(*ns) / 1e9;
        if (s < low || s > high) return fmt::format("'{}' is outside {} s to {} s", text, low, high);
        text = fmt::format("{}", s);
        return "";
      },
      "DURATION");
}

}  // namespace

void add_optics_watch_command(CLI::App& optics, Commands& commands) {
  auto* watch = optics.add_subcommand(
      "watch",
      "optics in service: every port's module (monitors, thresholds, flags), FEC and link read every "
      "interval, served as Prometheus metrics, kept as history, alerting before the link drops");
  auto options = std::make_shared<OpticsWatchOptions>();
  watch->add_option("--netdev", options->netdevs, "kernel netdevs to read directly (comma-separated or repeated)")
      ->delimiter(',');
  watch->add_flag("--all-netdevs", options->all_netdevs, "every netdev of this host but lo, those added later too");
  watch->add_option("-p,--port", options->ports, "a port of the serving data plane (repeatable)");
  watch->add_flag("--all-ports", options->all_ports, "every port of the serving data plane");
  watch->add_option("--interval", options->interval_s, "how often every port is read (default 10s)")
      ->transform(seconds_between(0.1, 3600));
  watch
      ->add_option("--deadline", options->deadline_s,
                   "a port's read that has not answered this long is said late, the others go on "
                   "(default: half the interval, at most 5s)")
      ->transform(seconds_between(0.01, 3600));
  watch
      ->add_option("--listen", options->listen,
                   "ADDRESS:PORT of the metrics page (port 0: any free one; none: "
                   "not served)")
      ->capture_default_str();
  watch->add_option("--dir", options->dir, "where watch.json and each port's history ring are kept")
      ->capture_default_str();
  watch->add_option("--history-lines", options->history_lines, "readings kept per port (a ring on disk)")
      ->capture_default_str()
      ->check(CLI::Range(size_t{2}, size_t{10'000'000}));
  watch->add_option("--count", options->count, "stop after this many intervals (default: until SIGINT / SIGTERM)");
  watch->add_option("--max-connections", options->max_connections, "metrics connections served at once")
      ->capture_default_str()
      ->check(CLI::Range(size_t{1}, size_t{4096}));
  commands.push_back(command_for(watch, [options](const GlobalOptions& global) {
    if (!options->ports.empty() || options->all_ports) options->dataplane = global.dataplane();
    return run_optics_watch(*options);
  }));
}

}  // namespace lr::ctl
