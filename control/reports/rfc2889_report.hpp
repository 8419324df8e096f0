#pragma once
// The RFC 2889 suite's report (`linerate bench rfc2889`) as types: one result per test (and
// pattern, frame size) in `results[]`, each run in `trials[]`. One codec, the field lists in
// rfc2889_report.cpp, writes what the suite fills and reads it back for the views (the
// printed tables, results.csv, report.html). An optional is written when set; a test's
// answer it searched for and did not find is written as null (see Result).

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lr::bench::rfc2889 {

/// Frames of a set of streams over a run, and their rates over the trial's duration.
struct FrameCounts {
  uint64_t tx_frames = 0, rx_frames = 0;
  int64_t lost_frames = 0;
  double loss_percent = 0, offered_fps = 0, forwarded_fps = 0;
  uint64_t wrong_port_frames = 0;  ///< flooded: seen at a port not the stream's receiver
  bool operator==(const FrameCounts&) const = default;
};

/// A meshed pattern's trial at one load: what it measured, or why no run measured
/// (`invalid`: then only the load and the reason are written).
struct MeshedPoint : FrameCounts {
  double load_percent = 0;
  std::optional<std::string> invalid;
  std::optional<FrameCounts> local, remote;  ///< §5.3: within a device, across the trunk
  bool operator==(const MeshedPoint&) const = default;
};

/// An address test's trial (§5.7, §5.8): `addresses` learned at `learning_rate_fps`, then
/// probed; or why no run measured (`invalid`: then only the two and the reason are written).
struct AddressTrialRow {
  uint64_t addresses = 0;
  double learning_rate_fps = 0;
  std::optional<std::string> invalid;
  uint64_t flooded_frames = 0;  ///< test frames seen at the monitor port
  int64_t lost_frames = 0;      ///< test frames the learning port did not receive
  int64_t learning_frames_lost = 0;
  bool passed = false;
  bool operator==(const AddressTrialRow&) const = default;
};

/// §5.10: what a port received of the broadcast frames.
struct PortReceived {
  std::string port;
  uint64_t rx_frames = 0;
  int64_t lost_frames = 0;
  double forwarding_rate_fps = 0;
  bool operator==(const PortReceived&) const = default;
};

/// §5.10: the latency of the broadcast copies at one port, as the data plane measured it.
struct BroadcastLatency {
  uint64_t samples = 0, min_ns = 0;
  double mean_ns = 0;
  uint64_t p99_ns = 0, max_ns = 0;
  bool operator==(const BroadcastLatency&) const = default;
};

/// §5.5: one stream toward the congested port, or the one toward the uncongested port.
struct PathFigures {
  std::string stream;
  uint64_t tx_frames = 0, rx_frames = 0;
  int64_t lost_frames = 0;
  double loss_percent = 0, offered_fps = 0;
  bool operator==(const PathFigures&) const = default;
};

/// §5.9: one kind of errored frame: its verdict and why, and for the oversize frames sent,
/// their size and how many the device forwarded.
struct ErroredCheck {
  std::optional<uint64_t> frame_size;
  std::string verdict;
  std::string why;
  std::optional<uint64_t> tx_frames, forwarded_frames;
  bool operator==(const ErroredCheck&) const = default;
};

/// neighbor_reresolution: one host, from the link coming up to the first frame the device
/// forwarded to it again (none: no frame came before the run ended).
struct HostReresolution {
  std::string host;     ///< "right[3]": the device and the host's index
  std::string address;  ///< its IPv4 address
  std::optional<double> reresolved_ms;
  int64_t lost_frames = 0;  ///< of its stream, over the whole run
  bool operator==(const HostReresolution&) const = default;
};

/// A result of `results[]`: the test, its section and verdict, and the fields its test
/// fills (the rest unset, not written). Two answers are written as null when a search did
/// not find one: a meshed pattern's `throughput_percent` (`points` set), and an address
/// test's answer (`trials` set: address_caching's `addresses`, address_learning's
/// `learning_rate_fps`) unless the search was cut short (its `*_at_least` bound set).
struct Result {
  std::string test;
  std::string section;
  std::string verdict = "measured";  ///< measured, PASS, FAIL or SKIPPED
  std::optional<std::string> why;
  std::optional<uint64_t> frame_size;
  // §5.1–5.4: the meshed patterns.
  std::optional<std::vector<MeshedPoint>> points, throughput_search;
  std::optional<double> throughput_percent;
  std::optional<std::vector<double>> throughput_bounds_percent;  ///< [lo, hi]: the search was cut short
  std::optional<double> forwarding_rate_at_max_load_fps, max_load_percent;
  std::optional<double> maximum_forwarding_rate_fps, maximum_forwarding_rate_load_percent;
  // §5.5: congestion control.
  std::optional<std::vector<PathFigures>> congested;
  std::optional<PathFigures> uncongested;
  std::optional<uint64_t> pause_frames_received;
  std::optional<bool> head_of_line_blocking, backpressure;
  // §5.7, §5.8: the address tests.
  std::optional<std::string> learning_port, test_port, monitor_port;
  std::optional<double> address_rate_fps, age_time_s, resolution_percent;
  std::optional<std::vector<AddressTrialRow>> trials;
  std::optional<uint64_t> addresses, table_entries, addresses_at_least;
  std::optional<double> learning_rate_fps, learning_rate_at_least_fps;
  std::optional<bool> at_least;  ///< the search's upper end passed: the answer is a lower bound
  // §5.9: errored frames.
  std::optional<ErroredCheck> undersize, bad_fcs, oversize;
  // §5.10: broadcast.
  std::optional<double> load_percent;
  std::optional<uint64_t> tx_frames;
  std::optional<std::vector<PortReceived>> ports;
  std::optional<double> forwarding_rate_fps;
  std::optional<std::string> latency_port;
  std::optional<BroadcastLatency> latency;
  // The neighbour tests (linerate's own, after §5.7): a routed device's neighbour table,
  // filled by emulated hosts (`hosts_device`) that `sender_device`'s first host sends to.
  std::optional<std::string> sender_device, hosts_device;
  std::optional<double> host_rate_fps;  ///< neighbor_caching: each pass's frames/s, one frame per host
  std::optional<uint64_t> hosts, hosts_at_least;  ///< neighbor_caching's answer (trials: its search)
  std::optional<double> link_down_s, timeline_bin_ms;  ///< neighbor_reresolution's flap, its timing's resolution
  std::optional<std::vector<HostReresolution>> reresolution;
  std::optional<double> reresolved_min_ms, reresolved_median_ms, reresolved_max_ms;
  std::optional<uint64_t> hosts_not_reresolved;

  /// A meshed pattern's result (§5.1–5.4).
  bool meshed() const noexcept { return points.has_value(); }
  bool operator==(const Result&) const = default;
};

/// A run of `trials[]`: its test and label, why it was invalid ("" : valid), and the data
/// plane's run report (kept as JSON; the views do not read it).
struct RunRow {
  std::string test;
  std::string label;
  std::string invalid_reason;
  nlohmann::json report;
  bool operator==(const RunRow&) const = default;
};

/// What the views read of the suite's report.json (the header, settings and times are read
/// by the summary).
struct Rfc2889Report {
  std::vector<Result> results;
  bool operator==(const Rfc2889Report&) const = default;
};

nlohmann::json to_json(const Result& r);
nlohmann::json to_json(const RunRow& r);
/// Read back; an absent field keeps its default. Throws nlohmann::json::exception, naming
/// the field, on a field of the wrong type.
Result rfc2889_result_from_json(const nlohmann::json& j);
Rfc2889Report rfc2889_report_from_json(const nlohmann::json& report);

// The nested types' codecs, in nlohmann's form (so that vectors and optionals of them are
// written and read by nlohmann's own).
void to_json(nlohmann::json& j, const FrameCounts& v);
void from_json(const nlohmann::json& j, FrameCounts& v);
void to_json(nlohmann::json& j, const MeshedPoint& v);
void from_json(const nlohmann::json& j, MeshedPoint& v);
void to_json(nlohmann::json& j, const AddressTrialRow& v);
void from_json(const nlohmann::json& j, AddressTrialRow& v);
void to_json(nlohmann::json& j, const PortReceived& v);
void from_json(const nlohmann::json& j, PortReceived& v);
void to_json(nlohmann::json& j, const BroadcastLatency& v);
void from_json(const nlohmann::json& j, BroadcastLatency& v);
void to_json(nlohmann::json& j, const PathFigures& v);
void from_json(const nlohmann::json& j, PathFigures& v);
void to_json(nlohmann::json& j, const HostReresolution& v);
void from_json(const nlohmann::json& j, HostReresolution& v);
void to_json(nlohmann::json& j, const ErroredCheck& v);
void from_json(const nlohmann::json& j, ErroredCheck& v);

}  // namespace lr::bench::rfc2889
