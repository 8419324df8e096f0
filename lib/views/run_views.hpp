#pragma once
// The human views of a run, one of each, from the report's structs (the protocol's,
// lib/api/run_report.hpp): the plan, the stream table (stats, the end of a run),
// the run table (streams, then the ports' own counters) and the live line. Both programs print
// through these: `linerate` after reading the JSON back, the one-shot data plane from
// the structs it built. Pure: no DPDK, no sockets.

#include <string>
#include <vector>

#include "lib/api/run_report.hpp"

namespace lr::views {

/// The plan before a run: each port (driver, socket, checksums, link and the speed rates
/// use) with its queues' lcores, then each stream's ports, frame, rate, limit and lanes.
std::string plan_text(const api::RunPlan& plan);

/// One row per stream: tx packets, achieved Mpps, rx packets, lost, duplicate, out of
/// order, late, latency min / p50 / p99 / max; a transmit-only stream shows dashes.
std::string stream_table(const std::vector<api::StreamReport>& streams);

/// For a live view (`top`): each received stream's latest `width` timeline bins as block
/// characters scaled to its own largest bin (a blank: none received), all ending at the
/// latest bin with any frame sent or received; "" when no stream has a timeline.
std::string timeline_sparklines(const std::vector<api::StreamReport>& streams, size_t width = 60);

/// The stream table, then one row per port (driver, its own counters, frames without a
/// signature), then a warning when mbufs did not come back.
std::string run_table(const api::RunReport& report);

/// The ports' link changes during a run (each port's events after the first state seen),
/// one line each; "" when no link changed.
std::string link_changes(const api::RunReport& report);

/// What the ports were asked to pause: the MAC Control frames linerate received (per
/// priority: XOFF, XON, quanta and the pause they ask at the port's speed) and the NIC's
/// own per-priority pause counters, a few lines per port; "" when there was none.
std::string pause_text(const std::vector<api::PortReport>& ports);

/// `after` with each stream's tx rate over the interval since `before` (matched by name),
/// instead of the average since the run started: what a live view shows.
/// Per software switch, per port and priority: frames, drops by reason, PFC sent and
/// received, ECN marks, the queue's watermark and time paused; watchdog storms.
std::string switch_text(const std::vector<api::SwitchReport>& switches);

/// A line per capture: port, file, filter, frames matched / written / dropped, its state,
/// and what a trigger caught; "" when there is none.
std::string capture_text(const std::vector<api::CaptureReport>& captures);

std::vector<api::StreamReport> with_interval_rates(const std::vector<api::StreamReport>& before,
                                                   std::vector<api::StreamReport> after, double seconds);

/// "  port p0: mtu 1500 -> 2000: restored" per setting linerate changed on a port (and a
/// failed restore's reason); "" when nothing was changed.
std::string setting_change_line(const std::string& port, const api::SettingChange& change);
std::string settings_changes(const std::vector<api::PortReport>& ports);

/// One line a second while traffic runs: per port tx / rx Mpps and L1 Gbit/s between two
/// samples taken `seconds` apart (ports matched by position).
std::string live_line(double elapsed_s, const std::vector<api::PortTraffic>& before,
                      const std::vector<api::PortTraffic>& after, double seconds);

}  // namespace lr::views
