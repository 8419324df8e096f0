#pragma once
// `linerate optics watch`: optics in service. Every interval it reads each port it is
// given (kernel netdevs directly, the production case where no data plane owns the NIC, or
// ports of a serving data plane), each on its own thread with a deadline, so a slow port
// never holds the others. After each interval: news on stdout (a module swapped, a flag
// raised, a flap, uncorrectable codewords, a driver that lacks a counter: once), the
// Prometheus page on --listen, a line per port in its history ring and DIR/watch.json (what
// `linerate optics zabbix` answers from) rewritten whole. docs/guide/optics-watch.md.

#include <cstddef>
#include <string>
#include <vector>

#include "control/client/dataplane_address.hpp"
#include "control/suites/optics/optics_watch_files.hpp"

namespace lr::ctl {

struct OpticsWatchOptions {
  std::vector<std::string> netdevs;  ///< kernel netdevs read directly
  bool all_netdevs = false;          ///< every netdev but lo, those that appear later too
  std::vector<std::string> ports;    ///< ports of the serving data plane
  bool all_ports = false;
  DataplaneAddress dataplane;
  double interval_s = 10;
  double deadline_s = 0;                  ///< a read's; 0: half the interval, at most 5 s
  std::string listen = "127.0.0.1:9478";  ///< the metrics page; "none": not served
  std::string dir = optics::kOpticsWatchDir;
  size_t history_lines = 25920;  ///< kept per port: 3 days at 10 s
  unsigned count = 0;            ///< intervals to watch; 0: until SIGINT / SIGTERM
  size_t max_connections = 16;
  unsigned idle_timeout_s = 60;
};

/// Watches until SIGINT / SIGTERM or `count` intervals. Returns the exit code (2: bad
/// options or nothing to watch; 1: cannot bind --listen or write --dir; 3: no data plane).
int run_optics_watch(const OpticsWatchOptions& options);

/// The netdevs of this network namespace but lo, sorted.
std::vector<std::string> host_netdevs();

}  // namespace lr::ctl
