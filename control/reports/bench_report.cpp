#include "control/reports/bench_report.hpp"

#include <fmt/format.h>

#include <charconv>
#include <type_traits>

#include "lib/api/json_fields.hpp"

namespace lr::bench {

using nlohmann::json;

namespace {

// The field walkers: each struct lists its fields once (fields()), written and read by
// the same list. An optional is written when set and read when present and not null.
template <class T>
void put(json& j, const char* key, const T& v) {
  j[key] = v;
}
void put(json& j, const char* key, const FrameSizeName& v) { j[key] = to_json(v); }
void put(json& j, const char* key, const LatencyNs& v) { j[key] = to_json(v); }
void put(json& j, const char* key, const std::vector<PairFigures>& v) { j[key] = api::json_array(v); }
void put(json& j, const char* key, const std::vector<TrialLatency>& v) { j[key] = api::json_array(v); }
template <class T>
void put(json& j, const char* key, const std::optional<T>& v) {
  if (v) put(j, key, *v);
}

template <class T>
void get(const json& v, T& out) {
  api::get_checked(v, out);
}
void get(const json& v, FrameSizeName& out) { out.text = v.is_string() ? v.get<std::string>() : v.dump(); }
LatencyNs latency_from_json(const json& j);
void get(const json& v, LatencyNs& out) { out = latency_from_json(v); }
template <class T>
void get_items(const json& v, std::vector<T>& out);
void get(const json& v, std::vector<PairFigures>& out) { get_items(v, out); }
void get(const json& v, std::vector<TrialLatency>& out) { get_items(v, out); }
template <class T>
void get(const json& v, std::optional<T>& out) {
  get(v, out.emplace());
}

struct Writer {
  json& j;
  template <class T>
  void operator()(const char* key, const T& v) const { put(j, key, v); }
};
struct Reader {
  const json& j;
  template <class T>
  void operator()(const char* key, T& v) const {
    try {
      if (const auto it = j.find(key); it != j.end() && !it->is_null()) get(*it, v);
    } catch (const json::exception& e) {
      api::throw_at(key, e);
    }
  }
  // Every answer and trial is of a frame size: one without is no result.
  void operator()(const char* key, FrameSizeName& v) const {
    try {
      get(j.at(key), v);
    } catch (const json::exception& e) {
      api::throw_at(key, e);
    }
  }
};

constexpr auto latency_fields = LR_JSON_FIELDS(samples, min, mean, p50, p99, p999, max, jitter);

constexpr auto pair_fields = LR_JSON_FIELDS(tx_port, rx_port, streams, tx_packets, rx_packets, lost, pps, l1_bps);

constexpr auto trial_latency_fields = LR_JSON_FIELDS(samples, min, mean, p50, p99, p999, max, jitter, lost);

constexpr auto rate_fields = LR_JSON_FIELDS(frame_size, frame_bytes_mean, rate_percent, percent_line_rate, pps, l1_bps,
                                            l2_bps, loss_percent, trials, limited_by, why, method,
                                            tester_limited_at_percent, latency_ns, per_pair);

// A measured latency answer's fields; one not measured is its frame size and `why`.
constexpr auto latency_measured_fields = LR_JSON_FIELDS(frame_size, rate_percent, offered_percent, trials,
                                                        invalid_trials, lost, across_trials, per_trial, note);
constexpr auto latency_answer_fields = [](auto& value, auto&& fn) {
  latency_measured_fields(value, fn);
  fn("why", value.why);
};

constexpr auto frame_loss_fields = LR_JSON_FIELDS(frame_size, rate_percent, offered_percent, loss_percent, valid, note);

constexpr auto back_to_back_fields = LR_JSON_FIELDS(frame_size, searches, bursts, mean_frames, min_frames, max_frames,
                                                    max_burst_frames, line_rate_pps, implied_buffer_time_s,
                                                    corrected_buffer_time_s, throughput_percent, buffered_frames,
                                                    lost_at_frames, note);

constexpr auto trial_fields = LR_JSON_FIELDS(test, frame_size, frame_bytes_mean, rate_percent, offered_percent,
                                             offered_pps, offered_l1_bps, loss_percent, duration_s, warm_up_s,
                                             burst_frames, tx_packets, rx_packets, lost, passed, confirmation, valid,
                                             lost_though_sent_short, interrupted, invalid_reason, latency_ns);

constexpr auto layout_fields = LR_JSON_FIELDS(stream, tx_port, rx_port);

constexpr auto mlr_goal_fields = LR_JSON_FIELDS(name, loss_ratio, exceed_ratio, relative_width, initial_trial_duration_s,
                                                final_trial_duration_s, duration_sum_s, preceding_targets,
                                                relevant_lower_bound_percent, relevant_upper_bound_percent,
                                                conditional_throughput_percent, conditional_throughput_pps,
                                                conditional_throughput_l1_bps, tester_limited, note);

constexpr auto mlr_trial_fields = LR_JSON_FIELDS(duration_s, loss_ratio);

template <class T, class FieldsFn>
json written(const T& value, FieldsFn&& fields) {
  json j = json::object();
  fields(value, Writer{j});
  return j;
}

template <class T, class FieldsFn>
T read(const json& j, FieldsFn&& fields) {
  T value;
  if (j.is_object()) fields(value, Reader{j});
  return value;
}

LatencyNs latency_from_json(const json& j) {
  return read<LatencyNs>(j, latency_fields);
}

template <class T>
constexpr auto& item_fields() {
  if constexpr (std::is_same_v<T, PairFigures>) return pair_fields;
  else return trial_latency_fields;
}

// An array of T, each item read by its fields.
template <class T>
void get_items(const json& v, std::vector<T>& out) {
  out.clear();
  for (size_t i = 0; i < v.size(); ++i) {
    try {
      out.push_back(read<T>(v.at(i), item_fields<T>()));
    } catch (const json::exception& e) {
      api::throw_at(fmt::format("[{}]", i), e);
    }
  }
}

// The report's array `key`, each item read by `fields`; empty when it has none.
template <class T, class FieldsFn>
std::vector<T> read_list(const json& report, const char* key, FieldsFn&& fields) {
  std::vector<T> out;
  api::read_items(report, key, out, [&](const json& item) { return read<T>(item, fields); });
  return out;
}

MlrSizeAnswer mlr_size_from_json(const json& j) {
  MlrSizeAnswer size;
  if (!j.is_object()) return size;
  Reader{j}("frame_size", size.frame_size);
  Reader{j}("trials", size.trials);
  size.goals = read_list<MlrGoalAnswer>(j, "goals", mlr_goal_fields);
  api::read_items(j, "loads", size.loads, [](const json& item) {
    MlrLoad load;
    if (!item.is_object()) return load;
    Reader{item}("load_percent", load.load_percent);
    load.trials = read_list<MlrTrialFigures>(item, "trials", mlr_trial_fields);
    return load;
  });
  return size;
}

}  // namespace

std::string limit_or_why(const RateAnswer& r) {
  return r.limited_by && !r.limited_by->empty() ? *r.limited_by : r.why.value_or("");
}

json to_json(const LatencyNs& l) { return written(l, latency_fields); }
json to_json(const PairFigures& p) { return written(p, pair_fields); }
json to_json(const TrialLatency& t) { return written(t, trial_latency_fields); }
json to_json(const RateAnswer& r) {
  json j = written(r, rate_fields);
  if (!r.percent_line_rate) j["percent_line_rate"] = nullptr;  // no answer: said, not left out
  return j;
}
json to_json(const FrameSizeName& s) {
  uint64_t bytes = 0;
  const char* end = s.text.data() + s.text.size();
  const auto [at, error] = std::from_chars(s.text.data(), end, bytes);
  return !s.text.empty() && error == std::errc() && at == end ? json(bytes) : json(s.text);
}
json to_json(const LatencyAnswer& r) {
  if (!r.rate_percent) {
    json j = {{"why", r.why}};
    put(j, "frame_size", r.frame_size);
    return j;
  }
  json j = written(r, latency_measured_fields);
  if (!r.offered_percent) j["offered_percent"] = nullptr;  // no valid trial: said, not left out
  if (!r.why.empty()) j["why"] = r.why;                    // and why there are no figures
  return j;
}
json to_json(const FrameLossPoint& p) { return written(p, frame_loss_fields); }
json to_json(const BackToBackAnswer& r) { return written(r, back_to_back_fields); }
json to_json(const TrialRow& t) { return written(t, trial_fields); }
json to_json(const MlrGoalAnswer& g) {
  json j = written(g, mlr_goal_fields);
  // None of a bound or of the conditional throughput is said, as null.
  for (const char* key : {"relevant_lower_bound_percent", "relevant_upper_bound_percent", "conditional_throughput_percent"})
    if (!j.contains(key)) j[key] = nullptr;
  if (g.note.empty()) j.erase("note");
  return j;
}
json to_json(const MlrSizeAnswer& m) {
  json loads = json::array();
  for (const MlrLoad& l : m.loads) {
    json trials = json::array();
    for (const MlrTrialFigures& t : l.trials) trials.push_back(written(t, mlr_trial_fields));
    loads.push_back({{"load_percent", l.load_percent}, {"trials", std::move(trials)}});
  }
  json out = {{"goals", api::json_array(m.goals)}, {"loads", std::move(loads)}, {"trials", m.trials}};
  put(out, "frame_size", m.frame_size);
  return out;
}

json to_json(const BenchReport& r) {
  json layout = json::array();
  for (const StreamLayout& l : r.layout) layout.push_back(written(l, layout_fields));
  return {{"suite", r.suite},
          {"settings", {{"loss_tolerance_percent", r.loss_tolerance_percent},
                        {"pdr_loss_tolerance_percent", r.pdr_loss_tolerance_percent}}},
          {"layout", std::move(layout)},
          {"throughput", api::json_array(r.throughput)},
          {"ndr", api::json_array(r.ndr)},
          {"pdr", api::json_array(r.pdr)},
          {"latency", api::json_array(r.latency)},
          {"frame_loss", api::json_array(r.frame_loss)},
          {"back_to_back", api::json_array(r.back_to_back)},
          {"mlrsearch", api::json_array(r.mlrsearch)},
          {"trials", api::json_array(r.trials)},
          {"warnings", r.warnings}};
}

RateAnswer rate_answer_from_json(const json& j) { return read<RateAnswer>(j, rate_fields); }
LatencyAnswer latency_answer_from_json(const json& j) { return read<LatencyAnswer>(j, latency_answer_fields); }
FrameLossPoint frame_loss_point_from_json(const json& j) { return read<FrameLossPoint>(j, frame_loss_fields); }
BackToBackAnswer back_to_back_from_json(const json& j) { return read<BackToBackAnswer>(j, back_to_back_fields); }

BenchReport bench_report_from_json(const json& report) {
  BenchReport r;
  if (!report.is_object()) return r;
  Reader{report}("suite", r.suite);
  if (const auto settings = report.find("settings"); settings != report.end() && settings->is_object()) {
    Reader{*settings}("loss_tolerance_percent", r.loss_tolerance_percent);
    Reader{*settings}("pdr_loss_tolerance_percent", r.pdr_loss_tolerance_percent);
  }
  r.layout = read_list<StreamLayout>(report, "layout", layout_fields);
  r.throughput = read_list<RateAnswer>(report, "throughput", rate_fields);
  r.ndr = read_list<RateAnswer>(report, "ndr", rate_fields);
  r.pdr = read_list<RateAnswer>(report, "pdr", rate_fields);
  r.latency = read_list<LatencyAnswer>(report, "latency", latency_answer_fields);
  r.frame_loss = read_list<FrameLossPoint>(report, "frame_loss", frame_loss_fields);
  r.back_to_back = read_list<BackToBackAnswer>(report, "back_to_back", back_to_back_fields);
  api::read_items(report, "mlrsearch", r.mlrsearch, mlr_size_from_json);
  r.trials = read_list<TrialRow>(report, "trials", trial_fields);
  // A warning is text; one of another shape is shown as its JSON.
  if (const auto it = report.find("warnings"); it != report.end() && it->is_array())
    for (const json& w : *it) r.warnings.push_back(w.is_string() ? w.get<std::string>() : w.dump());
  return r;
}

}  // namespace lr::bench
