#pragma once
// A benchmark suite's report (`linerate bench rfc2544 | ndr`) as types: the answers per
// frame size, every trial, the layout. The procedures fill these structs and one codec per
// type (to_json / *_from_json) writes them (config/README.md lists the keys); the views
// (report.html, results.csv) and the printed tables read the report back through it.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace lr::bench {

/// Latency over a trial, or over several trials merged, in ns.
struct LatencyNs {
  uint64_t samples = 0;
  double min = 0, mean = 0, p50 = 0, p99 = 0, p999 = 0, max = 0, jitter = 0;
  bool operator==(const LatencyNs&) const = default;
};

/// A frame size as the report names it: its bytes ("64"), or the mix's name ("imix").
struct FrameSizeName {
  std::string text;
  bool operator==(const FrameSizeName&) const = default;
};

/// A port pair's share of a trial: the streams from `tx_port` to `rx_port`, their frames
/// (distinct frames received) and what TX sent.
struct PairFigures {
  std::string tx_port, rx_port;
  int64_t streams = 0;
  uint64_t tx_packets = 0, rx_packets = 0;
  int64_t lost = 0;
  double pps = 0, l1_bps = 0;
  bool operator==(const PairFigures&) const = default;
};

/// A rate found per frame size: the throughput (RFC 2544 §26.1), the NDR or the PDR; or
/// none (`percent_line_rate` unset, written as null) with `why`.
struct RateAnswer {
  FrameSizeName frame_size;
  double frame_bytes_mean = 0;
  std::optional<double> rate_percent;       ///< asked: the rate the search found
  std::optional<double> percent_line_rate;  ///< offered: what TX sent in the trial at it
  std::optional<double> pps, l1_bps, l2_bps;
  std::optional<double> loss_percent;       ///< NDR / PDR: the loss at the answer
  std::optional<uint64_t> trials;           ///< throughput: the search's trials
  std::optional<std::string> limited_by;    ///< an answer: device, line rate or tester
  std::optional<std::string> why;           ///< no answer: why
  std::optional<std::string> method;        ///< NDR / PDR by MLRsearch: "mlrsearch"
  std::vector<double> tester_limited_at_percent;
  std::optional<LatencyNs> latency_ns;
  std::optional<std::vector<PairFigures>> per_pair;  ///< an answer: its trial by port pair
  bool operator==(const RateAnswer&) const = default;
};

/// One latency trial's summary, and the frames it lost.
struct TrialLatency : LatencyNs {
  int64_t lost = 0;
  bool operator==(const TrialLatency&) const = default;
};

/// §26.2: the latency at a size's throughput across its trials. Two shapes: measured
/// (`rate_percent` set: its trials, `offered_percent` null when none was valid), or not
/// measured (no throughput at the size): `frame_size` and `why` alone.
struct LatencyAnswer {
  FrameSizeName frame_size;
  std::optional<double> rate_percent, offered_percent;
  uint64_t trials = 0, invalid_trials = 0;
  int64_t lost = 0;
  std::optional<LatencyNs> across_trials;
  std::string why;  ///< no throughput to measure at
  std::vector<TrialLatency> per_trial;  ///< the valid trials
  std::optional<std::string> note;      ///< frames lost during the trials
  bool operator==(const LatencyAnswer&) const = default;
};

/// §26.3: one load of the frame-loss curve.
struct FrameLossPoint {
  FrameSizeName frame_size;
  double rate_percent = 0, offered_percent = 0, loss_percent = 0;
  bool valid = true;
  std::optional<std::string> note;  ///< the tester sent short, and the device lost frames anyway
  bool operator==(const FrameLossPoint&) const = default;
};

/// §26.4 / RFC 9004: the longest loss-free burst at line rate, over the searches.
struct BackToBackAnswer {
  FrameSizeName frame_size;
  uint64_t searches = 0;
  std::vector<uint64_t> bursts;
  std::optional<double> mean_frames;
  std::optional<uint64_t> min_frames, max_frames;
  uint64_t max_burst_frames = 0;
  double line_rate_pps = 0;
  std::optional<double> implied_buffer_time_s, corrected_buffer_time_s, throughput_percent, buffered_frames;
  std::optional<uint64_t> lost_at_frames;  ///< the tester ended the search: the shortest burst the device lost
  std::optional<std::string> note;
  bool operator==(const BackToBackAnswer&) const = default;
};

