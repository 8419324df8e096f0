#include "dataplane/mgmt/telemetry.hpp"

#include <rte_telemetry.h>

#include <cstring>
#include <mutex>

namespace lr::dp {

namespace {

struct Snapshot {
  std::mutex mutex;  // taken by mgmt (publish) and the telemetry thread (commands), never by lcores
  std::vector<api::StreamReport> streams;
};

Snapshot& snapshot() {
  static Snapshot instance;
  return instance;
}

int streams_command(const char* /*cmd*/, const char* /*params*/, rte_tel_data* data) {
  Snapshot& s = snapshot();
  std::lock_guard lock(s.mutex);
  rte_tel_data_start_array(data, RTE_TEL_STRING_VAL);
  for (const api::StreamReport& r : s.streams) rte_tel_data_add_array_string(data, r.name.c_str());
  return 0;
}

int stream_command(const char* /*cmd*/, const char* params, rte_tel_data* data) {
  if (params == nullptr || *params == '\0') return -EINVAL;
  Snapshot& s = snapshot();
  std::lock_guard lock(s.mutex);
  for (const api::StreamReport& r : s.streams) {
    if (r.name != params) continue;
    rte_tel_data_start_dict(data);
    rte_tel_data_add_dict_string(data, "name", r.name.c_str());
    rte_tel_data_add_dict_u64(data, "tx_packets", r.tx_packets);
    rte_tel_data_add_dict_u64(data, "tx_bytes", r.tx_bytes);
    rte_tel_data_add_dict_u64(data, "tx_pps_achieved", static_cast<uint64_t>(r.tx_pps_achieved));
    if (r.rx_port) {
      rte_tel_data_add_dict_u64(data, "rx_packets", r.rx_packets);
      rte_tel_data_add_dict_u64(data, "rx_bytes", r.rx_bytes);
      rte_tel_data_add_dict_u64(data, "lost", r.lost > 0 ? static_cast<uint64_t>(r.lost) : 0);
      rte_tel_data_add_dict_u64(data, "duplicate", r.duplicate);
      rte_tel_data_add_dict_u64(data, "out_of_order", r.out_of_order);
      rte_tel_data_add_dict_u64(data, "late", r.late);
      rte_tel_data_add_dict_u64(data, "latency_min_ns", r.latency.min_ns);
      rte_tel_data_add_dict_u64(data, "latency_p50_ns", r.latency.p50_ns);
      rte_tel_data_add_dict_u64(data, "latency_p99_ns", r.latency.p99_ns);
      rte_tel_data_add_dict_u64(data, "latency_max_ns", r.latency.max_ns);
    }
    return 0;
  }
  return -ENOENT;
}

}  // namespace

void register_telemetry_commands() {
  rte_telemetry_register_cmd("/linerate/streams", streams_command, "Names of linerate's streams. Takes no parameters");
  rte_telemetry_register_cmd("/linerate/stream", stream_command,
                             "A linerate stream's counters and latency in ns (about a second old). Parameter: name");
}

void publish_stream_stats(const std::vector<api::StreamReport>& streams) {
  Snapshot& s = snapshot();
  std::lock_guard lock(s.mutex);
  s.streams = streams;
}

}  // namespace lr::dp
