#pragma once
// linerate's stream statistics as DPDK telemetry commands, so dpdk-telemetry.py (and
// anything speaking the telemetry socket) can read them next to ethdev's:
//   /linerate/streams          names of the streams
//   /linerate/stream,NAME      one stream's counters and latency (ns)
// DPDK answers these on its telemetry thread, which never touches lcore memory: mgmt
// publishes a snapshot (publish_stream_stats, about once a second) and the callbacks
// read that under a mutex.

#include <vector>

#include "lib/api/run_report.hpp"

namespace lr::dp {

/// Registers the commands (once per process; after rte_eal_init). Thread: mgmt.
void register_telemetry_commands();

/// Replaces the snapshot the telemetry commands answer from. Thread: mgmt.
void publish_stream_stats(const std::vector<api::StreamReport>& streams);

}  // namespace lr::dp