/// A trial as `trials[]` holds it (its data plane run report stays JSON in the file).
struct TrialRow {
  std::string test = "throughput";
  FrameSizeName frame_size;
  double frame_bytes_mean = 0;
  double rate_percent = 0, offered_percent = 0, offered_pps = 0, offered_l1_bps = 0, loss_percent = 0;
  std::optional<double> duration_s, warm_up_s;
  std::optional<uint64_t> burst_frames;
  uint64_t tx_packets = 0, rx_packets = 0;
  int64_t lost = 0;
  bool passed = false, confirmation = false, valid = true, lost_though_sent_short = false, interrupted = false;
  std::string invalid_reason;
  std::optional<LatencyNs> latency_ns;
  /// Counted as the device's (valid, or lost frames although the tester sent short).
  bool counted() const noexcept { return valid || lost_though_sent_short; }
  bool operator==(const TrialRow&) const = default;
};

/// MLRsearch (RFC 9971): one goal's answer at a frame size, as `mlrsearch[].goals[]` holds
/// it, with the goal's settings. The bounds and the conditional throughput are written as
/// null when there is none; `note` only when there is one.
struct MlrGoalAnswer {
  std::string name;
  double loss_ratio = 0, exceed_ratio = 0;
  double relative_width = 0, initial_trial_duration_s = 0, final_trial_duration_s = 0, duration_sum_s = 0;
  uint64_t preceding_targets = 0;
  std::optional<double> relevant_lower_bound_percent, relevant_upper_bound_percent;
  std::optional<double> conditional_throughput_percent, conditional_throughput_pps, conditional_throughput_l1_bps;
  bool tester_limited = false;
  std::string note;  ///< why a bound is missing
  bool operator==(const MlrGoalAnswer&) const = default;
};

/// One trial MLRsearch ran at a load: how long, and the share of frames lost.
struct MlrTrialFigures {
  double duration_s = 0, loss_ratio = 0;
  bool operator==(const MlrTrialFigures&) const = default;
};

/// A load MLRsearch tried, and its trials.
struct MlrLoad {
  double load_percent = 0;
  std::vector<MlrTrialFigures> trials;
  bool operator==(const MlrLoad&) const = default;
};

/// A frame size's MLRsearch: its goals' answers, the loads it tried and its trials in all.
struct MlrSizeAnswer {
  FrameSizeName frame_size;
  std::vector<MlrGoalAnswer> goals;
  std::vector<MlrLoad> loads;
  uint64_t trials = 0;
  bool operator==(const MlrSizeAnswer&) const = default;
};

struct StreamLayout {
  std::string stream, tx_port, rx_port;
  bool operator==(const StreamLayout&) const = default;
};

/// What the views read of a suite's report.json (the hand-over, settings and times are
/// read by the summary).
struct BenchReport {
  std::string suite = "rfc2544";  ///< rfc2544 or ndr
  double loss_tolerance_percent = 0;      ///< settings: the throughput's (NDR's) loss tolerance
  double pdr_loss_tolerance_percent = 0;  ///< settings (ndr): the PDR's
  std::vector<StreamLayout> layout;
  std::vector<RateAnswer> throughput, ndr, pdr;
  std::vector<LatencyAnswer> latency;
  std::vector<FrameLossPoint> frame_loss;
  std::vector<BackToBackAnswer> back_to_back;
  std::vector<MlrSizeAnswer> mlrsearch;  ///< ndr with method = "mlrsearch"
  std::vector<TrialRow> trials;
  std::vector<std::string> warnings;
  bool operator==(const BenchReport&) const = default;
};

/// What limited an answer, or why there is none ("" when the report says neither).
std::string limit_or_why(const RateAnswer& r);

nlohmann::json to_json(const LatencyNs& l);
nlohmann::json to_json(const PairFigures& p);
nlohmann::json to_json(const TrialLatency& t);
nlohmann::json to_json(const RateAnswer& r);
/// Its bytes as a number, or the mix's name as text.
nlohmann::json to_json(const FrameSizeName& s);
nlohmann::json to_json(const LatencyAnswer& r);
nlohmann::json to_json(const FrameLossPoint& p);
nlohmann::json to_json(const BackToBackAnswer& r);
nlohmann::json to_json(const TrialRow& t);
nlohmann::json to_json(const MlrGoalAnswer& g);
nlohmann::json to_json(const MlrSizeAnswer& m);
/// The report's typed parts, for a round trip; a suite's report holds more (settings, times).
nlohmann::json to_json(const BenchReport& r);

/// Each answer read alone (a report's item); the codec's other half.
RateAnswer rate_answer_from_json(const nlohmann::json& j);
LatencyAnswer latency_answer_from_json(const nlohmann::json& j);
FrameLossPoint frame_loss_point_from_json(const nlohmann::json& j);
BackToBackAnswer back_to_back_from_json(const nlohmann::json& j);

/// Read back; an absent field keeps its default. Throws nlohmann::json::exception on a
/// field of the wrong type.
BenchReport bench_report_from_json(const nlohmann::json& report);

}  // namespace lr::bench
